"""What a JSON syntax error most likely is, shown at its line with a caret.

``json`` says where parsing stopped ("Expecting property name enclosed in double quotes: line
3 column 5"), not why. ``explain`` adds the source line with a caret under the column, and a
hint for the usual causes of a hand-edited card: a trailing comma, single quotes, a comment, an
unquoted key, a template placeholder left in (``{{BASE_URL}}``, ``${URL}``). The HTML hint is
given only when the body looks like an HTML page, which usually means a wrong URL.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

__all__ = ["SyntaxExplanation", "explain"]

_MAX_EXCERPT = 120
_PLACEHOLDER = re.compile(r"\{\{[^{}]*\}\}|\$\{[^{}]*\}|<%[^%]*%>|\{[A-Z][A-Z0-9_]*\}")


@dataclass(frozen=True, slots=True)
class SyntaxExplanation:
    """The message, the hint, and the excerpt (the line, then a caret line)."""

    message: str
    hint: str
    excerpt: str
    line: int
    column: int


def explain(text: str, error: json.JSONDecodeError) -> SyntaxExplanation:
    line_text = text.split("\n")[error.lineno - 1] if text else ""
    message = f"not JSON: {error.msg} at line {error.lineno} column {error.colno}"
    return SyntaxExplanation(
        message,
        _hint(text, error, line_text),
        _excerpt(line_text.rstrip("\r"), error.colno),
        error.lineno,
        error.colno,
    )


def _excerpt(line: str, column: int) -> str:
    """The line (cut to a window around the column when long) and a caret under the column."""
    start = 0
    if len(line) > _MAX_EXCERPT:
        start = max(0, min(column - 1 - _MAX_EXCERPT // 2, len(line) - _MAX_EXCERPT))
        line = line[start : start + _MAX_EXCERPT]
    caret = " " * max(0, column - 1 - start) + "^"
    return f"{line.expandtabs(1)}\n{caret}"


def _hint(text: str, error: json.JSONDecodeError, line: str) -> str:
    head = text.lstrip()[:200].lower()
    if head.startswith(("<!doctype html", "<html", "<head", "<body")) or "<html" in head:
        return "this is an HTML page, not a card: an HTML page here usually means a wrong URL"
    before = text[: error.pos].rstrip()
    at = text[error.pos : error.pos + 1]
    placeholder = _PLACEHOLDER.search(line)
    if placeholder is not None:
        return (
            f"the template placeholder {placeholder.group()} was left in: fill it in before "
            "serving the card"
        )
    if before.endswith(",") and at in "}]":
        return "remove the comma before this closing bracket: JSON allows no trailing comma"
    if at in ("/", "#"):
        return "remove the comment: JSON has no comments"
    if at == "'":
        return "use double quotes: JSON strings and keys are in double quotes"
    if "property name" in error.msg and re.match(r"[A-Za-z_$]", at):
        return "quote the key: JSON keys are strings in double quotes"
    return "check the card with a JSON parser near this place"
