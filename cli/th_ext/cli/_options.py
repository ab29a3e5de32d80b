"""The options the commands share, each declared once with its name, metavar, default and help,
and turned into the library's values (``SourceLimits``, ``FleetOptions``) the same everywhere."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from th_ext import SourceArgumentError, ThExtError, UnknownCodeError
from th_ext.catalog import discover
from th_ext.cli._terminal import ExitCode, fail, write
from th_ext.problems import Selection, os_reason
from th_ext.sources import (
    DEFAULT_MAX_BYTES,
    DEFAULT_TIMEOUT,
    MAX_BYTES_LIMIT,
    MAX_RETRIES,
    MAX_TIMEOUT,
    SourceLimits,
    check_limits,
    is_url,
    parse_header,
)

__all__ = [
    "DEFAULT_GIVE_UP",
    "DEFAULT_JOBS",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_PER_ORIGIN",
    "DEFAULT_TIMEOUT",
    "KEY_ALGORITHMS",
    "MAX_JOBS",
    "MAX_RATE",
    "PASSWORD_VARIABLE",
    "DbOption",
    "ExitZeroOption",
    "FetchKeysOption",
    "FetchSchemasOption",
    "FleetOptions",
    "FromOption",
    "HarOption",
    "HarOrStdoutOption",
    "HeaderOption",
    "HeaderOriginOption",
    "IgnoreOption",
    "JobsOption",
    "JunitFileOption",
    "KeysOption",
    "MaxBytesOption",
    "Named",
    "OriginFailuresOption",
    "OutputOption",
    "PasswordFileOption",
    "PerOriginOption",
    "QuietOption",
    "RateOption",
    "RequireSignatureOption",
    "ResumeOption",
    "RetriesOption",
    "SchemasOption",
    "SelectOption",
    "SourceArgument",
    "StatisticsOption",
    "TextOrJson",
    "TextOrJsonOption",
    "code_selection",
    "complete_extension",
    "emptying_options",
    "final_exit_code",
    "format_option",
    "given_format",
    "is_stdout",
    "note_withheld",
    "refuse_writing_over",
    "source_limits",
    "timeout_option",
    "verdict_options",
    "write_output",
]

SourceArgument = Annotated[
    str,
    typer.Argument(
        help="The agent card: a file, - for standard input, or an http(s) URL. A URL not ending "
        "in .json is the agent's base URL (the card is read at /.well-known/agent-card.json).",
        metavar="SOURCE",
        show_default=False,
    ),
]

HeaderOption = Annotated[
    list[str] | None,
    typer.Option(
        "--header",
        "-H",
        metavar="'NAME: VALUE'",
        help="Send this HTTP header (repeatable), e.g. for authorization. It goes only to the "
        "origin (scheme, host, port) of SOURCE and of each --header-origin: never to another "
        "origin a redirect or the card points to. The value is never printed.",
        show_default=False,
    ),
]

HeaderOriginOption = Annotated[
    list[str] | None,
    typer.Option(
        "--header-origin",
        metavar="URL",
        help="Also send the --header values to this URL's origin (repeatable), e.g. an agent "
        "interface on another host than the card.",
        show_default=False,
    ),
]

_BOUND = f"(more than 0, at most {MAX_TIMEOUT:g})"

#: What each command's ``--timeout`` bounds, after the fetch of a card URL that all share.
CARD_ONLY = ""
CARD_CHECK = ", and the checking of the card"
LIVE_EXCHANGE = ", and with --live the exchange with the agent, a stream included"
EACH_EXCHANGE = ", and each exchange with the agent, a stream included"


def seconds(text: str) -> float:
    """A ``--timeout`` value: a number, or a usage error that shows what was typed (escaped,
    whatever it holds: the value is read here, before any validation of the framework's)."""
    try:
        return float(text)
    except ValueError:
        raise typer.BadParameter(f"{text!r} is not a number of seconds") from None


def timeout_option(bounds: str) -> Any:
    """The ``--timeout`` option of a command whose timeout also bounds ``bounds`` (one of the
    constants above); its name, metavar, range and default display are the same everywhere."""
    return typer.Option(
        "--timeout",
        parser=seconds,
        metavar="SECONDS",
        help=f"Give up after this long: the whole fetch of a card URL, redirects included"
        f"{bounds} {_BOUND}.",
        show_default=True,
    )


MaxBytesOption = Annotated[
    int,
    typer.Option(
        "--max-bytes",
        metavar="N",
        help=f"Stop reading past this many bytes, counted after decompression (1 to "
        f"{MAX_BYTES_LIMIT}).",
        show_default=True,
    ),
]

KEY_ALGORITHMS = (
    "ES256",
    "ES384",
    "ES512",
    "RS256",
    "RS384",
    "RS512",
    "PS256",
    "PS384",
    "PS512",
    "EdDSA",
)
"""``th_ext.signatures.ALGORITHMS``, for the help and completion (a test keeps them equal)."""
PASSWORD_VARIABLE = "TH_EXT_KEY_PASSWORD"
"""``th_ext.signatures.PASSWORD_VARIABLE`` (a test keeps them equal)."""

PasswordFileOption = Annotated[
    Path | None,
    typer.Option(
        "--password-file",
        metavar="FILE",
        help=f"The password of an encrypted PEM key: this file's first line (or set "
        f"{PASSWORD_VARIABLE}).",
        show_default=False,
    ),
]


_HAR_HELP = (
    "Write every HTTP exchange of the run, streams included, to FILE as an HTTP Archive "
    "(HAR 1.2) that browsers' developer tools open; --header values are written ***, bodies "
    "are kept up to --max-bytes."
)

HarOption = Annotated[
    Path | None,
    typer.Option("--har", metavar="FILE", help=_HAR_HELP, show_default=False, dir_okay=False),
]

HarOrStdoutOption = Annotated[
    Path | None,
    typer.Option(
        "--har",
        metavar="FILE",
        help=f"{_HAR_HELP} FILE - writes it to standard output, when -o FILE takes the report.",
        show_default=False,
        dir_okay=False,
    ),
]

JunitFileOption = Annotated[
    Path | None,
    typer.Option(
        "--junit-file",
        metavar="FILE",
        help="Also write the report as JUnit XML to FILE (for CI systems), whatever --format.",
        show_default=False,
        dir_okay=False,
    ),
]

SchemasOption = Annotated[
    Path | None,
    typer.Option(
        "--schemas",
        metavar="DIR",
        help="A folder of the family's other extension schemas, found by their $id (such as a "
        "tiny-harness checkout's docs/a2a/ext): their data is checked too.",
        show_default=False,
        file_okay=False,
    ),
]

FetchSchemasOption = Annotated[
    bool,
    typer.Option(
        "--fetch-schemas",
        help="Fetch the family's schemas that no folder gave from their $id over HTTPS (the "
        "card's limits, no header sent), pinned by the published catalog's sha256 and cached.",
        show_default=True,
    ),
]


def format_option(choices: type[StrEnum]) -> Any:
    """The ``--format`` option offering ``choices`` (a command's own enum), all listed."""
    return typer.Option(
        "--format",
        "-f",
        metavar="[" + "|".join(choice.value for choice in choices) + "]",
        help="Output format.",
        show_default=True,
    )


class TextOrJson(StrEnum):
    """The ``--format`` choices of every command that prints text or one JSON document."""

    text = "text"
    json = "json"


TextOrJsonOption = Annotated[TextOrJson, format_option(TextOrJson)]


RetriesOption = Annotated[
    int,
    typer.Option(
        "--retries",
        metavar="N",
        help=f"Try a request of a card URL again up to N times (0 to {MAX_RETRIES}) when it "
        "fails in a way that may pass: no connection, or HTTP 429, 502, 503 or 504. Each waits "
        "an exponential backoff with jitter, or the server's Retry-After when that ends within "
        "--timeout; each is listed in the source's JSON Lines.",
        show_default=True,
    ),
]


def source_limits(
    headers: list[str] | None,
    timeout: float,
    max_bytes: int,
    header_origins: list[str] | None = None,
    retries: int = 0,
) -> SourceLimits:
    """The options as ``SourceLimits``; a malformed or out-of-range value ends the command with
    a one-line usage error (exit code 2). The ranges are the library's (``check_limits``)."""
    try:
        parsed = tuple(parse_header(text) for text in headers or ())
    except SourceArgumentError as exc:
        fail(f"--header: {exc}", ExitCode.UNUSABLE)
    limits = SourceLimits(
        headers=parsed,
        timeout=timeout,
        max_bytes=max_bytes,
        header_origins=tuple(header_origins or ()),
        retries=retries,
    )
    try:
        check_limits(
            limits, {"timeout": "--timeout", "max_bytes": "--max-bytes", "retries": "--retries"}
        )
    except SourceArgumentError as exc:
        named = exc.code in ("bad-timeout", "bad-max-bytes", "bad-retries")
        fail(str(exc) if named else f"--header-origin: {exc}", ExitCode.UNUSABLE)
    return limits


def given_format(ctx: typer.Context, output_format: str) -> str | None:
    """``--format``'s value when the command line gives it, ``None`` when it is the default."""
    source = ctx.get_parameter_source("output_format")
    return None if source is None or source.name == "DEFAULT" else output_format


def note_withheld(notices: tuple[str, ...] | list[str]) -> None:
    """One line on standard error per origin the --header values were withheld from."""
    for notice in notices:
        write(f"th-ext: note: {notice}", err=True)


def complete_extension(ctx: typer.Context, incomplete: str) -> list[str]:
    """The extension keys (``commands/v1``) and URIs that begin with ``incomplete``.

    They come from the folder the command will read: its ``--extensions-dir`` when it has one
    (``lock add`` reads the repository's folder, drafts included), else the bundled copies.
    """
    folder = ctx.params.get("extensions_dir")  # typed on the line, else the default, or None
    try:
        versions = discover(Path(folder) if isinstance(folder, str | Path) else None)
    except ThExtError:  # an unreadable folder completes nothing; the command will say why
        return []
    offered = [version.key for version in versions]
    if incomplete.startswith(("h", "H")):
        offered += [version.uri for version in versions]
    return [name for name in offered if name.startswith(incomplete)]


#: The library's defaults (``th_ext.batch``), repeated here so that reading the options does
#: not load the batch; a test holds them equal.
DEFAULT_JOBS = 16
DEFAULT_PER_ORIGIN = 4
MAX_JOBS = 10_000
DEFAULT_GIVE_UP = 5
MAX_RATE = 10_000.0

FromOption = Annotated[
    str | None,
    typer.Option(
        "--from",
        metavar="FILE",
        help="Also check every source listed in FILE, one a line (- for standard input; blank "
        "lines and lines starting with # are skipped). A source listed twice is checked once.",
        show_default=False,
    ),
]
JobsOption = Annotated[
    int,
    typer.Option(
        "--jobs",
        "-j",
        metavar="N",
        min=1,
        max=MAX_JOBS,
        help="Check up to N sources at once.",
        show_default=True,
    ),
]
PerOriginOption = Annotated[
    int,
    typer.Option(
        "--per-origin",
        metavar="N",
        min=1,
        max=MAX_JOBS,
        help="Check at most N sources of one origin (scheme, host, port) at once, and send "
        "it at most N requests at once. A source waiting for its origin holds no job, and its "
        "--timeout starts once it holds both.",
        show_default=True,
    ),
]
RateOption = Annotated[
    float | None,
    typer.Option(
        "--rate",
        metavar="R",
        help=f"Send at most R requests a second to one origin, beside --per-origin (more than "
        f"0, at most {MAX_RATE:g}; 0.5 is one every two seconds). Unlimited by default.",
        show_default=False,
    ),
]
OriginFailuresOption = Annotated[
    int,
    typer.Option(
        "--origin-failures",
        metavar="N",
        help="After N sources of one origin in a row could not connect or got no answer within "
        "--timeout, fail the origin's other sources at once with the code origin-failed, "
        "naming the first failure (0: never).",
        show_default=True,
    ),
]
OutputOption = Annotated[
    Path | None,
    typer.Option(
        "--output",
        "-o",
        metavar="FILE",
        help="Write the output to FILE instead of standard output.",
        show_default=False,
        dir_okay=False,
    ),
]
ResumeOption = Annotated[
    Path | None,
    typer.Option(
        "--resume",
        metavar="FILE",
        help="Resume the run whose JSON Lines are in FILE: skip the sources it holds and "
        "append the others (implies --format jsonl and -o FILE).",
        show_default=False,
        dir_okay=False,
    ),
]
QuietOption = Annotated[
    bool,
    typer.Option(
        "--quiet",
        "-q",
        help="Less output: no progress line on standard error, and fewer lines saying that "
        "something passed (validate: not 'source: ok' nor 'document: ok', the verdicts of the "
        "card and its extensions stay; conform: not the requirements that passed).",
    ),
]
DbOption = Annotated[
    Path | None,
    typer.Option(
        "--db",
        metavar="PATH",
        help="Also record the run in the SQLite history store PATH (created if missing): "
        "each source's outcome as it is checked. Read it with th-ext history PATH.",
        show_default=False,
    ),
]


def verdict_options(**options: Any) -> dict[str, Any]:
    """The options that change a run's verdicts, as plain JSON values for the history store:
    those left unset are left out, and of ``header`` only the names are kept (its values may
    be secrets)."""
    kept: dict[str, Any] = {}
    for name, value in options.items():
        if value is None or value is False or (isinstance(value, list | tuple) and not value):
            continue
        if name == "header":
            kept[name] = sorted({str(item).split(":", 1)[0].strip() for item in value})
        else:
            kept[name] = _plain(value)
    return kept


def _plain(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, str | int | float | bool):
        return value
    return str(value)


@dataclass(frozen=True, slots=True)
class FleetOptions:
    """The options of a run over many sources; a ``--rate`` or ``--origin-failures`` out of
    range ends the command with a one-line usage error (exit code 2)."""

    from_file: str | None = None
    jobs: int = DEFAULT_JOBS
    per_origin: int = DEFAULT_PER_ORIGIN
    output: Path | None = None
    resume: Path | None = None
    quiet: bool = False
    db: Path | None = None
    verdict: dict[str, Any] | None = None
    """The options that change verdicts, as ``--db`` records them (``verdict_options``)."""
    statistics: bool = False
    rate: float | None = None
    give_up: int = DEFAULT_GIVE_UP

    def __post_init__(self) -> None:
        if self.rate is not None and not 0 < self.rate <= MAX_RATE:  # also false for nan
            fail(
                f"--rate must be a number of requests a second, more than 0 and at most "
                f"{MAX_RATE:g}, not {self.rate:.6g}"
            )
        if not 0 <= self.give_up <= MAX_JOBS:
            fail(
                f"--origin-failures must be a whole number from 0 to {MAX_JOBS}, not {self.give_up}"
            )


StatisticsOption = Annotated[
    bool,
    typer.Option(
        "--statistics",
        help="Print the counts by problem code (and by error code of the sources that could "
        "not be read), most frequent first, instead of the reports; text or json.",
    ),
]
SelectOption = Annotated[
    str | None,
    typer.Option(
        "--select",
        metavar="CODES",
        help="Count only these codes (comma-separated); a prefix such as signature- names a "
        "family. The others are left out before the exit code is decided.",
        show_default=False,
    ),
]
IgnoreOption = Annotated[
    str | None,
    typer.Option(
        "--ignore",
        metavar="CODES",
        help="Leave out these codes (comma-separated, or a family prefix such as a2a-0.3-) "
        "before the exit code is decided.",
        show_default=False,
    ),
]
ExitZeroOption = Annotated[
    bool,
    typer.Option(
        "--exit-zero",
        help="Exit 0 even when problems were found (a source that cannot be read still exits 2).",
    ),
]


def code_selection(
    select: str | None,
    ignore: str | None,
    known: tuple[str, ...] | None = None,
    what: str = "problem code",
) -> Selection:
    """``--select`` and ``--ignore`` as the library's ``Selection``; a code that does not
    exist ends the command with a one-line usage error (exit code 2)."""
    try:
        return Selection.parse(select, ignore, known, what=what)
    except UnknownCodeError as exc:
        fail(str(exc), ExitCode.UNUSABLE)


def emptying_options(select: str | None, ignore: str | None, others: list[str]) -> str:
    """``--select`` and ``--ignore`` as typed, then ``others`` (``--level SHOULD``), for the
    error of a selection that leaves nothing to check: ``--select CMD-3 with --level SHOULD``."""
    given = [
        *([f"--select {select}"] if select is not None else []),
        *([f"--ignore {ignore}"] if ignore is not None else []),
        *others,
    ]
    return " with ".join([given[0], " and ".join(given[1:])]) if len(given) > 1 else given[0]


Named = tuple[str, str | Path | None]
"""A file a command names, with what names it: ``("-o", path)``, ``("the source", "card.json")``."""


def refuse_writing_over(written: Iterable[Named], read: Iterable[Named]) -> None:
    """End the command (exit 2) before it writes anything when a file it writes is one it
    reads (a card, the list, a key, the history store) or two of its outputs are one file:
    an output opened for writing would empty the card before it is read, or replace it after.
    ``-`` (standard input) and URLs are no files; ``None`` is an option not given.

    An output of ``-`` is standard output. The first of ``written`` is the command's own
    output, on standard output unless it names a file: another output may be ``-`` only then,
    and only one, so that two documents never mix on standard output."""
    written = list(written)
    own = written[0][1] if written else None
    on_stdout: str | None = None
    for index, (option, path) in enumerate(written):
        if not is_stdout(path):
            continue
        if option == "--resume":
            fail("--resume -: a run is resumed from the file of its JSON Lines; give its path")
        if index and (own is None or is_stdout(own)):
            fail(
                f"{option} -: standard output carries the command's own output; give it "
                f"-o FILE, or give {option} a file"
            )
        if on_stdout is not None:
            fail(f"{option} -: standard output carries {on_stdout} -; give one of them a file")
        on_stdout = option
    outputs = [
        (what, str(path)) for what, path in written if path is not None and not is_stdout(path)
    ]
    inputs = [
        (what, str(path))
        for what, path in read
        if path is not None and str(path) != "-" and not is_url(str(path))
    ]
    for index, (option, path) in enumerate(outputs):
        for what, other in inputs:
            if _same_file(path, other):
                fail(
                    f"{option} {path}: the same file as {what} {other}; th-ext does not write "
                    "over a file it reads"
                )
        for what, other in outputs[:index]:
            if _same_file(path, other):
                fail(f"{option} {path}: the same file as {what} {other}; give each its own")


def _same_file(one: str, other: str) -> bool:
    try:
        return Path(one).samefile(other)
    except ValueError:  # a NUL byte: no file at all
        return False
    except OSError:  # one is not there yet: the same file if both name one place
        pass
    try:
        return Path(one).resolve() == Path(other).resolve()
    except (OSError, RuntimeError):
        return False


def is_stdout(path: str | Path | None) -> bool:
    """Whether ``path``, an output given on the command line, is ``-``: standard output."""
    return path is not None and str(path) == "-"


def write_output(path: Path, option: str, text: str) -> None:
    """Write ``text`` to the file of ``option`` (standard output for ``-``), or end the command
    with one line saying why not."""
    if is_stdout(path):
        sys.stdout.flush()
        sys.stdout.buffer.write(text.encode("utf-8"))  # as a file would hold it
        sys.stdout.buffer.flush()
        return
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"{option} {path}: cannot be written ({os_reason(exc)})")


def final_exit_code(code: int, exit_zero: bool) -> int:
    """The command's exit code: ``--exit-zero`` turns 1 (problems found) into 0."""
    return 0 if exit_zero and code == 1 else code


KeysOption = Annotated[
    list[str] | None,
    typer.Option(
        "--keys",
        metavar="PATH|URL",
        help="Verify the card's signatures (A2A 1.0 section 8.4) with the keys of this JWKS "
        "(repeatable). Read under the card's limits, with no header sent.",
        show_default=False,
    ),
]
FetchKeysOption = Annotated[
    bool,
    typer.Option(
        "--fetch-keys",
        help="Also read a signature's jku when it is on the card's own origin (same scheme, "
        "host and port; https, or http on a loopback address). Any other jku is never "
        "contacted.",
        show_default=True,
    ),
]
RequireSignatureOption = Annotated[
    bool,
    typer.Option(
        "--require-signature",
        help="Fail when the card has no signature that verifies over section 8.4.1's form.",
        show_default=True,
    ),
]
