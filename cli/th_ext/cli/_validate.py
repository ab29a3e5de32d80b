"""``th-ext validate``: read agent cards from files, stdin or URLs, and check each.

Exit codes: 0 valid (warnings allowed unless ``--strict``), 1 the card was read and has
problems, 2 no card could be read (usage error, network or HTTP error, over the size cap, not
JSON); with several sources, the worst of them. No traceback reaches the user unless
``--debug`` is given.

With several sources (or ``--from``, ``jsonl``, ``-o``, ``--resume``) the run goes through the
library's batch (``check_cards``), rendered by ``validate_fleet``: text shows each report as it
comes (an unreadable source is its one-line error on standard error), then the summary, ending
in one line counting the cards by verdict. ``jsonl`` is one line per source as soon as it is
checked; ``json`` one array of the reports in list order, ``junit`` one ``<testsuites>``
document holding every report's suites, ``github`` every report's annotations. The exit code is
the worst of the sources'.

Signed cards are here too, as validation's counterpart: the keys options become the library's
``SignatureOptions`` and a card check for ``validate`` and ``conform``, and ``th-ext sign``
writes what ``th_ext.signatures`` makes. ``th_ext.signatures`` is imported only when a keys
option is given or a card is signed, so an unsigned run never loads it.
"""

import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple

import typer

from th_ext import Deadline, SourceError
from th_ext.cli._options import (
    CARD_CHECK,
    DEFAULT_JOBS,
    DEFAULT_PER_ORIGIN,
    ExitZeroOption,
    FetchKeysOption,
    FetchSchemasOption,
    FleetOptions,
    FromOption,
    HeaderOption,
    HeaderOriginOption,
    IgnoreOption,
    JobsOption,
    JunitFileOption,
    KeysOption,
    MaxBytesOption,
    OutputOption,
    PerOriginOption,
    QuietOption,
    RequireSignatureOption,
    ResumeOption,
    SchemasOption,
    SelectOption,
    StatisticsOption,
    code_selection,
    complete_extension,
    family_schemas,
    final_exit_code,
    format_option,
    note_withheld,
    source_limits,
    timeout_option,
)
from th_ext.cli._terminal import (
    ExitCode,
    Spinner,
    error_line,
    fail,
    shown_source,
    stderr_is_terminal,
    unwrap,
    use_color,
)
from th_ext.problems import Selection
from th_ext.report import RenderOptions, error_document, render, stream, to_json
from th_ext.sources import (
    DEFAULT_MAX_BYTES,
    DEFAULT_TIMEOUT,
    SourceLimits,
    is_url,
    read_bounded,
    read_source,
)
from th_ext.validate import (
    Report,
    ValidateOptions,
    read_schema_override,
    report_for_source_error,
    validate_bytes,
)

if TYPE_CHECKING:
    from th_ext.batch import BatchCounts, ListEntry, Outcome, SeenSources
    from th_ext.problems import Problem
    from th_ext.signatures import SignatureOptions

__all__ = [
    "card_check",
    "sign_command",
    "signature_options",
    "validate_command",
    "validate_fleet",
]


class ReportFormat(StrEnum):
    text = "text"
    concise = "concise"
    json = "json"
    jsonl = "jsonl"
    junit = "junit"
    github = "github"
    sarif = "sarif"


#: The formats a person reads: a source that cannot be read is one line on standard error.
FOR_PEOPLE = (ReportFormat.text, ReportFormat.concise)


SourcesArgument = Annotated[
    list[str] | None,
    typer.Argument(
        help="The agent cards to check, each a file, - for standard input, or an http(s) URL. "
        "A URL not ending in .json is the agent's base URL (the card is read at "
        "/.well-known/agent-card.json). Several (or --from) are checked --jobs at a time.",
        metavar="SOURCE...",
        show_default=False,
    ),
]


def validate_command(  # noqa: PLR0917 (typer maps parameters to options)
    sources: SourcesArgument = None,
    output_format: Annotated[ReportFormat, format_option(ReportFormat)] = ReportFormat.text,
    strict: Annotated[bool, typer.Option("--strict", help="Fail on warnings too.")] = False,
    extension: Annotated[
        list[str] | None,
        typer.Option(
            "--extension",
            "-e",
            metavar="URI|KEY",
            autocompletion=complete_extension,
            help="Require this extension (URI, or a bundled key such as commands/v1); "
            "repeatable. By default the card must declare at least one th-ext extension.",
            show_default=False,
        ),
    ] = None,
    schema: Annotated[
        str | None,
        typer.Option(
            "--schema",
            metavar="PATH|URL",
            help="Check the extension's params against this schema instead of the bundled one "
            "(read under the same limits).",
            show_default=False,
        ),
    ] = None,
    junit_file: JunitFileOption = None,
    schemas: SchemasOption = None,
    fetch_schemas: FetchSchemasOption = False,
    header: HeaderOption = None,
    header_origin: HeaderOriginOption = None,
    timeout: Annotated[float, timeout_option(CARD_CHECK)] = DEFAULT_TIMEOUT,
    max_bytes: MaxBytesOption = DEFAULT_MAX_BYTES,
    keys: KeysOption = None,
    fetch_keys: FetchKeysOption = False,
    require_signature: RequireSignatureOption = False,
    from_file: FromOption = None,
    jobs: JobsOption = DEFAULT_JOBS,
    per_origin: PerOriginOption = DEFAULT_PER_ORIGIN,
    output: OutputOption = None,
    resume: ResumeOption = None,
    quiet: QuietOption = False,
    statistics: StatisticsOption = False,
    select: SelectOption = None,
    ignore: IgnoreOption = None,
    exit_zero: ExitZeroOption = False,
) -> None:
    """Check agent cards against A2A 1.0 and the extension schemas th-ext publishes."""
    selection = code_selection(select, ignore)
    limits = source_limits(header, timeout, max_bytes, header_origin)
    options = _Options(
        output_format,
        strict,
        tuple(extension or ()),
        schema,
        limits,
        junit_file,
        schemas,
        fetch_schemas,
        signature_options(keys, fetch_keys, require_signature, limits),
        selection,
    )
    sources = sources or []
    fleet = FleetOptions(from_file, jobs, per_origin, output, resume, quiet, statistics)
    if fleet.wanted(sources, output_format.value):
        options_for, family_notices = _validate_options(options)
        code = validate_fleet(
            sources, fleet, output_format.value, limits, options_for, family_notices, junit_file
        )
        raise typer.Exit(final_exit_code(code, exit_zero))
    if not sources:
        fail("give a SOURCE, or a list of them with --from FILE")
    many = len(sources) > 1
    reports: list[Report] = []

    def checked() -> Iterator[Report]:
        for source in sources:
            report, error = _run(source, options)
            reports.append(report)
            if error is not None and not many:  # a person gets the one-line error
                if options.junit_file is not None:
                    write_junit(render(report, "junit"), options.junit_file)
                raise error
            if error is not None:  # text formats: the one-line error, then the next source
                sys.stdout.flush()
                error_line(str(error))
            yield report

    shown = RenderOptions(color=use_color(sys.stdout), many=many, quiet=quiet)
    for chunk in stream(checked(), output_format.value, shown):
        sys.stdout.write(chunk)
    if options.junit_file is not None:
        write_junit(render(reports if many else reports[0], "junit"), options.junit_file)
    raise typer.Exit(final_exit_code(max(report.exit_code for report in reports), exit_zero))


class _Options(NamedTuple):
    output_format: ReportFormat
    strict: bool
    extensions: tuple[str, ...]
    schema_source: str | None
    limits: SourceLimits
    junit_file: Path | None = None
    schemas_dir: Path | None = None
    fetch_schemas: bool = False
    signatures: Any = None  # th_ext.signatures.SignatureOptions, when a keys option is given
    selection: Selection = Selection()


def _run(source: str, options: _Options) -> tuple[Report, SourceError | None]:
    """The report of one source, and in text format the error that left nothing to read
    (shown as one line rather than as a report)."""
    started = time.monotonic()
    validate_options, family_notices = _validate_options(options)
    spinning = (
        options.output_format is ReportFormat.text
        and is_url(source)
        and stderr_is_terminal()
        and use_color(sys.stderr)
    )
    try:
        with Spinner(unwrap(sys.stderr), f"fetching {shown_source(source)}", enabled=spinning):
            raw = read_source(source, options.limits)
    except SourceError as exc:
        # Nothing was read. A report says so for a program (and for --junit-file); a person
        # gets the one-line error of every command.
        report = report_for_source_error(source, exc, strict=options.strict)
        if options.output_format in FOR_PEOPLE:
            return report, exc
    else:
        location, notices = raw.location, [*raw.notices, *family_notices]
        body = [raw.data]
        del raw
        # The bytes are handed over without another reference, so that a large card's body
        # is freed as soon as it is decoded, before the parse builds the value.
        # The run's deadline covers the validation too: a --schema pattern can backtrack
        # for ever on a hostile name.
        remaining = options.limits.timeout - (time.monotonic() - started)
        timeout = options.limits.timeout
        message = f"the validation did not finish within --timeout ({timeout:g} s)"
        report = validate_bytes(
            body.pop(),
            source=source,
            location=location,
            notices=notices,
            options=validate_options(location if is_url(source) else None, started),
            deadline=Deadline.after(max(remaining, 0.1), message),
        )
    return report, None


def _validate_options(
    options: _Options,
) -> tuple[Callable[[str | None, float], ValidateOptions], list[Any]]:
    """The library's options of a source read from a card URL (``None``: a file or standard
    input) whose check began at a ``time.monotonic()`` moment, with the ``--schema`` and the
    family's schemas read once for the run; and the notices of the family's schemas."""
    override = None
    if options.schema_source is not None:
        override = read_schema_override(options.schema_source, options.limits)
        note_withheld(
            [f"--schema: {n.message}" for n in override.notices if n.code == "header-withheld"]
        )
    family: tuple[Any, ...] = ()
    family_notices: list[Any] = []
    if options.schemas_dir is not None or options.fetch_schemas:
        family, family_notices = family_schemas(
            options.schemas_dir, options.fetch_schemas, options.limits, ("card params",)
        )

    def validate_options(card_url: str | None, started: float) -> ValidateOptions:
        return ValidateOptions(
            strict=options.strict,
            extensions=options.extensions,
            schema=override,
            family=family,
            card_checks=card_check(options.signatures, card_url, started),
            selection=options.selection,
        )

    return validate_options, family_notices


def write_junit(text: str, path: Path) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise SourceError(f"--junit-file {path}: {exc.strerror or exc}") from None


def validate_fleet(  # noqa: PLR0917 (the run's settings, each from its own option)
    sources: list[str],
    fleet: FleetOptions,
    output_format: str,
    limits: SourceLimits,
    options_for: Callable[[str | None, float], ValidateOptions],
    notices: "list[Problem]",
    junit_file: Path | None,
) -> int:
    """Check every source and render the outcomes; the worst exit code. ``notices`` (the
    family's schemas, read once for the run) are reported with every card."""
    # The batch (asyncio, httpx: about 100 ms of imports, measured with -X importtime)
    # loads only for a run over several sources, not for one card.
    from th_ext.batch import check_cards
    from th_ext.cli._fleet import Renderers, run_fleet

    color = fleet.output is None and use_color(sys.stdout)

    def one(outcome: "Outcome", output: str) -> str:
        if not isinstance(outcome.report, Report):  # checked too long: the error document
            assert outcome.error is not None
            return error_document(outcome.error, output, command="validate", source=outcome.source)
        return render(outcome.report, output, color=color)

    def many(outcomes: "list[Outcome]", output: str) -> str:
        if output in ("junit", "concise"):
            return render([o.report for o in outcomes if isinstance(o.report, Report)], output)
        if output == "sarif":  # a source checked too long is its error document
            return render(
                [o.report if o.report is not None else o.document for o in outcomes], output
            )
        return to_json([o.document for o in outcomes]) + "\n"

    def start(
        entries: "AsyncIterator[ListEntry]", counts: "BatchCounts", skip: "SeenSources | None"
    ) -> "AsyncIterator[Outcome]":
        return check_cards(
            entries,
            options=options_for,
            limits=limits,
            jobs=fleet.jobs,
            per_origin=fleet.per_origin,
            skip=skip,
            counts=counts,
            notices=notices,
        )

    renderers = Renderers(one, many, "cards", "valid", "invalid")
    return run_fleet("validate", sources, fleet, output_format, start, renderers, junit_file)


def signature_options(
    keys: list[str] | None, fetch_keys: bool, require: bool, limits: SourceLimits
) -> "SignatureOptions | None":
    """The run's signature options, with every ``--keys`` read now (a keys source that gives
    no JWKS ends the command with one line, exit 2); ``None`` when no option asks for it."""
    if not keys and not fetch_keys and not require:
        return None
    # Imported only when a keys option is given: an unsigned run's start-up never pays for it.
    from th_ext.signatures import SignatureOptions, read_keys

    key_sets = tuple(read_keys(source, limits) for source in keys or ())
    return SignatureOptions(key_sets, fetch_keys, require, None, limits)


def card_check(
    options: "SignatureOptions | None", card_url: str | None, started: float
) -> tuple[Callable[[dict[str, Any]], list["Problem"]], ...]:
    """The card check of one source read from ``card_url`` (``None``: a file or stdin), whose
    check began at ``started`` (``time.monotonic()``): its ``jku`` reads end within the
    source's ``--timeout``, with a tenth of it left for the rest of the check."""
    if options is None:
        return ()
    from th_ext.signatures import check_signatures  # a keys option was given (see above)

    ends = Deadline(started + options.limits.timeout * 0.9, "--timeout")
    for_source = replace(options, card_url=card_url, deadline=ends)
    return (lambda card: check_signatures(card, for_source),)


def sign_command(  # noqa: PLR0917 (typer maps parameters to options)
    card: Annotated[
        Path,
        typer.Argument(metavar="CARD", help="The agent card file to sign.", show_default=False),
    ],
    key: Annotated[
        Path,
        typer.Option(
            "--key",
            metavar="PEM_OR_JWK",
            help="The private key: a PEM file or a JWK (EC P-256/384/521, RSA, Ed25519, Ed448).",
            show_default=False,
        ),
    ],
    kid: Annotated[
        str,
        typer.Option("--kid", metavar="KID", help="The key's id in its JWKS.", show_default=False),
    ],
    jku: Annotated[
        str | None,
        typer.Option(
            "--jku",
            metavar="URL",
            help="Where the JWKS holding the key is served.",
            show_default=False,
        ),
    ] = None,
    alg: Annotated[
        str | None,
        typer.Option(
            "--alg",
            metavar="ALG",
            help="The algorithm (default: the key's own, ES256 for a P-256 key).",
            show_default=False,
        ),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            metavar="OUT",
            help="Write the signed card here (default: standard output).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Append a signature over A2A 1.0 section 8.4.1's canonical form to an agent card."""
    from th_ext.signatures import KeysError, sign_card  # only sign needs it

    data = _read(card, "CARD")
    key_text = _read(key, "--key")
    try:
        signed = sign_card(data, key_text, kid=kid, jku=jku, alg=alg)
    except KeysError as exc:
        fail(str(exc), ExitCode.UNUSABLE)
    except (ValueError, UnicodeDecodeError) as exc:
        fail(f"{card}: not a JSON card ({str(exc).splitlines()[0]})", ExitCode.UNUSABLE)
    if output is None:
        sys.stdout.buffer.write(signed.data)
        sys.stdout.flush()
    else:
        try:
            output.write_bytes(signed.data)
        except OSError as exc:
            fail(f"-o {output}: {exc.strerror or exc}", ExitCode.UNUSABLE)
    sys.stderr.write(f"signed with {signed.alg}, kid {kid!r}, over section 8.4.1's form\n")
    if signed.sdk_rejects:
        sys.stderr.write(f"warning: {signed.sdk_rejects}\n")


def _read(path: Path, what: str) -> bytes:
    try:
        with path.open("rb") as handle:
            data = read_bounded(handle, DEFAULT_MAX_BYTES)
    except OSError as exc:
        fail(f"{what} {path}: {(exc.strerror or str(exc)).lower()}", ExitCode.UNUSABLE)
    if data is None:
        fail(f"{what} {path}: larger than {DEFAULT_MAX_BYTES} bytes", ExitCode.UNUSABLE)
    return data
