"""``--format github``: problems as GitHub Actions workflow commands, so they annotate the file."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from th_ext.problems import Problem, clean, counted, shown_path

if TYPE_CHECKING:
    from th_ext.conform import ConformReport
    from th_ext.validate import Report

__all__ = ["annotation", "conform_github", "validate_github"]

_LEVELS = {"error": "error", "warning": "warning", "info": "notice"}
_LISTED_CHECKS = 5


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(
    level: str,
    message: str,
    *,
    file: str | None = None,
    line: int | None = None,
    column: int | None = None,
    title: str | None = None,
) -> str:
    """One workflow command (``level`` is ``error``, ``warning`` or ``notice``), no newline.
    Every value is escaped, so a card's strings cannot end the command early or forge another."""
    properties = []
    if file:
        properties.append(f"file={_escape_property(file)}")
        if line is not None:
            properties.append(f"line={line}")
            if column is not None:
                properties.append(f"col={column}")
    if title:
        properties.append(f"title={_escape_property(title)}")
    head = f"::{level} {','.join(properties)}" if properties else f"::{level}"
    return f"{head}::{_escape_data(message)}"


def validate_github(report: Report, *, file: str | None) -> str:
    """The report as workflow commands, one per problem, then a plain summary line.

    ``file`` is the card's path as the user gave it (``None`` for a URL or standard input: an
    annotation then names no file). A warning that fails the run (``--strict``) is an error.
    """
    lines = [_problem_line(p, report, file) for p in report.problems]
    lines.append(f"th-ext validate {clean(report.location)}: {_verdict(report)}")
    return "\n".join(lines) + "\n"


def _problem_line(problem: Problem, report: Report, file: str | None) -> str:
    level = _LEVELS.get(problem.severity, "error")
    if level == "warning" and report.fails(problem):
        level = "error"
    where = f" at {shown_path(problem.path)}" if problem.path else ""
    message = clean(problem.message) + where
    if problem.hint:
        message += "\nhint: " + clean(problem.hint)
    return annotation(
        level,
        message,
        file=file if problem.layer != "source" else None,
        line=problem.line,
        column=problem.column,
        title=problem.code,
    )


def _verdict(report: Report) -> str:
    counts = _counts(report.problems)
    if not report.card_read:
        return f"no card could be read ({counts})"
    return f"{'valid' if report.valid else 'invalid'} ({counts})"


def _counts(problems: Iterable[Problem]) -> str:
    listed = list(problems)
    errors = sum(1 for p in listed if p.severity == "error")
    warnings = sum(1 for p in listed if p.severity == "warning")
    return f"{counted(errors, 'error')}, {counted(warnings, 'warning')}"


def conform_github(report: ConformReport) -> str:
    """A conformance report as workflow commands: one per requirement that failed or warned.

    A conformance check has no file to point at, so the annotations name none; each names its
    requirement ID as the title and lists the checks that did not pass, then a summary line.
    """
    lines = []
    for requirement in [*report.requirements, *report.core]:
        if requirement.status not in ("fail", "warn"):
            continue
        failing = [c for c in requirement.checks if c.status == "fail"]
        details = [
            ("" if c.mode == "card" else f"{c.binding} {c.mode}, ")
            + f"{clean(c.scenario)}: {clean(c.detail)}"
            + (f" (got: {clean(c.excerpt)})" if c.excerpt else "")
            for c in failing[:_LISTED_CHECKS]
        ]
        if len(failing) > _LISTED_CHECKS:
            details.append(f"and {counted(len(failing) - _LISTED_CHECKS, 'more check')}")
        level = "error" if requirement.status == "fail" else "warning"
        summary = f"{requirement.level}: {clean(requirement.summary)} ({requirement.anchor_url})"
        lines.append(annotation(level, "\n".join([summary, *details]), title=requirement.id))
    for result in report.other:  # the host's own extensions: warnings
        if result.status == "warn":
            details = [clean(problem) for problem in result.problems[:_LISTED_CHECKS]]
            summary = f"{clean(result.key)}: payloads its schema refuses ({clean(result.uri)})"
            lines.append(annotation("warning", "\n".join([summary, *details]), title=result.key))
    lines += [f"::notice title=conform note::{_escape_data(clean(note))}" for note in report.notes]
    counts = report.counts()
    verdict = "passed" if report.passed else "failed"
    core_warnings = report.core_counts()["warn"]
    lines.append(
        f"th-ext conform {clean(report.agent.card_url)}: {verdict} ({counts['pass']} passed, "
        f"{counts['fail']} failed, {counted(counts['warn'], 'warning')}, {counts['skip']} skipped"
        + (f", {counted(core_warnings, 'core A2A warning')}" if core_warnings else "")
        + ")"
    )
    return "\n".join(lines) + "\n"
