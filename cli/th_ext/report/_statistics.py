"""The counts of a run as text and JSON: ``--statistics`` (``statistics_text``,
``statistics_json``) and the summary that ends a text run over many sources (``summary_text``).

The figures are the batch's (``th_ext.batch.Summary`` and its ``Statistics``): this module only
shows them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from th_ext.problems import clean
from th_ext.report._json import to_json

if TYPE_CHECKING:
    from th_ext.batch import Statistics, Summary

__all__ = ["statistics_json", "statistics_lines", "statistics_text", "summary_text"]

_WORDS = {"error": "error", "warning": "warning", "info": "note"}


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
            where = f"in {row.sources} {noun}{'s' * (row.sources != 1)}"
            lines.append(f"  {row.count:>{width}}  {row.code} ({_WORDS[row.severity]}, {where})")
    if errors:
        lines.append(f"could not be {'checked' if conform else 'read'}, by error code:")
        lines += [f"  {row.count:>{width}}  {row.code}" for row in errors]
    return lines


def statistics_text(statistics: Statistics, *, conform: bool = False) -> str:
    """``--statistics`` as text: the counts by code, or one line saying nothing was found."""
    lines = statistics_lines(statistics, conform=conform)
    noun = "agent" if conform else "source"
    checked = f"{statistics.sources} {noun}{'s' * (statistics.sources != 1)} checked"
    if not lines:
        return f"{checked}: nothing found\n"
    return "\n".join([*lines, checked]) + "\n"


def statistics_json(statistics: Statistics, *, command: str, exit_code: int) -> str:
    """``--statistics --format json``: ``{"command", "exit_code", "sources", "problems",
    "errors"}``."""
    return to_json({"command": command, "exit_code": exit_code, **statistics.to_dict()}) + "\n"


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
    ``noun`` (``cards``, ``agents``) by verdict, ``good`` and ``bad`` naming exit codes 0
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
    lines.append(f"{summary.checked} {noun}: " + ", ".join(parts))
    return "\n".join(lines) + "\n"
