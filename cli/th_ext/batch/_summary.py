"""The totals a run's summary needs, in bounded memory: counts by exit code, the first failing
sources and the slowest."""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from th_ext.batch._run import Outcome

__all__ = ["Summary"]

_SHOWN = 10


@dataclass(slots=True)
class Summary:
    """The totals of a run so far: ``add`` each outcome."""

    shown: int = _SHOWN
    checked: int = 0
    passed: int = 0
    failed: int = 0
    unreadable: int = 0
    duplicates: int = 0
    failing: list[tuple[str, int]] = field(default_factory=list)
    """The first ``shown`` sources with exit code 1 or 2, with their exit code."""
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
        if outcome.exit_code and len(self.failing) < self.shown:
            self.failing.append((outcome.source, outcome.exit_code))
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
