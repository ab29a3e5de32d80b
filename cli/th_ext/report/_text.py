"""The text formats, for people: validate's and conform's reports, dispatch's dry run and live
check, the demo's steps, a run's summary and counts by code; card text goes through ``clean``."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from th_ext.net import redact
from th_ext.problems import LAYERS, SHOWN_NAMES, Problem, clean, counted, cut, listed, shown_path

if TYPE_CHECKING:
    from th_ext.batch import Statistics, Summary
    from th_ext.conform import Check, ConformReport, RequirementResult
    from th_ext.demo import DemoRun
    from th_ext.dispatch import DispatchPlan, LiveReport
    from th_ext.validate import Report

__all__ = [
    "cards_verdicts",
    "conform_text",
    "demo_text",
    "render_live",
    "render_plan",
    "statistics_text",
    "summary_text",
    "validate_concise",
    "validate_count",
    "validate_text",
]

_LAYER_TITLES = {
    "source": "source",
    "document": "document",
    "card": "card (A2A 1.0)",
    "extension": "extensions",
}
#: The layers whose "ok" line ``quiet`` leaves out: reading and parsing the card.
_QUIET_WHEN_OK = ("source", "document")
#: Entries of a card's list the summary shows (skills, commands, interfaces, extensions).
_EXCERPT_WIDTH = 120


def validate_text(report: Report, *, color: bool, quiet: bool = False) -> str:
    """The report as the text format, ending in a newline; ``quiet`` leaves out the lines of
    the source and document layers when they are ok."""
    lines = [f"{_paint('th-ext validate', '1', color)} {clean(report.location)}"]
    lines.extend(_summary_lines(report))
    grouped = report.by_layer()
    for layer in LAYERS:
        problems = grouped[layer]
        title = _LAYER_TITLES[layer]
        if layer not in report.layers:
            lines.append(f"{title}: {_paint('not checked (no card to check)', '2', color)}")
            continue
        if not problems:
            if not (quiet and layer in _QUIET_WHEN_OK):
                lines.append(f"{title}: {_paint('ok', '32;1', color)}")
            continue
        lines.append(f"{title}: {_counts(problems)}")
        for problem in problems:
            lines.extend(_problem_lines(problem, report, color))
    lines.append("")
    totals = report.totals()  # every problem found, the ones not listed too
    counts = _totals_text(totals)
    if report.valid:
        lines.append(f"{_paint('valid', '32;1', color)} ({counts})")
    elif not report.card_read:
        lines.append(f"{_paint('no card could be read', '31;1', color)} ({counts})")
    else:
        strict = " with --strict" if report.strict and not totals["error"] else ""
        lines.append(f"{_paint('invalid', '31;1', color)}{strict} ({counts})")
    return "\n".join(lines) + "\n"


def validate_concise(report: Report) -> str:
    """One line per problem of the report, ``FILE:LINE:COL: SEVERITY CODE MESSAGE`` (the JSON
    pointer in place of the line and column when the problem has none, the file alone when it
    has neither), in the text format's order; empty when there is no problem."""
    file = clean(report.location)
    grouped = report.by_layer()
    lines = []
    for problem in (p for layer in LAYERS for p in grouped[layer]):
        if problem.line is not None:
            where = f"{file}:{problem.line}:{problem.column}"
        elif problem.path:
            where = f"{file}:{shown_path(problem.path)}"
        else:
            where = file
        severity = "note" if problem.severity == "info" else problem.severity
        lines.append(f"{where}: {severity} {problem.code} {clean(problem.message)}\n")
    return "".join(lines)


def validate_count(reports: list[Report]) -> str:
    """The concise format's last line: the problems found in every report and the verdict
    (of each card, when there are several)."""
    totals = {"error": 0, "warning": 0, "info": 0}
    for report in reports:
        for severity, count in report.totals().items():
            totals[severity] += count
    counts = _totals_text(totals)
    if len(reports) == 1:
        report = reports[0]
        verdict = (
            "valid" if report.valid else "invalid" if report.card_read else "no card could be read"
        )
        return f"{clean(report.location)}: {verdict} ({counts})"
    return f"{cards_verdicts(reports)} ({counts})"


def cards_verdicts(reports: Sequence[Report]) -> str:
    """``3 cards: 1 valid, 1 invalid, 1 could not be read``."""
    valid = sum(1 for r in reports if r.exit_code == 0)
    invalid = sum(1 for r in reports if r.exit_code == 1)
    unreadable = sum(1 for r in reports if r.exit_code == 2)
    parts = [f"{valid} valid", f"{invalid} invalid"]
    if unreadable:
        parts.append(f"{unreadable} could not be read")
    return f"{counted(len(reports), 'card')}: " + ", ".join(parts)


def _totals_text(totals: dict[str, int]) -> str:
    """``1 error, 2 warnings``, then the notes when there are any."""
    errors, warnings, notes = totals["error"], totals["warning"], totals["info"]
    counts = f"{counted(errors, 'error')}, {counted(warnings, 'warning')}"
    return counts + (f", {counted(notes, 'note')}" if notes else "")


def _summary_lines(report: Report) -> list[str]:
    card: dict[str, Any] | None = report.card
    if card is None:
        return []
    name = _named(card.get("name") or "(no name)")
    version = _named(card.get("version") or "?")
    lines = [f"  card        {name} {version}"]
    interfaces = card.get("interfaces", [])
    for interface in interfaces[:SHOWN_NAMES]:
        binding, url, version = (
            interface.get(k, "?") for k in ("protocolBinding", "url", "protocolVersion")
        )
        lines.append(f"  interface   {_named(binding)} {_named(url, 120)} (A2A {_named(version)})")
    lines += _more_lines("interface", len(interfaces))
    skills = card.get("skills", [])
    if skills:
        lines.append(f"  skills      {listed(skills)}")
    for extension in report.extensions[:SHOWN_NAMES]:
        uri = _named(extension["uri"], 120)
        if not extension.get("checked"):
            lines.append(f"  extension   {uri} (not checked)")
            continue
        lines.append(f"  extension   {extension['extension']} ({uri})")
        if "commands" not in extension:  # an extension without commands (media/v1)
            continue
        commands = extension["commands"]
        names = f": {listed(commands)}" if commands else ""
        lines.append(f"              {counted(len(commands), 'command')}{names}")
    return lines + _more_lines("extension", len(report.extensions))


def _more_lines(kind: str, count: int) -> list[str]:
    """The line after the first entries of a long list in the summary: how many in all."""
    if count <= SHOWN_NAMES:
        return []
    return [f"  {kind:<11} … ({count} in all)"]


def _named(text: str, limit: int = 80) -> str:
    """A name from the card for the summary: cleaned, at most ``limit`` characters."""
    return cut(clean(text), limit)


def _counts(problems: list[Problem]) -> str:
    counts = {"error": 0, "warning": 0, "info": 0}
    for problem in problems:
        counts[problem.severity] += problem.hidden if problem.code == "more-problems" else 1
    return ", ".join(counted(n, _SEVERITY_WORDS[kind]) for kind, n in counts.items() if n)


def _problem_lines(problem: Problem, report: Report, color: bool) -> list[str]:
    label = "note" if problem.severity == "info" else problem.severity
    if problem.severity == "info":
        marked = _paint(label, "2", color)
    else:
        marked = _paint(label, "31;1" if report.fails(problem) else "33;1", color)
    if problem.path:
        where = f" at {shown_path(problem.path)}"
    else:
        where = "" if problem.layer == "source" else " at (the whole document)"
    if problem.line is not None:
        where += f" ({clean(report.location)}:{problem.line}:{problem.column})"
    lines = [
        f"  {marked} {_paint(problem.code, '1', color)}{where}",
        f"    {clean(problem.message)}",
    ]
    lines += [f"      {clean(part)}" for part in problem.excerpt.split("\n") if problem.excerpt]
    source_line = report.source_lines.get(problem.line) if problem.line is not None else None
    if source_line is not None and problem.column is not None and not problem.excerpt:
        lines += _source_excerpt(problem.line, problem.column, source_line, color)
    if problem.hint:
        lines.append(f"    {_paint('hint: ' + clean(problem.hint), '2', color)}")
    return lines


def _source_excerpt(number: int | None, column: int, text: str, color: bool) -> list[str]:
    """The problem's line with its number, and a caret line under the token at ``column``
    (a long line is cut to a window around it)."""
    index = column - 1
    start = 0
    if len(text) > _EXCERPT_WIDTH:
        start = max(0, min(index - _EXCERPT_WIDTH // 2, len(text) - _EXCERPT_WIDTH))
    shown = text[start : start + _EXCERPT_WIDTH].replace("\t", " ")
    before = clean(shown[: index - start])
    width = max(1, min(_token_width(text, index), len(shown) - (index - start)))
    gutter = f"{number}"
    return [
        f"    {_paint(gutter + ' |', '2', color)} {clean(shown)}",
        f"    {' ' * len(gutter)} {_paint('|', '2', color)} {' ' * len(before)}"
        + _paint("^" * width, "31;1", color),
    ]


def _token_width(text: str, index: int) -> int:
    """How many characters the JSON token at ``index`` spans (a string with its quotes)."""
    if index >= len(text) or text[index] != '"':
        return 1
    end = index + 1
    while end < len(text) and text[end] != '"':
        end += 2 if text[end] == "\\" else 1
    return end - index + 1


_LISTED = 10
"""Failing checks listed per requirement; the rest are counted."""

_MARKS = {
    "pass": ("pass", "32"),
    "fail": ("FAIL", "1;31"),
    "warn": ("warn", "1;33"),
    "skip": ("skip", "2"),
}


def status_word(status: str, color: bool) -> str:
    word, code = _MARKS[status]
    return _paint(word, code, color)


def check_line(check: Check, shared: set[str]) -> str:
    """``binding mode, scenario: detail``; with the interface's URL when its binding has more
    than one interface (``shared``)."""
    where = (
        f"{check.binding} {_named(check.interface, 120)}"
        if check.binding in shared
        else check.binding
    )
    said = f"{_named(check.scenario, 120)}: {_named(check.detail, 400)}"
    return said if check.mode == "card" else f"{where} {check.mode}, {said}"


def interface_table(report: ConformReport, color: bool = False) -> list[str]:
    """One line per interface of the card: what its checks found, or why it was not checked."""
    from th_ext.conform import interface_rows  # loaded already: the report came from it

    rows = interface_rows(report)
    width = max((len(_named(row.binding, 40)) for row in rows), default=0)
    url_width = max((len(_named(row.url, 120)) for row in rows), default=0)
    lines = ["interfaces"]
    for row in rows:
        head = f"  {_named(row.binding, 40):<{width}}  {_named(row.url, 120):<{url_width}}  "
        if row.status in ("unreachable", "not checked"):
            lines.append(head + f"{row.status}: {clean(row.reason)}")
            continue
        word = status_word(row.status, color)
        checks = counted(row.checks, "check")
        found = f"{row.failed} of {checks} failed: {', '.join(row.requirements)}"
        lines.append(head + f"{word}  {row.modes}; " + (found if row.failed else checks))
    return lines


def conform_text(report: ConformReport, *, color: bool = False, quiet: bool = False) -> str:
    """The conformance report for people; ``quiet`` leaves out the requirements that passed."""
    agent = report.agent
    bindings = [i.binding for i in agent.interfaces if i.status == "checked"]
    shared = {b for b in bindings if bindings.count(b) > 1}
    lines = [
        f"conform {_named(agent.name)} ({clean(agent.card_url)})",
        f"  extension  {agent.extension_uri}",
        "  bindings   "
        + ", ".join(agent.bindings_checked)
        + (
            f"; not checked: {listed(agent.bindings_not_checked)}"
            if agent.bindings_not_checked
            else ""
        ),
        "  modes      "
        + (
            "SendStreamingMessage and SendMessage"
            if agent.streaming
            else "SendMessage (the card does not offer streaming)"
        ),
        "  commands   ran "
        + (listed(report.commands_run) or "none")
        + " (each may have side effects)",
        "",
        *interface_table(report, color),
        "",
    ]
    lines += _requirement_lines(report.requirements, shared, color, quiet)
    if report.core:
        lines += [
            "",
            "core A2A (rules of A2A itself, MUST or SHOULD, not of the extension; th-ext "
            "reports each as a warning, because it is not the extension's rule, so it fails "
            "the run only with --strict):",
        ]
        lines += _requirement_lines(report.core, shared, color, quiet)
    if report.other:
        lines += _other_lines(report, color)
    if report.notes:
        lines += ["", "notes (not failures of the extension):"]
        lines += [f"  - {_named(note, 400)}" for note in report.notes]
    counts = report.counts()
    verdict = "passed" if report.passed else "FAILED"
    core_warnings = report.core_counts()["warn"]
    lines += [
        "",
        _paint(verdict, "1;32" if report.passed else "1;31", color)
        + f": {counts['pass']} passed, {counts['fail']} failed, "
        f"{counted(counts['warn'], 'warning')}, {counts['skip']} skipped"
        + (f", {counted(core_warnings, 'core A2A warning')}" if core_warnings else "")
        + f"; {counted(report.requests, 'request')} in {report.seconds:.2f} s"
        + (" (--strict)" if report.strict else ""),
    ]
    return "\n".join(lines)


def _requirement_lines(
    requirements: list[RequirementResult], shared: set[str], color: bool, quiet: bool
) -> list[str]:
    lines: list[str] = []
    width = max([7, *(len(r.id) + 1 for r in requirements)])
    for requirement in requirements:
        if quiet and requirement.status == "pass":
            continue
        word = status_word(requirement.status, color)
        ran = [c for c in requirement.checks if c.status != "skip"]
        lines.append(
            f"{word}  {requirement.id:<{width}}{requirement.level:<7}{clean(requirement.summary)}"
        )
        if requirement.status == "skip":
            lines.append(f"        skipped: {clean(requirement.reason)}")
        elif requirement.status in ("fail", "warn"):
            failing = [c for c in requirement.checks if c.status == "fail"]
            for check in failing[:_LISTED]:
                lines.append("        " + check_line(check, shared))
                if check.excerpt:
                    lines.append(f"          got: {clean(check.excerpt)}")
            if len(failing) > _LISTED:
                lines.append(f"        and {counted(len(failing) - _LISTED, 'more failing check')}")
        else:
            bindings = sorted(
                {f"{c.binding} {c.mode}" if c.mode != "card" else "card" for c in ran}
            )
            lines.append(f"        {counted(len(ran), 'check')}: {', '.join(bindings)}")
    return lines


def _other_lines(report: ConformReport, color: bool) -> list[str]:
    """The host's own extensions: their payloads against their schemas (warnings)."""
    lines = [
        "",
        "other extensions (the host's own, checked against their schemas; warnings that fail"
        " only with --strict):",
    ]
    for result in report.other:
        word = status_word(result.status, color)
        if result.status == "skip":
            lines.append(f"  {word}  {result.key}: {clean(result.reason)}")
            continue
        lines.append(f"  {word}  {result.key}: {counted(result.checked, 'payload')} checked")
        lines += [f"        - {clean(problem)}" for problem in result.problems]
    return lines


def _paint(text: str, code: str, color: bool) -> str:
    return f"\033[{code}m{text}\033[0m" if color else text


def render_plan(
    plan: DispatchPlan,
    location: str,
    extra_headers: int = 0,
    *,
    color: bool = False,
    compact: bool = False,
) -> str:
    """The dry run, for people; ``compact`` leaves out the JSON bodies."""

    def json_lines(value: Any, indent: int | None = None) -> list[str]:
        text = json.dumps(value, indent=indent, ensure_ascii=False)
        return [clean(line) for line in text.splitlines()]

    lines: list[str] = []
    if plan.outcome == "command":
        lines.append(f"outcome    {_paint('command', '1;32', color)} /{plan.command}")
        lines.append(f"arguments  {json_lines(plan.arguments)[0]}")
    else:
        lines.append(f"outcome    {_paint('ordinary message', '1;34', color)} (reaches the model)")
    lines.append(f"reason     {clean(plan.reason)}")
    ext = plan.extension
    location = clean(location)
    if ext.declared:
        names = listed([f"/{name}" for name in ext.commands]) or "none"
        lines.append(f"card       {location}: commands extension declared; commands {names}")
    else:
        lines.append(f"card       {location}: commands extension not declared")
    for note in plan.notes:
        lines.append(f"note       {clean(note)}")
    lines.append("")
    if plan.request is None:
        lines.append("request    none: the card offers no JSON-RPC interface")
    else:
        lines.append(f"request    {plan.request.method} {clean(redact(plan.request.url))}")
        lines.extend(f"  {name}: {value}" for name, value in plan.request.headers.items())
        if extra_headers:
            lines.append(f"  (and {counted(extra_headers, 'header')} from --header, not shown)")
        if compact:
            parts = json_lines(plan.message.get("parts"))[0]
            lines.append(f"  JSON-RPC {plan.request.body['method']}, message parts {parts}")
        else:
            lines.extend("  " + line for line in json_lines(plan.request.body, 2))
    lines.append("")
    reply = plan.expected_reply
    lines.append(f"expect     {reply['summary']}")
    if not compact and reply.get("stream") is not None:
        lines.append("  the stream, in order:")
        lines.extend("  " + line for line in json_lines(reply["stream"], 2))
    elif not compact and reply.get("stream_response") is not None:
        lines.extend("  " + line for line in json_lines(reply["stream_response"], 2))
    return "\n".join(lines)


def render_live(report: LiveReport, plan: DispatchPlan, *, color: bool = False) -> str:
    """The live check, one line per check, for people."""
    url = clean(redact(plan.request.url)) if plan.request is not None else "?"
    task = f" (task {clean(report.task_id)})" if report.task_id else ""
    lines = [f"live check against {url}{task}"]
    width = max(len(check.name) for check in report.checks) if report.checks else 0
    for check in report.checks:
        word = status_word(check.status, color)
        lines.append(f"  {word}  {check.name:<{width}}  {clean(check.detail)}")
    verdict = "all checks passed" if report.passed else "failed: " + ", ".join(report.failed())
    lines.append(_paint(verdict, "1;32" if report.passed else "1;31", color))
    return "\n".join(lines)


def demo_text(run: DemoRun, *, color: bool) -> str:
    def verdict_word(ok: bool) -> str:
        return _paint("passed", "1;32", color) if ok else _paint("FAILED", "1;31", color)

    def step_heading(number: int, title: str, ok: bool) -> list[str]:
        return ["", f"{number}. {title}: {verdict_word(ok)}"]

    lines = [f"demo agent listening at {run.base_url} (stopped again when the demo ends)"]
    lines += step_heading(1, f"th-ext validate {run.base_url}", run.validation_passed)
    lines += ["   " + line for line in _validation_lines(run.validation)]
    lines += step_heading(
        2, f"th-ext dispatch {run.base_url} '/model fast' (dry run)", run.dry_run_passed
    )
    plan_text = render_plan(run.dry_run, run.card_location, color=color, compact=True)
    lines += ["   " + line if line else "" for line in plan_text.splitlines()]
    lines += step_heading(3, f"th-ext conform {run.base_url}", run.conformance.passed)
    report = conform_text(run.conformance, color=color)
    lines += ["   " + line if line else "" for line in report.splitlines()]
    lines += ["", f"demo {verdict_word(run.passed)}"]
    return "\n".join(lines)


def _validation_lines(report: Report) -> list[str]:
    lines = [f"card {clean(report.location)}: " + ("valid" if report.valid else "not valid")]
    lines += [
        f"{p.severity}: {shown_path(p.path) or '(the whole document)'}: {clean(p.message)}"
        for p in report.problems
    ]
    for extension in report.extensions:
        commands = extension.get("commands")
        if isinstance(commands, list):
            names = ", ".join(f"/{name}" for name in commands) or "none"
            lines.append(f"extension {extension.get('uri')}: commands {names}")
    return lines


_SEVERITY_WORDS = {"error": "error", "warning": "warning", "info": "note"}


def statistics_lines(statistics: Statistics, *, conform: bool = False) -> list[str]:
    """The statistics as text lines, one per code under a heading per kind; none when
    nothing was found."""
    lines: list[str] = []
    problems, errors = statistics.problems, statistics.errors
    width = len(str(max([0, *(row.count for row in [*problems, *errors])])))
    if problems:
        kind = "requirements failed" if conform else "problems"
        lines.append(f"{kind} by code, most frequent first:")
        noun = "agent" if conform else "source"
        for row in problems:
            where = f"in {counted(row.sources, noun)}"
            lines.append(
                f"  {row.count:>{width}}  {row.code} ({_SEVERITY_WORDS[row.severity]}, {where})"
            )
    if errors:
        lines.append(f"could not be {'checked' if conform else 'read'}, by error code:")
        lines += [f"  {row.count:>{width}}  {row.code}" for row in errors]
    return lines


def statistics_text(statistics: Statistics, *, conform: bool = False) -> str:
    """``--statistics`` as text: the counts by code, or one line saying nothing was found."""
    lines = statistics_lines(statistics, conform=conform)
    noun = "agent" if conform else "source"
    checked = f"{counted(statistics.sources, noun)} checked"
    if not lines:
        return f"{checked}: nothing found\n"
    return "\n".join([*lines, checked]) + "\n"


def summary_text(
    summary: Summary,
    noun: str,
    good: str,
    bad: str,
    *,
    interrupted: bool = False,
    conform: bool = False,
) -> str:
    """The summary after the reports of a run: each failing source with its first problem
    (the first ``shown``), the slowest, the counts by code, then one line counting the
    ``noun`` (``card``, ``agent``) by verdict, ``good`` and ``bad`` naming exit codes 0
    and 1."""
    lines = [""]
    if summary.failing:
        more = summary.failed + summary.unreadable - len(summary.failing)
        lines.append("failing:" + (f" (the first {len(summary.failing)})" if more > 0 else ""))
        for failing in summary.failing:
            why = f": [{failing.code}] {failing.message}" if failing.code else ""
            lines.append(f"  {clean(failing.source)} (exit {failing.exit_code}){why}")
    slowest = summary.slowest
    if len(slowest) > 1:
        lines.append("slowest:")
        lines += [f"  {seconds:.2f} s  {clean(source)}" for source, seconds in slowest]
    lines += statistics_lines(summary.statistics, conform=conform)
    if interrupted:
        lines.append("interrupted: the sources not listed here were not checked")
    parts = [f"{summary.passed} {good}", f"{summary.failed} {bad}"]
    if summary.unreadable:
        parts.append(f"{summary.unreadable} could not be read")
    if summary.duplicates:
        parts.append(f"{summary.duplicates} listed more than once")
    lines.append(f"{counted(summary.checked, noun)}: " + ", ".join(parts))
    return "\n".join(lines) + "\n"
