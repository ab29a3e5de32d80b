"""``th-ext conform``: check a live agent against every requirement of the commands extension.

With several agents (or ``--from``, ``jsonl``, ``-o``, ``--resume``) the run goes through the
library's batch (``check_agents``), rendered by ``conform_fleet``. Text shows each agent's
report as it comes (an agent that cannot be checked is its one-line error on standard error),
then the summary. ``jsonl`` is one line per agent as soon as it is checked: the ``--format
json`` report with its ``source``, or the error document of an agent that could not be
checked. ``json`` is one array of those objects in list order, ``junit`` one ``<testsuites>``
document of every agent's suites, ``github`` every agent's annotations.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from collections.abc import AsyncIterator
from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from th_ext.cli._options import (
    DEFAULT_JOBS,
    DEFAULT_MAX_BYTES,
    DEFAULT_PER_ORIGIN,
    DEFAULT_TIMEOUT,
    EACH_EXCHANGE,
    ExitZeroOption,
    FetchKeysOption,
    FetchSchemasOption,
    FleetOptions,
    FromOption,
    HeaderOption,
    HeaderOriginOption,
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
    StatisticsOption,
    code_selection,
    family_schemas,
    final_exit_code,
    format_option,
    source_limits,
    timeout_option,
)
from th_ext.cli._terminal import (
    ExitCode,
    StepProgress,
    fail,
    stderr_is_terminal,
    use_color,
    write,
)
from th_ext.cli._validate import signature_options
from th_ext.report import RenderOptions, error_document, junit_text, render, stream, to_json

if TYPE_CHECKING:
    from th_ext.batch import BatchCounts, ListEntry, Outcome, SeenSources
    from th_ext.conform import ConformOptions

__all__ = ["conform_command", "conform_fleet"]


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
) -> None:
    """Check a live agent against every requirement of the commands extension.

    Sends every registered command (each may have side effects: see --skip-command), an
    unregistered /name and messages that must stay ordinary, on a new and an existing task,
    streaming and with SendMessage, over every JSON-RPC and HTTP+JSON interface on the card.
    Exit 0 when every MUST requirement holds (with --strict, every SHOULD too), 1 when one
    fails, 2 when nothing could be checked.
    """
    # th_ext.conform (the runner and its async HTTP client) adds 58 ms to every start (import
    # time after the CLI's, best of 5): only conform loads it.
    from th_ext.conform import LEVELS, ConformOptions, requirement_ids, run_conform

    selection = code_selection(select, ignore, requirement_ids(), "requirement")
    limits = source_limits(header, timeout, max_bytes, header_origin)
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
        levels=tuple(lv.value for lv in level) if level else LEVELS,
        strict=strict,
        headers=limits.headers,
        header_origins=limits.header_origins,
        timeout=limits.timeout,
        max_bytes=limits.max_bytes,
        max_interfaces=max_interfaces,
        max_commands=max_commands,
        family=family,
        family_changed=tuple(changed),
        signatures=signature_options(keys, fetch_keys, require_signature, limits),
        selection=selection,
    )
    sources = sources or []
    fleet = FleetOptions(from_file, jobs, per_origin, output, resume, quiet, statistics)
    if fleet.wanted(sources, output_format.value):
        if html is not None:
            fail("--html writes the report of one agent; give one SOURCE without --from")
        code = conform_fleet(sources, fleet, output_format.value, options, junit_file)
        raise typer.Exit(final_exit_code(code, exit_zero))
    if not sources:
        fail("give a SOURCE, or a list of them with --from FILE")
    if quiet or not stderr_is_terminal():
        report = run_conform(sources[0], options)
    else:
        with StepProgress() as progress:
            report = run_conform(sources[0], replace(options, progress=progress))
    if html is not None:
        _write_file(html, "--html", render(report, "html"))
        write(f"wrote {html}", err=True)
    if junit_file is not None:
        _write_file(junit_file, "--junit-file", render(report, "junit"))
    for chunk in stream([report], output_format.value, RenderOptions(color=use_color(sys.stdout))):
        sys.stdout.write(chunk)
    if not report.passed:
        raise typer.Exit(final_exit_code(int(ExitCode.PROBLEMS), exit_zero))


def _write_file(path: Path, option: str, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"{option} {path}: cannot be written ({(exc.strerror or str(exc)).lower()})")


def conform_fleet(
    sources: list[str],
    fleet: FleetOptions,
    output_format: str,
    options: ConformOptions,
    junit_file: Path | None,
) -> int:
    """Check every agent and render the outcomes; the worst exit code."""
    # The batch loads only for a run over several agents.
    from th_ext.batch import check_agents
    from th_ext.cli._fleet import Renderers, run_fleet
    from th_ext.conform import ConformReport  # loaded by conform_command already (see there)

    color = fleet.output is None and use_color(sys.stdout)

    def one(outcome: Outcome, output: str) -> str:
        if not isinstance(outcome.report, ConformReport):
            assert outcome.error is not None
            return error_document(outcome.error, output, command="conform", source=outcome.source)
        return render(outcome.report, output, color=color)

    def many(outcomes: list[Outcome], output: str) -> str:
        if output == "json":
            return to_json([o.document for o in outcomes]) + "\n"
        if output == "sarif":  # an agent that could not be checked is its error document
            return render([o.report or o.document for o in outcomes], output)
        root = ET.Element("testsuites", name="th-ext conform")
        totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        for outcome in outcomes:
            if isinstance(outcome.report, ConformReport):
                text = render(outcome.report, "junit")
            else:
                assert outcome.error is not None
                text = error_document(
                    outcome.error, "junit", command="conform", source=outcome.source
                )
            document = ET.fromstring(text)
            for key in totals:
                totals[key] += int(document.get(key, "0"))
            root.extend(list(document))
        root.attrib.update({key: str(value) for key, value in totals.items()})
        return junit_text(root)

    def start(
        entries: AsyncIterator[ListEntry], counts: BatchCounts, skip: SeenSources | None
    ) -> AsyncIterator[Outcome]:
        return check_agents(
            entries,
            options=options,
            jobs=fleet.jobs,
            per_origin=fleet.per_origin,
            skip=skip,
            counts=counts,
        )

    renderers = Renderers(one, many, "agents", "passed", "failed")
    return run_fleet("conform", sources, fleet, output_format, start, renderers, junit_file)
