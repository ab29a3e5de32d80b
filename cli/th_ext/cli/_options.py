"""The options several commands share, each declared once: the source options (``SOURCE``,
``--header``, ``--header-origin``, ``--timeout``, ``--max-bytes``), the output options
(``--format``, ``--junit-file``) and the family's schemas (``--schemas``, ``--fetch-schemas``).

A command names them by these aliases and nothing else, so that every command takes them with
the same names, metavars, defaults and help, and turns them into the same ``SourceLimits``. Only
two things vary, and each through one function: the sentence saying what a command's
``--timeout`` bounds (``timeout_option``) and a command's ``--format`` choices
(``format_option``).

Shell completion of what th-ext knows by name lives here too: ``th-ext --install-completion``
sets up completion for the user's shell; from then on ``th-ext schema com<TAB>`` offers
``commands/v1``, and so do ``lock add`` and ``validate -e``. And so does ``family_schemas``,
which turns ``--schemas DIR`` and ``--fetch-schemas`` into the schemas of the family's other
extensions, the same way for ``validate`` and ``conform``.

The options of a run over many sources (``--from``, ``--jobs``, ``--per-origin``, ``--output``,
``--resume``, ``--quiet``, ``--statistics``, gathered in ``FleetOptions``), the codes that
count (``--select``, ``--ignore``, ``--exit-zero``) and of signed cards (``--keys``,
``--fetch-keys``, ``--require-signature``) are declared here too, apart from the work they
select (``th_ext.cli._fleet``, ``th_ext.signatures``): a command checking one unsigned source
reads them and never pays for the batch or the signatures.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from th_ext import SourceArgumentError, ThExtError, UnknownCodeError
from th_ext.catalog import (
    AppliesTo,
    FamilySchema,
    bundled_external,
    discover,
    family_key,
    fetch_family_schemas,
    http_fetcher,
    schemas_from_folder,
    user_cache_dir,
)
from th_ext.cli._terminal import ExitCode, fail, write
from th_ext.problems import Problem, Selection
from th_ext.sources import (
    DEFAULT_MAX_BYTES,
    DEFAULT_TIMEOUT,
    MAX_BYTES_LIMIT,
    MAX_TIMEOUT,
    SourceLimits,
    check_limits,
    parse_header,
)

__all__ = [
    "DEFAULT_JOBS",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_PER_ORIGIN",
    "DEFAULT_TIMEOUT",
    "MAX_JOBS",
    "ExitZeroOption",
    "FetchKeysOption",
    "FetchSchemasOption",
    "FleetOptions",
    "FromOption",
    "HeaderOption",
    "HeaderOriginOption",
    "IgnoreOption",
    "JobsOption",
    "JunitFileOption",
    "KeysOption",
    "MaxBytesOption",
    "OutputOption",
    "PerOriginOption",
    "QuietOption",
    "RequireSignatureOption",
    "ResumeOption",
    "SchemasOption",
    "SelectOption",
    "SourceArgument",
    "StatisticsOption",
    "TextOrJson",
    "TextOrJsonOption",
    "code_selection",
    "complete_extension",
    "family_schemas",
    "final_exit_code",
    "format_option",
    "note_withheld",
    "source_limits",
    "timeout_option",
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
        raise typer.BadParameter(f"{text!r} is not a valid float.") from None


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


def source_limits(
    headers: list[str] | None,
    timeout: float,
    max_bytes: int,
    header_origins: list[str] | None = None,
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
    )
    try:
        check_limits(limits)
    except SourceArgumentError as exc:
        words = {
            "bad-timeout": ("the timeout", "--timeout"),
            "bad-max-bytes": ("the byte cap", "--max-bytes"),
        }
        said, option = words.get(exc.code, ("", "--header-origin:"))
        fail(str(exc).replace(said, option, 1) if said else f"{option} {exc}", ExitCode.UNUSABLE)
    return limits


def note_withheld(notices: tuple[str, ...] | list[str]) -> None:
    """One line on standard error per origin the --header values were withheld from."""
    for notice in notices:
        write(f"th-ext: note: {notice}", err=True)


def family_schemas(
    folder: Path | None, fetch: bool, limits: SourceLimits, kinds: tuple[AppliesTo, ...]
) -> tuple[tuple[FamilySchema, ...], list[Problem]]:
    """The schemas found for the family's extensions whose schema applies to one of
    ``kinds``, and the notices to report with them (a changed schema is an error)."""
    entries = [e for e in bundled_external() if set(e.applies_to) & set(kinds)]
    found = {s.uri: s for s in schemas_from_folder(folder, entries)} if folder else {}
    notices: list[Problem] = []
    if fetch:
        missing = [entry for entry in entries if entry.uri not in found]
        fetched = fetch_family_schemas(missing, http_fetcher(limits), user_cache_dir())
        found.update({schema.uri: schema for schema in fetched.schemas})
        notices += [
            Problem(
                "error",
                "family-schema-changed",
                entry.uri,
                message,
                f"report it to {entry.publisher}: a change to {family_key(entry.uri)} needs a"
                " new version",
                "extension",
            )
            for entry, message in fetched.changed
        ]
        notices += [
            Problem("info", "family-schema-not-fetched", "", note, "", "extension")
            for note in fetched.notes
        ]
    return tuple(found.values()), notices


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
        help="Send at most N requests at once to one origin (scheme, host, port).",
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
        help="Less output: no progress line on standard error, and text output leaves out "
        "the 'source: ok' and 'document: ok' lines.",
    ),
]


@dataclass(frozen=True, slots=True)
class FleetOptions:
    from_file: str | None = None
    jobs: int = DEFAULT_JOBS
    per_origin: int = DEFAULT_PER_ORIGIN
    output: Path | None = None
    resume: Path | None = None
    quiet: bool = False
    statistics: bool = False

    def wanted(self, sources: list[str], output_format: str) -> bool:
        """Whether the run goes through the batch rather than the one-source path."""
        return (
            self.from_file is not None
            or len(sources) > 1
            or output_format == "jsonl"
            or self.output is not None
            or self.resume is not None
            or self.statistics
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
