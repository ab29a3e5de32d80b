"""How ``th-ext conform`` prints its report for people: one block per requirement.

A requirement that holds takes one line; one that fails or warns lists each failing check with
its binding, mode and scenario. Everything that came from the agent is cleaned of control
characters before it reaches the terminal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from th_ext.problems._text import clean

if TYPE_CHECKING:
    from th_ext.conform import Check, ConformReport, RequirementResult

__all__ = ["check_line", "interface_table", "render_text", "status_word"]

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
    return f"\033[{code}m{word}\033[0m" if color else word


def check_line(check: Check, shared: set[str]) -> str:
    """``binding mode, scenario: detail``; with the interface's URL when its binding has more
    than one interface (``shared``)."""
    where = (
        f"{check.binding} {clean(check.interface)}" if check.binding in shared else check.binding
    )
    return f"{where} {check.mode}, {clean(check.scenario)}: {clean(check.detail)}"


def interface_table(report: ConformReport, color: bool = False) -> list[str]:
    """One line per interface of the card: what its checks found, or why it was not checked."""
    from th_ext.conform import interface_rows

    rows = interface_rows(report)
    width = max((len(row.binding) for row in rows), default=0)
    url_width = max((len(clean(row.url)) for row in rows), default=0)
    lines = ["interfaces"]
    for row in rows:
        head = f"  {row.binding:<{width}}  {clean(row.url):<{url_width}}  "
        if row.status in ("unreachable", "not checked"):
            lines.append(head + f"{row.status}: {clean(row.reason)}")
            continue
        word = status_word(row.status, color)
        found = f"{row.failed} of {row.checks} check(s) failed: {', '.join(row.requirements)}"
        lines.append(
            head + f"{word}  {row.modes}; " + (found if row.failed else f"{row.checks} check(s)")
        )
    return lines


def render_text(report: ConformReport, *, color: bool = False) -> str:
    agent = report.agent
    bindings = [i.binding for i in agent.interfaces if i.status == "checked"]
    shared = {b for b in bindings if bindings.count(b) > 1}
    lines = [
        f"conform {clean(agent.name)} ({clean(agent.card_url)})",
        f"  extension  {agent.extension_uri}",
        "  bindings   "
        + ", ".join(agent.bindings_checked)
        + (
            f"; not checked: {', '.join(map(clean, agent.bindings_not_checked))}"
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
        + (", ".join(map(clean, report.commands_run)) or "none")
        + " (each may have side effects)",
        "",
        *interface_table(report, color),
        "",
    ]
    lines += _requirement_lines(report.requirements, shared, color)
    if report.core:
        lines += [
            "",
            "core A2A (rules of A2A itself, not of the extension; each is a MUST of A2A that "
            "th-ext reports as a warning, because it is not the extension's rule, so it fails "
            "the run only with --strict):",
        ]
        lines += _requirement_lines(report.core, shared, color)
    if report.other:
        lines += _other_lines(report, color)
    if report.notes:
        lines += ["", "notes (not failures of the extension):"]
        lines += [f"  - {clean(note)}" for note in report.notes]
    counts = report.counts()
    verdict = "passed" if report.passed else "FAILED"
    paint = "1;32" if report.passed else "1;31"
    core_warnings = report.core_counts()["warn"]
    lines += [
        "",
        (f"\033[{paint}m{verdict}\033[0m" if color else verdict)
        + f": {counts['pass']} passed, {counts['fail']} failed, {counts['warn']} warning(s), "
        f"{counts['skip']} skipped"
        + (f", {core_warnings} core A2A warning(s)" if core_warnings else "")
        + f"; {report.requests} requests in {report.seconds:.2f} s"
        + (" (--strict)" if report.strict else ""),
    ]
    return "\n".join(lines)


def _requirement_lines(
    requirements: list[RequirementResult], shared: set[str], color: bool
) -> list[str]:
    lines: list[str] = []
    width = max([7, *(len(r.id) + 1 for r in requirements)])
    for requirement in requirements:
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
                lines.append(f"        and {len(failing) - _LISTED} more failing check(s)")
        else:
            bindings = sorted(
                {f"{c.binding} {c.mode}" if c.mode != "card" else "card" for c in ran}
            )
            lines.append(f"        {len(ran)} check(s): {', '.join(bindings)}")
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
        lines.append(f"  {word}  {result.key}: {result.checked} payload(s) checked")
        lines += [f"        - {clean(problem)}" for problem in result.problems]
    return lines
