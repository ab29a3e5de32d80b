"""Bounds on the work one validation does, whatever the card holds."""

from __future__ import annotations

from collections.abc import Iterable

from th_ext.problems._problem import Problem

__all__ = ["MAX_PER_CODE", "MAX_PER_LAYER", "ProblemList", "TooManyProblems"]

MAX_PER_CODE = 100
"""Problems of one code listed per check; the rest are counted in one "and M more" problem."""

MAX_PER_LAYER = 10_000
"""Problems found in one layer before the layer stops checking."""


class TooManyProblems(Exception):
    """Raised by a ``ProblemList`` that reached ``MAX_PER_LAYER``; carries the list."""

    def __init__(self, problems: ProblemList) -> None:
        super().__init__(f"more than {MAX_PER_LAYER} problems")
        self.problems = problems


class ProblemList(list[Problem]):
    """A list of problems that keeps at most ``MAX_PER_CODE`` of each code and counts the rest;
    at ``MAX_PER_LAYER`` it stops the layer (``TooManyProblems``). A card under the byte cap can
    hold millions of items wrong in the same way: memory stays bounded by the problems kept,
    and a hostile card buys no unbounded time."""

    def __init__(self, problems: Iterable[Problem] = ()) -> None:
        super().__init__()
        self.counts: dict[str, int] = {}
        self.examples: dict[str, Problem] = {}
        self.found = 0
        self.stopped = False
        self.extend(problems)

    def append(self, problem: Problem) -> None:
        code = problem.code
        count = self.counts.get(code, 0) + 1
        self.counts[code] = count
        self.found += 1
        if count <= MAX_PER_CODE:
            super().append(problem)
            self.examples.setdefault(code, problem)
        if self.found >= MAX_PER_LAYER:
            self.stopped = True
            raise TooManyProblems(self)

    def extend(self, problems: Iterable[Problem]) -> None:
        for problem in problems:
            self.append(problem)

    def add_unlisted(self, code: str, count: int) -> None:
        """Count ``count`` more problems of ``code``, found but never built: a check that
        knows how many there are without placing them all adds them here, after listing at
        least one, and they are summarised with the others (the layer does not stop)."""
        if count > 0:
            self.counts[code] = self.counts.get(code, 0) + count

    def finished(self) -> list[Problem]:
        """The kept problems, then one "and M more" problem per code over the cap, then (when
        the layer stopped early) one problem saying so."""
        done: list[Problem] = list(self)
        for code, count in self.counts.items():
            if count <= MAX_PER_CODE:
                continue
            example = self.examples[code]
            more = count - MAX_PER_CODE
            done.append(
                Problem(
                    example.severity,
                    "more-problems",
                    "",
                    f"and {more}{'+' if self.stopped else ''} more {code!r} "
                    f"problem{'s' * (more != 1 or self.stopped)} like "
                    "the ones above, not listed",
                    f"fix the ones listed and check again; at most {MAX_PER_CODE} of a kind "
                    "are listed",
                    example.layer,
                    hidden=more,
                    counts_code=code,
                )
            )
        if self.stopped:
            example = next(iter(self.examples.values()))
            done.append(
                Problem(
                    "error",
                    "too-many-problems",
                    "",
                    f"checking of the {example.layer} layer stopped after {MAX_PER_LAYER} "
                    "problems; the rest of it was not checked",
                    "a card with this many problems is malformed or hostile; fix the ones "
                    "listed and check again",
                    example.layer,
                )
            )
        return done
