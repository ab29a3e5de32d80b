"""The totals a run's summary needs, in bounded memory: counts by exit code, the first failing
sources with their first problem (``why_failed``), the slowest, counts by code (``Statistics``)."""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from th_ext.batch._run import Outcome
from th_ext.problems import Problem, clean
from th_ext.validate import Report

if TYPE_CHECKING:
    from th_ext.conform import ConformReport

__all__ = ["CodeCount", "Failing", "Statistics", "Summary", "WhyFailed", "why_failed"]

_RANK = {"error": 0, "warning": 1, "info": 2}


@dataclass(frozen=True, slots=True)
class CodeCount:
    """One line of the statistics: a ``code``, how many times it was found (``count``), in how
    many ``sources``, and the most severe ``severity`` it was found with."""

    code: str
    count: int
    sources: int
    severity: str


class WhyFailed(NamedTuple):
    """The first problem of a failing source: its ``code`` and ``message``."""

    code: str
    message: str


def _is_conform(report: object) -> bool:
    return hasattr(report, "requirements") and hasattr(report, "agent")


def _fails_first(report: Report) -> Problem | None:
    """The problem that best says why: the first that fails the card, else the first error
    (a card not read), else the first problem."""
    problems = report.problems
    return next(
        (p for p in problems if report.fails(p)),
        next((p for p in problems if p.is_error), problems[0] if problems else None),
    )


def why_failed(report: Any = None, *, error: tuple[str, str] | None = None) -> WhyFailed | None:
    """The first problem of a source: of a validation ``Report``, a ``ConformReport`` (its
    first failed requirement and that one's first failing check), or ``error``, the ``(code,
    message)`` of a source that could not be checked. ``None`` when there is none."""
    if error is not None:
        return WhyFailed(error[0], clean(error[1]))
    if isinstance(report, Report):
        problem = _fails_first(report)
        return None if problem is None else WhyFailed(problem.code, clean(problem.message))
    if _is_conform(report):
        conform: ConformReport = report
        order = {"fail": 0, "warn": 1}
        results = [r for r in [*conform.requirements, *conform.core] if r.status in order]
        results.sort(key=lambda r: order[r.status])  # stable: a failure first, in report order
        for result in results:
            check = next((c for c in result.checks if c.status == "fail"), None)
            detail = check.detail if check is not None else result.summary
            return WhyFailed(result.id, clean(detail))
    return None


@dataclass(slots=True)
class Statistics:
    """Counts by code over the sources ``add``-ed: the problems of those that were checked
    (``problems``) and the error codes of those that could not be (``errors``)."""

    sources: int = 0
    _found: dict[str, list[Any]] = field(default_factory=dict)  # code: [count, sources, rank]
    _errors: dict[str, int] = field(default_factory=dict)

    def add(self, report: Any = None, *, error_code: str | None = None) -> None:
        """Count one source: its validation or conformance ``report``, or the ``error_code``
        of a source that could not be checked (a validation report that read no card counts
        as its first error's code)."""
        self.sources += 1
        if error_code is None and isinstance(report, Report) and not report.card_read:
            why = why_failed(report)
            error_code = why.code if why is not None else "unreadable"
        if error_code is not None:
            self._errors[error_code] = self._errors.get(error_code, 0) + 1
            return
        seen: dict[str, tuple[int, int]] = {}
        for code, count, severity in _found_in(report):
            had = seen.get(code, (0, 2))
            seen[code] = (had[0] + count, min(had[1], _RANK[severity]))
        for code, (count, rank) in seen.items():
            entry = self._found.setdefault(code, [0, 0, rank])
            entry[0] += count
            entry[1] += 1
            entry[2] = min(entry[2], rank)

    @property
    def problems(self) -> list[CodeCount]:
        """The problem codes, most frequent first (then by code)."""
        severity = {rank: word for word, rank in _RANK.items()}
        rows = [
            CodeCount(code, count, sources, severity[rank])
            for code, (count, sources, rank) in self._found.items()
        ]
        return sorted(rows, key=lambda row: (-row.count, row.code))

    @property
    def errors(self) -> list[CodeCount]:
        """The error codes of the sources that could not be checked, most frequent first."""
        rows = [CodeCount(code, n, n, "error") for code, n in self._errors.items()]
        return sorted(rows, key=lambda row: (-row.count, row.code))

    def to_dict(self) -> dict[str, Any]:
        """The statistics as JSON: ``sources``, ``problems`` (``code``, ``count``, ``sources``,
        ``severity``) and ``errors`` (``code``, ``count``), each most frequent first."""
        return {
            "sources": self.sources,
            "problems": [asdict(row) for row in self.problems],
            "errors": [{"code": row.code, "count": row.count} for row in self.errors],
        }


def _found_in(report: Any) -> Iterator[tuple[str, int, str]]:
    """``(code, count, severity)`` of each finding of a checked source."""
    if isinstance(report, Report):
        for problem in report.problems:
            if problem.code == "more-problems" and problem.counts_code:
                yield problem.counts_code, problem.hidden, problem.severity
            else:
                yield problem.code, 1, problem.severity
    elif _is_conform(report):
        for result in [*report.requirements, *report.core]:
            if result.status in ("fail", "warn"):
                failed = sum(1 for check in result.checks if check.status == "fail")
                severity = "error" if result.status == "fail" else "warning"
                yield result.id, max(failed, 1), severity


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
