"""``th-ext conform``: check live agents, one or many, against every requirement of the commands
extension, as one batch (``th_ext.batch.check_agents``)."""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import Iterable, Iterator
from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from th_ext.catalog import family_schemas
from th_ext.cli._options import (
    DEFAULT_GIVE_UP,
    DEFAULT_JOBS,
    DEFAULT_MAX_BYTES,
    DEFAULT_PER_ORIGIN,
    DEFAULT_TIMEOUT,
    EACH_EXCHANGE,
    DbOption,
    ExitZeroOption,
    FetchKeysOption,
    FetchSchemasOption,
    FleetOptions,
    FromOption,
    HarOrStdoutOption,
    HeaderOption,
    HeaderOriginOption,
    JobsOption,
    JunitFileOption,
    KeysOption,
    MaxBytesOption,
    OriginFailuresOption,
    OutputOption,
    PerOriginOption,
    QuietOption,
    RateOption,
    RequireSignatureOption,
    ResumeOption,
    RetriesOption,
    SchemasOption,
    StatisticsOption,
    code_selection,
    emptying_options,
    final_exit_code,
    format_option,
    given_format,
    is_stdout,
    refuse_writing_over,
    source_limits,
    timeout_option,
    verdict_options,
    write_output,
)
from th_ext.cli._terminal import StepProgress, fail, use_color, write
from th_ext.cli._validate import signature_options
from th_ext.net import HarRecorder, har_recording
from th_ext.problems import Selection, counted

__all__ = ["conform_command"]


class ConformFormat(StrEnum):
    text = "text"
    json = "json"
    jsonl = "jsonl"
    junit = "junit"
    github = "github"
    sarif = "sarif"


class BindingChoice(StrEnum):
    jsonrpc = "jsonrpc"
    http_json = "http+json"


class LevelChoice(StrEnum):
    must = "MUST"
    should = "SHOULD"
    may = "MAY"


_BINDINGS = {BindingChoice.jsonrpc: "JSONRPC", BindingChoice.http_json: "HTTP+JSON"}

SourcesArgument = Annotated[
    list[str] | None,
    typer.Argument(
        help="The agent's card: a file, - for standard input, or an http(s) URL. A URL not "
        "ending in .json is the agent's base URL (the card is read at "
        "/.well-known/agent-card.json). Several (or --from) are checked --jobs at a time.",
        metavar="SOURCE...",
        show_default=False,
    ),
]


def conform_command(  # noqa: PLR0917 (typer maps parameters to options)
    ctx: typer.Context,
    sources: SourcesArgument = None,
    command: Annotated[
        list[str] | None,
        typer.Option(
            "--command", metavar="NAME", help="Run only this command (repeatable; no slash)."
        ),
    ] = None,
    skip_command: Annotated[
        list[str] | None,
        typer.Option(
            "--skip-command",
            metavar="NAME",
            help="Never send this command, e.g. one with side effects (repeatable).",
        ),
    ] = None,
    binding: Annotated[
        list[BindingChoice] | None,
        typer.Option(
            "--binding",
            metavar="[jsonrpc|http+json]",
            help="Check only this binding (repeatable).",
        ),
    ] = None,
    level: Annotated[
        list[LevelChoice] | None,
        typer.Option(
            "--level",
            metavar="[MUST|SHOULD|MAY]",
            help="Report only requirements of this level (repeatable).",
        ),
    ] = None,
    strict: Annotated[
        bool, typer.Option("--strict", help="Fail on SHOULD requirements too (warnings).")
    ] = False,
    output_format: Annotated[ConformFormat, format_option(ConformFormat)] = ConformFormat.text,
    html: Annotated[
        Path | None,
        typer.Option("--html", metavar="FILE", help="Also write a self-contained HTML report."),
    ] = None,
    junit_file: JunitFileOption = None,
    max_interfaces: Annotated[
        int,
        typer.Option(
            "--max-interfaces",
            metavar="N",
            min=1,
            max=1000,
            help="Check at most N interfaces of the card (default 8); a note names the others.",
        ),
    ] = 8,
    max_commands: Annotated[
        int,
        typer.Option(
            "--max-commands",
            metavar="N",
            min=1,
            max=100_000,
            help="Exercise at most N commands of the card, in card order (default 50); a note "
            "names the others.",
        ),
    ] = 50,
    schemas: SchemasOption = None,
    fetch_schemas: FetchSchemasOption = False,
    header: HeaderOption = None,
    header_origin: HeaderOriginOption = None,
    timeout: Annotated[float, timeout_option(EACH_EXCHANGE)] = DEFAULT_TIMEOUT,
    max_bytes: MaxBytesOption = DEFAULT_MAX_BYTES,
    keys: KeysOption = None,
    fetch_keys: FetchKeysOption = False,
    require_signature: RequireSignatureOption = False,
    from_file: FromOption = None,
    jobs: JobsOption = DEFAULT_JOBS,
    per_origin: PerOriginOption = DEFAULT_PER_ORIGIN,
    rate: RateOption = None,
    origin_failures: OriginFailuresOption = DEFAULT_GIVE_UP,
    retries: RetriesOption = 0,
    output: OutputOption = None,
    resume: ResumeOption = None,
    quiet: QuietOption = False,
    statistics: StatisticsOption = False,
    select: Annotated[
        str | None,
        typer.Option(
            "--select",
            metavar="IDS",
            help="Count only these requirements (comma-separated IDs; a prefix such as A2A- "
            "names a family). The others are left out before the exit code is decided.",
            show_default=False,
        ),
    ] = None,
    ignore: Annotated[
        str | None,
        typer.Option(
            "--ignore",
            metavar="IDS",
            help="Leave out these requirements (comma-separated IDs, or a family prefix such "
            "as A2A-) before the exit code is decided.",
            show_default=False,
        ),
    ] = None,
    exit_zero: ExitZeroOption = False,
    har: HarOrStdoutOption = None,
    db: DbOption = None,
) -> None:
    """Check a live agent against every requirement of the commands extension.

    Sends every registered command (each may have side effects: see --skip-command), an
    unregistered /name and messages that must stay ordinary, on a new and an existing task,
    streaming and with SendMessage, over every JSON-RPC and HTTP+JSON interface on the card.
    Exit 0 when every MUST requirement holds (with --strict, every SHOULD too), 1 when one
    fails, 2 when nothing could be checked.
    """
    # The conformance kit and the batch (the runner, asyncio, httpx: about 150 ms of imports,
    # measured with -X importtime) load only for conform.
    from th_ext.batch import check_agents
    from th_ext.cli._fleet import Tally, run_fleet
    from th_ext.conform import LEVELS, ConformOptions, requirement_ids

    refuse_writing_over(
        [
            ("--resume" if resume else "-o", resume or output),
            ("--junit-file", junit_file),
            ("--html", html),
            ("--har", har),
        ],
        [
            *(("the source", source) for source in sources or []),
            ("--from", from_file),
            ("--db", db),
            *(("--keys", one) for one in keys or []),
        ],
    )
    selection = code_selection(select, ignore, requirement_ids(), "requirement")
    levels = tuple(lv.value for lv in level) if level else LEVELS
    signed = bool(keys) or fetch_keys or require_signature
    _refuse_an_empty_selection(select, ignore, levels, selection, signed=signed)
    limits = source_limits(header, timeout, max_bytes, header_origin, retries)
    family: tuple[Any, ...] = ()
    changed: list[tuple[str, str]] = []
    if schemas is not None or fetch_schemas:
        kinds: Any = ("Task.metadata key", "status update metadata key")
        family, notices = family_schemas(schemas, fetch_schemas, limits, kinds)
        changed = [(n.path, n.message) for n in notices if n.code == "family-schema-changed"]
    options = ConformOptions(
        commands=tuple(name.lstrip("/") for name in command or ()),
        skip_commands=tuple(name.lstrip("/") for name in skip_command or ()),
        bindings=tuple(_BINDINGS[b] for b in binding or ()),
        levels=levels,
        strict=strict,
        limits=limits,
        max_interfaces=max_interfaces,
        max_commands=max_commands,
        family=family,
        family_changed=tuple(changed),
        signatures=signature_options(keys, fetch_keys, require_signature, limits),
        selection=selection,
    )
    sources = sources or []
    if har is not None and (from_file is not None or len(sources) != 1):
        fail("--har records the run of one agent; give one SOURCE without --from")
    verdict = verdict_options(
        command=command,
        skip_command=skip_command,
        binding=binding,
        level=level,
        strict=strict,
        max_interfaces=max_interfaces,
        max_commands=max_commands,
        schemas=schemas,
        fetch_schemas=fetch_schemas,
        header=header,
        timeout=timeout,
        max_bytes=max_bytes,
        keys=keys,
        fetch_keys=fetch_keys,
        require_signature=require_signature,
        select=select,
        ignore=ignore,
    )
    fleet = FleetOptions(
        from_file,
        jobs,
        per_origin,
        output,
        resume,
        quiet,
        db,
        verdict,
        statistics,
        rate=rate,
        give_up=origin_failures,
    )
    # One agent on a terminal: the progress of its messages rather than of the sources.
    steps = len(sources) == 1 and from_file is None and not quiet and use_color(sys.stderr)

    given = given_format(ctx, output_format.value)
    tally = Tally("agent", "passed", "failed")
    title = f"th-ext conform {' '.join(sources)}"
    with (
        _har_recording(har, (name for name, _ in limits.headers), title) as recorder,
        StepProgress() if steps else contextlib.nullcontext() as progress,
    ):
        if progress is not None:
            options = replace(options, progress=progress)
        code = run_fleet(
            "conform",
            sources,
            fleet,
            given,
            functools.partial(check_agents, options=options, recorder=recorder),
            tally,
            junit_file=junit_file,
            html=html,
            progress=not steps,
        )
    if recorder is not None:
        exchanges = counted(len(recorder.entries), "HTTP exchange")
        written = "standard output" if is_stdout(har) else har
        write(f"wrote {written}: {exchanges} (HAR 1.2)", err=True)
    raise typer.Exit(final_exit_code(code, exit_zero))


def _refuse_an_empty_selection(
    select: str | None,
    ignore: str | None,
    levels: tuple[str, ...],
    selection: Selection,
    *,
    signed: bool,
) -> None:
    """End the command (exit 2), before anything is sent, when ``--level``, ``--select`` and
    ``--ignore`` leave no requirement to check: such a run could only pass. The error names
    those of them that did it (``--level`` when it leaves out a requirement of its own)."""
    from th_ext.conform import checked_requirements

    if checked_requirements(levels, selection, signatures=signed):
        return
    every_level = checked_requirements(signatures=signed)
    narrowed = checked_requirements(levels, signatures=signed) != every_level
    named = [f"--level {level}" for level in dict.fromkeys(levels)] if narrowed else []
    reason = f"{emptying_options(select, ignore, named)} leaves no check to run"
    if checked_requirements(levels, selection, signatures=True):
        reason += " (A2A-8.4 is checked with --keys, --fetch-keys or --require-signature)"
    fail(reason)


@contextlib.contextmanager
def _har_recording(
    har: Path | None, secret_headers: Iterable[str], title: str
) -> Iterator[HarRecorder | None]:
    """The run's recorder (``None`` without ``--har``). ``--har -`` writes the HAR to standard
    output when the run ends, as ``-o -`` does (refused unless ``-o FILE`` takes the report);
    a file is written by the library's ``har_recording``."""
    if not is_stdout(har):
        with har_recording(har, secret_headers, title) as recorder:
            yield recorder
        return
    assert har is not None
    recorder = HarRecorder(secret_headers, title)
    try:
        yield recorder
    finally:
        write_output(har, "--har", recorder.text())
