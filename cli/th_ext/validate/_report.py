"""The result of validating one card: its problems, summaries, verdict and exit code."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from th_ext.problems._problem import LAYERS, Layer, Problem
from th_ext.problems._text import clean

__all__ = ["FORMAT_VERSION", "Report"]

#: Bumped when a field of the JSON format changes meaning or disappears.
FORMAT_VERSION = 1


@dataclass(slots=True)
class Report:
    """A validation report.

    ``card_read`` is false when no card could be read (a source or document problem is
    fatal); ``layers`` lists the layers that ran. ``card`` summarises the card, ``extensions``
    every extension entry on it (a checked one with its commands, in order).
    """

    source: str
    location: str
    problems: list[Problem] = field(default_factory=list)
    card_read: bool = True
    strict: bool = False
    layers: tuple[Layer, ...] = LAYERS
    card: dict[str, Any] | None = None
    extensions: list[dict[str, Any]] = field(default_factory=list)
    source_lines: dict[int, str] = field(default_factory=dict)
    """The text of each line a problem is on, when the card was read as text (for showing the
    line under the problem; not part of the JSON format)."""

    def __post_init__(self) -> None:
        # Where the card came from is reported in every format: never with URL credentials.
        if "@" in self.source or "@" in self.location:
            from th_ext.net import redact

            self.source = redact(self.source)
            self.location = redact(self.location)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]

    @property
    def notices(self) -> list[Problem]:
        """The ``info`` findings: said, never failing."""
        return [p for p in self.problems if p.severity == "info"]

    def totals(self) -> dict[str, int]:
        """How many errors, warnings and notes were found, including those not listed (an
        "and M more" problem counts the problems it stands for)."""
        counts = {"error": 0, "warning": 0, "info": 0}
        for problem in self.problems:
            counts[problem.severity] += problem.hidden if problem.code == "more-problems" else 1
        return counts

    def fails(self, problem: Problem) -> bool:
        """Whether ``problem`` makes the card invalid (a warning does only under ``strict``,
        an ``info`` never)."""
        return problem.severity == "error" or (self.strict and problem.severity == "warning")

    @property
    def valid(self) -> bool:
        return self.card_read and not any(self.fails(p) for p in self.problems)

    @property
    def exit_code(self) -> int:
        """0 valid, 1 the card was read and has problems, 2 no card could be read."""
        if not self.card_read:
            return 2
        return 0 if self.valid else 1

    def by_layer(self) -> dict[Layer, list[Problem]]:
        grouped: dict[Layer, list[Problem]] = {layer: [] for layer in LAYERS}
        for problem in self.problems:
            grouped[problem.layer].append(problem)
        return grouped

    def to_dict(self) -> dict[str, Any]:
        """The JSON format: ``valid``, ``source``, ``problems`` and the summaries (``summary``
        counts every problem found, listed or not)."""
        totals = self.totals()
        return {
            "format": FORMAT_VERSION,
            "valid": self.valid,
            "exit_code": self.exit_code,
            "strict": self.strict,
            "source": self.source,
            "location": self.location,
            "card_read": self.card_read,
            "layers": list(self.layers),
            "summary": {
                "errors": totals["error"],
                "warnings": totals["warning"],
                "info": totals["info"],
            },
            "card": _clean_tree(self.card),
            "extensions": [_clean_tree(e) for e in self.extensions],
            "problems": [
                {
                    **p.to_dict(),
                    "message": clean(p.message),
                    "hint": clean(p.hint),
                }
                for p in self.problems
            ],
        }


def _clean_tree(value: Any) -> Any:
    """``value`` with every string cleaned of control characters and escape sequences, but
    ``path``, which stays exact since a program resolves it (JSON escapes it)."""
    if isinstance(value, str):
        return clean(value)
    if isinstance(value, list):
        return [_clean_tree(v) for v in value]
    if isinstance(value, dict):
        return {k: v if k == "path" else _clean_tree(v) for k, v in value.items()}
    return value
