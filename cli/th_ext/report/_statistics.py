"""What a run found, counted by code: ``Statistics`` (``--statistics``, and the end of the text
summary of a run over many sources), and the first problem that says why a source failed.

A validation report counts each problem under its code (an "and M more" problem counts the M
under the code it stands for); a conformance report counts the failing checks of each failed or
warned requirement under its ID; a source that could not be read or checked counts once under
its error's code. The memory held is one entry per code, however many sources are added.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from th_ext.problems import Problem, clean
from th_ext.report._json import to_json
from th_ext.validate import Report

if TYPE_CHECKING:
    from th_ext.conform import ConformReport

__all__ = ["CodeCount", "Statistics", "WhyFailed", "why_failed"]

_RANK = {"error": 0, "warning": 1, "info": 2}
_WORDS = {"error": "error", "warning": "warning", "info": "note"}


class CodeCount(NamedTuple):
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
            "problems": [row._asdict() for row in self.problems],
            "errors": [{"code": row.code, "count": row.count} for row in self.errors],
        }

    def lines(self, *, conform: bool = False) -> list[str]:
        """The statistics as text lines, one per code under a heading per kind; none when
        nothing was found."""
        lines: list[str] = []
        problems, errors = self.problems, self.errors
        width = len(str(max([0, *(row.count for row in [*problems, *errors])])))
        if problems:
            kind = "requirements failed" if conform else "problems"
            lines.append(f"{kind} by code, most frequent first:")
            for row in problems:
                where = f"in {row.sources} source{'s' * (row.sources != 1)}"
                lines.append(
                    f"  {row.count:>{width}}  {row.code} ({_WORDS[row.severity]}, {where})"
                )
        if errors:
            lines.append(f"could not be {'checked' if conform else 'read'}, by error code:")
            lines += [f"  {row.count:>{width}}  {row.code}" for row in errors]
        return lines


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


def statistics_text(statistics: Statistics, *, conform: bool = False) -> str:
    """``--statistics`` as text: the counts by code, or one line saying nothing was found."""
    lines = statistics.lines(conform=conform)
    noun = "agent" if conform else "source"
    checked = f"{statistics.sources} {noun}{'s' * (statistics.sources != 1)} checked"
    if not lines:
        return f"{checked}: nothing found\n"
    return "\n".join([*lines, checked]) + "\n"


def statistics_json(statistics: Statistics, *, command: str, exit_code: int) -> str:
    """``--statistics --format json``: ``{"command", "exit_code", "sources", "problems",
    "errors"}``."""
    return to_json({"command": command, "exit_code": exit_code, **statistics.to_dict()}) + "\n"
