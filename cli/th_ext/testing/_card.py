"""``check_card``: one call that validates an agent card and fails a test with the report."""

from __future__ import annotations

import json
from os import PathLike
from pathlib import Path
from typing import Any

from th_ext.validate import Problem, Report, ValidateOptions, validate_bytes

__all__ = ["CardCheckFailed", "check_card"]


class CardCheckFailed(AssertionError):
    """The card is not valid; ``report`` holds every problem, and the message lists them."""

    def __init__(self, report: Report) -> None:
        self.report = report
        super().__init__(describe(report))


def check_card(
    card_or_path: dict[str, Any] | str | PathLike[str] | bytes,
    *,
    strict: bool = False,
    extensions: tuple[str, ...] = (),
) -> Report:
    """Validate a card exactly as ``th-ext validate`` does, and return the report.

    ``card_or_path`` is the card as a dict, the path of a card file, or the card's bytes.
    ``extensions`` (URIs or keys such as ``commands/v1``) must be declared; ``strict`` fails
    on warnings too. Raises ``CardCheckFailed`` (an ``AssertionError``) when the card is not
    valid, with every problem and its line in the message.
    """
    options = ValidateOptions(strict=strict, extensions=extensions)
    if isinstance(card_or_path, dict):
        data, source = json.dumps(card_or_path, indent=2).encode(), "<card>"
    elif isinstance(card_or_path, bytes):
        data, source = card_or_path, "<card>"
    else:
        path = Path(card_or_path)
        data, source = path.read_bytes(), str(card_or_path)
    report = validate_bytes(data, source=source, options=options)
    if not report.valid:
        raise CardCheckFailed(report)
    return report


def describe(report: Report) -> str:
    """The report in a few plain lines: the verdict, then one line per problem."""
    failing = [p for p in report.problems if report.fails(p)]
    head = f"agent card {report.location} is not valid: {len(failing)} problem(s)"
    return "\n".join([head, *(_line(p, report.location) for p in report.problems)])


def _line(problem: Problem, location: str) -> str:
    where = f" at {problem.path}" if problem.path else ""
    if problem.line is not None:
        where += f" ({location}:{problem.line}:{problem.column})"
    hint = f" (hint: {problem.hint})" if problem.hint else ""
    return f"  {problem.severity} {problem.code}{where}: {problem.message}{hint}"
