"""One finding of a check: what is wrong, where in the card, and how to fix it.

A problem is a plain frozen dataclass rather than a pydantic model so that reading and checking a
card never has to import pydantic: the validator's start-up time is part of its interface.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["LAYERS", "Layer", "Problem", "Severity"]

Severity = Literal["error", "warning", "info"]
"""``info`` is a notice that never fails a check, not even with ``--strict``."""
Layer = Literal["source", "document", "card", "extension"]

#: The layers in the order they are checked and printed.
LAYERS: tuple[Layer, ...] = ("source", "document", "card", "extension")


@dataclass(frozen=True, slots=True)
class Problem:
    """A finding. ``path`` is an RFC 6901 JSON pointer into the card ("" is the whole document).

    ``code`` is stable and kebab-case, for programs; ``message`` is one line, for people; ``hint``
    says what to do about it. ``fatal`` marks a problem that left no card to check. ``line``
    and ``column`` (1-based) place ``path`` in the source text, when the card was read as text.
    ``excerpt`` is the source text at the problem, when it helps (a JSON syntax error's line
    with a caret under the column). ``at_key`` places the problem at the member's key instead of
    its value (a key that should not be there); ``hidden`` is how many more problems of its
    kind this one stands for (an "and M more" summary), so that totals count every problem,
    and ``counts_code`` is that kind's code.
    """

    severity: Severity
    code: str
    path: str
    message: str
    hint: str = ""
    layer: Layer = "card"
    fatal: bool = False
    line: int | None = None
    column: int | None = None
    excerpt: str = ""
    at_key: bool = False
    hidden: int = 0
    counts_code: str = ""

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def to_dict(self) -> dict[str, str | int]:
        """The problem as it appears in the JSON report (``line``, ``column`` and ``excerpt``
        when known)."""
        data: dict[str, str | int] = {
            "severity": self.severity,
            "code": self.code,
            "layer": self.layer,
            "path": self.path,
            "message": self.message,
            "hint": self.hint,
        }
        if self.line is not None and self.column is not None:
            data["line"] = self.line
            data["column"] = self.column
        if self.excerpt:
            data["excerpt"] = self.excerpt
        return data
