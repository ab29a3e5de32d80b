"""The document layer: bytes to a JSON value, with every way that can go wrong named.

JSON as RFC 8259 defines it: UTF-8 without a byte-order mark, no ``NaN`` or ``Infinity``, no
duplicate member names. A BOM, a non-finite number and a duplicate key are reported as errors
but do not stop the card from being checked (the value Python's parser keeps is the last one);
the parser finds the duplicate keys itself, through its object hook, as it builds each object.
An empty body, bytes that are not UTF-8, text that is not JSON, and nesting deeper than
``MAX_DEPTH`` are fatal: there is no card to check. A top-level value that is not an object is
fatal too. The parser never raises, and never lets a ``RecursionError`` escape.
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass
from typing import Any

from th_ext.problems._problem import Problem
from th_ext.validate._fields import json_type
from th_ext.validate._limits import MAX_PER_CODE, ProblemList, TooManyProblems
from th_ext.validate._pointer import iter_paths, pointer
from th_ext.validate._shape import MAX_DEPTH, deep_path_in_text, too_deep_path

__all__ = ["MAX_DEPTH", "ParsedDocument", "decode_document", "parse_document", "parse_text"]


_BOM = b"\xef\xbb\xbf"
_CONTAINERS = (dict, list)


@dataclass(frozen=True, slots=True)
class ParsedDocument:
    """The parsed value (``None`` when a fatal problem stopped parsing) and the problems."""

    value: Any
    problems: tuple[Problem, ...]

    @property
    def fatal(self) -> bool:
        return any(p.fatal for p in self.problems)


def _fatal(code: str, path: str, message: str, hint: str) -> Problem:
    return Problem("error", code, path, message, hint, "document", fatal=True)


def _error(code: str, path: str, message: str, hint: str) -> Problem:
    return Problem("error", code, path, message, hint, "document")


def parse_document(data: bytes) -> ParsedDocument:
    """Parse ``data`` as a card document. Never raises."""
    text, problems = decode_document(data)
    del data
    if text is None:
        return ParsedDocument(None, tuple(problems))
    parsed = parse_text(text)
    return ParsedDocument(parsed.value, (*problems, *parsed.problems))


def decode_document(data: bytes) -> tuple[str | None, list[Problem]]:
    """The document's text (``None`` if it has none) and the problems of its encoding.

    Split from ``parse_text`` so that a caller holding a large body can drop the bytes before
    the parse builds the value.
    """
    problems: list[Problem] = []
    offset = 0
    if data.startswith(_BOM):
        problems.append(
            _error(
                "byte-order-mark",
                "",
                "the document starts with a UTF-8 byte-order mark",
                "JSON sent over a network must not start with a BOM (RFC 8259 8.1); remove it",
            )
        )
        data = data[len(_BOM) :]
        offset = len(_BOM)
    if not data or data.isspace():  # not data.strip(), which copies a body ending in a newline
        problems.append(
            _fatal("empty-document", "", "the document is empty", "serve the card as JSON")
        )
        return None, problems
    try:
        return data.decode("utf-8"), problems
    except UnicodeDecodeError as exc:
        problems.append(
            _fatal(
                "invalid-utf8",
                "",
                f"the document is not valid UTF-8 (byte {exc.start + offset})",
                "encode the card as UTF-8",
            )
        )
        return None, problems


def parse_text(text: str) -> ParsedDocument:
    """Parse decoded JSON text. Never raises."""
    problems: list[Problem] = []
    constants: list[str] = []

    def constant(name: str) -> float:
        constants.append(name)
        return float(name.replace("Infinity", "inf"))

    repeated = _RepeatedKeys()
    try:
        value = json.loads(text, object_pairs_hook=repeated, parse_constant=constant)
    except RecursionError:
        problems.append(_too_deep(deep_path_in_text(text)))
        return ParsedDocument(None, tuple(problems))
    except json.JSONDecodeError as exc:
        from th_ext.validate._syntax import explain

        why = explain(text, exc)
        problems.append(
            Problem(
                "error",
                "invalid-json",
                "",
                why.message,
                why.hint,
                "document",
                fatal=True,
                excerpt=why.excerpt,
            )
        )
        return ParsedDocument(None, tuple(problems))
    except ValueError:  # an integer longer than Python's int-string limit
        problems.append(
            _fatal(
                "number-too-long",
                "",
                f"a number has more than {sys.get_int_max_str_digits()} digits",
                "no card needs a number this long; this is likely malformed or hostile",
            )
        )
        return ParsedDocument(None, tuple(problems))
    too_deep = too_deep_path(value)
    if too_deep is not None:
        problems.append(_too_deep(too_deep))
        return ParsedDocument(None, tuple(problems))
    if repeated.count:
        problems.extend(repeated.problems(value))
    if constants:
        problems.extend(_non_finite_problems(value))
    if not isinstance(value, dict):
        kind = "an array" if isinstance(value, list) else f"a {json_type(value)}"
        problems.append(
            _fatal(
                "not-an-object",
                "",
                f"the document is {kind}, not a JSON object",
                "an agent card is one JSON object",
            )
        )
    return ParsedDocument(value, tuple(problems))


def _non_finite_problems(value: Any) -> list[Problem]:
    """A problem per ``NaN`` / ``Infinity``, bounded as every check is (``ProblemList``)."""
    found = ProblemList()
    try:
        for path in iter_paths(value, _non_finite):
            found.append(
                _error(
                    "non-finite-number",
                    pointer(path),
                    "NaN and Infinity are not JSON numbers",
                    "use null or a finite number",
                )
            )
    except TooManyProblems:
        pass
    return found.finished()


def _non_finite(value: Any) -> bool:
    return isinstance(value, float) and not math.isfinite(value)


class _RepeatedKeys:
    """The parser's ``object_pairs_hook``: builds each object as ``json.loads`` would (the last
    of a repeated key's values wins) and notes every object that names a key twice.

    ``count`` is the number of duplicate-key problems in the parsed value: one per key an
    object repeats. An object inside a value that a repeated key replaced is not in the value
    (no pointer names it), so it is left out again when its container is replaced; every object
    noted is therefore alive in the value, and its ``id`` names it. Only the ids and the keys
    are kept (a key alone when it is the only one): a card of nothing but such objects must
    not hold a second structure per object.
    """

    def __init__(self) -> None:
        self.repeated: dict[int, str | tuple[str, ...]] = {}
        self.count = 0

    def __call__(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(pairs)
        if len(obj) != len(pairs):
            self._note(obj, pairs)
        return obj

    def _note(self, obj: dict[str, Any], pairs: list[tuple[str, Any]]) -> None:
        seen: set[str] = set()
        repeated: dict[str, None] = {}
        for key, item in pairs:
            if key in seen:
                repeated[key] = None
            seen.add(key)
            if self.repeated and obj[key] is not item and type(item) in _CONTAINERS:
                self._forget_inside(item)
        self.repeated[id(obj)] = next(iter(repeated)) if len(repeated) == 1 else tuple(repeated)
        self.count += len(repeated)

    def _forget_inside(self, replaced: Any) -> None:
        """Leave out the noted objects in a value the parser dropped."""
        stack = [replaced]
        while stack:
            node = stack.pop()
            if type(node) is dict:
                keys = self.repeated.pop(id(node), None)
                if keys is not None:
                    self.count -= 1 if type(keys) is str else len(keys)
                node = node.values()
            stack.extend(child for child in node if type(child) in _CONTAINERS)

    def problems(self, value: Any) -> list[Problem]:
        """A problem per repeated key, the first ``MAX_PER_CODE`` located (in document order)
        and the rest counted: placing is paid for the problems listed, not those found."""
        found = ProblemList()
        noted = self.repeated
        left = len(noted)
        for path in iter_paths(value, lambda v: type(v) is dict and id(v) in noted):
            node = value
            for part in path:
                node = node[part]
            keys = noted[id(node)]
            # One object may repeat more keys than are listed (or than a layer may find).
            for key in ((keys,) if type(keys) is str else keys)[: MAX_PER_CODE - len(found)]:
                found.append(
                    _error(
                        "duplicate-key",
                        pointer((*path, key)),
                        f"the key {key!r} appears more than once in this object",
                        "keep one; parsers disagree on which of the values wins",
                    )
                )
            left -= 1
            if not left or len(found) >= MAX_PER_CODE:
                break
        found.add_unlisted("duplicate-key", self.count - found.counts.get("duplicate-key", 0))
        return found.finished()


def _too_deep(path: str) -> Problem:
    return _fatal(
        "too-deep",
        path,
        f"arrays and objects are nested more than {MAX_DEPTH} deep",
        "a card needs far less nesting; this is likely malformed or hostile",
    )
