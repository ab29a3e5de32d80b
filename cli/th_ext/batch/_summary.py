"""What a run's summary needs, kept in bounded memory however many sources it checks.

The counts by exit code, the first ``shown`` failing sources each with its first problem, the
``shown`` slowest, and the counts by problem code (``th_ext.report.Statistics``, one entry per
code): each outcome is added and then forgotten. ``summary_text`` is the summary as text.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import NamedTuple

from th_ext.batch._run import Outcome
from th_ext.problems import clean
from th_ext.report import Statistics, why_failed

__all__ = ["Failing", "Summary", "summary_text"]

_SHOWN = 10


class Failing(NamedTuple):
    """A failing source (exit code 1 or 2) and the ``code`` and ``message`` of its first
    problem (empty when it has none to name)."""

    source: str
    exit_code: int
    code: str
    message: str


@dataclass(slots=True)
class Summary:
    """The totals of a run so far: ``add`` each outcome."""

    shown: int = _SHOWN
    checked: int = 0
    passed: int = 0
    failed: int = 0
    unreadable: int = 0
    duplicates: int = 0
    failing: list[Failing] = field(default_factory=list)
    """The first ``shown`` sources with exit code 1 or 2, with their first problem."""
    statistics: Statistics = field(default_factory=Statistics)
    """The counts by code of every source checked."""
    _slowest: list[tuple[float, int, str]] = field(default_factory=list)

    def add(self, outcome: Outcome) -> None:
        if outcome.duplicate:
            self.duplicates += 1
            return
        self.checked += 1
        if outcome.exit_code == 0:
            self.passed += 1
        elif outcome.exit_code == 1:
            self.failed += 1
        else:
            self.unreadable += 1
        error = _error(outcome)
        if error is not None:
            self.statistics.add(error_code=error[0])
        else:
            self.statistics.add(outcome.report)
        if outcome.exit_code and len(self.failing) < self.shown:
            why = why_failed(outcome.report, error=error)
            code, message = why if why is not None else ("", "")
            self.failing.append(Failing(outcome.source, outcome.exit_code, code, message))
        entry = (outcome.seconds, -outcome.index, outcome.source)
        if len(self._slowest) < self.shown:
            heapq.heappush(self._slowest, entry)
        else:
            heapq.heappushpop(self._slowest, entry)

    @property
    def slowest(self) -> list[tuple[str, float]]:
        """The ``shown`` slowest sources, slowest first, with their seconds."""
        return [(source, seconds) for seconds, _, source in sorted(self._slowest, reverse=True)]

    @property
    def exit_code(self) -> int:
        """The worst exit code so far (0 for a run with nothing to check)."""
        return 2 if self.unreadable else 1 if self.failed else 0


def _error(outcome: Outcome) -> tuple[str, str] | None:
    """``(code, message)`` of a source that could not be checked and has no report."""
    if outcome.report is not None:
        return None
    error = (outcome.document or {}).get("error")
    if isinstance(error, dict):
        return str(error.get("code", "")), str(error.get("message", ""))
    if outcome.error is not None:
        return "error", str(outcome.error)
    return None


def summary_text(  # noqa: PLR0917 (the command's words for what it counts)
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
    lines += summary.statistics.lines(conform=conform)
    if interrupted:
        lines.append("interrupted: the sources not listed here were not checked")
    parts = [f"{summary.passed} {good}", f"{summary.failed} {bad}"]
    if summary.unreadable:
        parts.append(f"{summary.unreadable} could not be read")
    if summary.duplicates:
        parts.append(f"{summary.duplicates} listed more than once")
    lines.append(f"{summary.checked} {noun}: " + ", ".join(parts))
    return "\n".join(lines) + "\n"
