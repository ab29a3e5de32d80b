"""JSON output that any JSON parser reads, whatever a card or an agent sent.
Every ``--format json`` document goes through ``to_json``."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from th_ext.batch import Statistics
    from th_ext.demo import DemoRun

__all__ = ["demo_json", "statistics_json", "to_json", "to_line"]

#: Past this depth the lines stop moving right, so that the output stays linear in size.
_MAX_INDENT_LEVEL = 64
_NON_FINITE = {math.inf: '"Infinity"', -math.inf: '"-Infinity"'}


def to_json(document: Any, *, indent: int = 2) -> str:
    """``document`` as strict JSON text, indented like ``json.dumps(..., indent=indent)``: ASCII,
    a non-finite number as a string (``"NaN"``), a document too deep for ``json`` by ``_chunks``."""
    try:
        return json.dumps(document, indent=indent, ensure_ascii=True, allow_nan=False)
    except (ValueError, RecursionError):
        return "".join(_chunks(document, indent))


def to_line(document: Any) -> str:
    """``document`` as one line of strict JSON (JSON Lines), the same values as ``to_json``."""
    try:
        return json.dumps(document, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
    except (ValueError, RecursionError):
        # the same stack-kept encoder, without indentation: a line break there is only ever
        # structure (every string's own is escaped)
        return "".join(_chunks(document, 0)).replace("\n", "")


def _scalar(value: Any) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        return _NON_FINITE.get(value, '"NaN"')
    return json.dumps(value, ensure_ascii=True)


def _chunks(document: Any, indent: int) -> Iterator[str]:
    """The same text as ``json.dumps``, from a loop over an explicit stack, not recursion.

    Each stack frame holds an open container's remaining items, the text that closes it, and
    how many of its items have been written.
    """
    stack: list[list[Any]] = []
    value: Any = document
    while True:
        if isinstance(value, dict) and value:
            yield "{"
            stack.append([iter([(_key(k), v) for k, v in value.items()]), "}", 0])
        elif isinstance(value, (list, tuple)) and value:
            yield "["
            stack.append([iter([(None, v) for v in value]), "]", 0])
        elif isinstance(value, dict):
            yield "{}"
        elif isinstance(value, (list, tuple)):
            yield "[]"
        else:
            yield _scalar(value)
        while stack:  # the next value to write, closing each container that has run out
            frame = stack[-1]
            entry = next(frame[0], None)
            if entry is None:
                stack.pop()
                yield _newline(indent, len(stack)) + frame[1]
                continue
            yield ("," if frame[2] else "") + _newline(indent, len(stack))
            frame[2] += 1
            key, value = entry
            if key is not None:
                yield json.dumps(key, ensure_ascii=True) + ": "
            break
        else:
            return


def _newline(indent: int, depth: int) -> str:
    return "\n" + " " * (indent * min(depth, _MAX_INDENT_LEVEL))


def _key(key: Any) -> str:
    if isinstance(key, str):
        return key
    if isinstance(key, float) and not math.isfinite(key):
        return _NON_FINITE.get(key, '"NaN"').strip('"')
    return json.dumps(key)


def demo_json(run: DemoRun) -> dict[str, Any]:
    """The demo's steps as one JSON document: each step's own report."""
    return {
        "passed": run.passed,
        "agent": run.base_url,
        "card": run.card_location,
        "validate": run.validation.to_dict(),
        "dry_run": {"passed": run.dry_run_passed, **run.dry_run.to_dict()},
        "conform": run.conformance.to_dict(),
    }


def statistics_json(statistics: Statistics, *, command: str, exit_code: int) -> str:
    """``--statistics --format json``: ``{"command", "exit_code", "sources", "problems",
    "errors"}``."""
    return to_json({"command": command, "exit_code": exit_code, **statistics.to_dict()}) + "\n"
