"""How ``th-ext conform`` prints its report for people: one block per requirement.

A requirement that holds takes one line; one that fails or warns lists each failing check with
its binding, mode and scenario. Everything that came from the agent is cleaned of control
characters before it reaches the terminal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from th_ext._text import clean

if TYPE_CHECKING:
    from th_ext.conform import ConformReport, RequirementResult

__all__ = ["render_text", "status_word"]

_MARKS = {
    "pass": ("pass", "32"),
    "fail": ("FAIL", "1;31"),
    "warn": ("warn", "1;33"),
    "skip": ("skip", "2"),
}


def status_word(status: str, color: bool) -> str:
    word, code = _MARKS[status]
    return f"\033[{code}m{word}\033[0m" if color else word


def render_text(report: ConformReport, *, color: bool = False) -> str:
    agent = report.agent
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
    ]
    lines += _requirement_lines(report.requirements, color)
    if report.core:
        lines += [
            "",
            "core A2A (rules of A2A itself, not of the extension; warnings that fail only "
            "with --strict):",
        ]
        lines += _requirement_lines(report.core, color)
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


def _requirement_lines(requirements: list[RequirementResult], color: bool) -> list[str]:
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
            for check in requirement.checks:
                if check.status == "fail":
                    lines.append(
                        f"        {check.binding} {check.mode}, {clean(check.scenario)}: "
                        f"{clean(check.detail)}"
                    )
        else:
            bindings = sorted(
                {f"{c.binding} {c.mode}" if c.mode != "card" else "card" for c in ran}
            )
            lines.append(f"        {len(ran)} check(s): {', '.join(bindings)}")
    return lines
