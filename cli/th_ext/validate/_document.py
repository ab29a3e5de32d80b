"""The document layer: bytes to a JSON value under RFC 8259 (UTF-8, no BOM, no ``NaN``, no
repeated key, at most ``MAX_DEPTH`` deep), and the card reading the other commands share."""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from th_ext._deadline import Deadline
from th_ext._exceptions import CardDocumentError
from th_ext.net import HarRecorder, HeaderScope
from th_ext.problems._problem import Problem
from th_ext.problems._text import quoted
from th_ext.sources._source import SourceBytes, SourceLimits, read_source
from th_ext.validate._limits import MAX_PER_CODE, ProblemList, TooManyProblems
from th_ext.validate._positions import PathPart, children, iter_paths, pointer

__all__ = [
    "MAX_DEPTH",
    "LoadedCard",
    "ParsedDocument",
    "SyntaxExplanation",
    "decode_document",
    "explain",
    "fatal_problem",
    "json_type",
    "load_card",
    "parse_document",
    "parse_text",
    "too_deep_path",
]

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
    position = f"line {error.lineno} column {error.colno}"
    message = f"not JSON: {_without_position(error.msg)} at {position}"
    return SyntaxExplanation(
        message,
        _hint(text, error, line_text),
        _excerpt(line_text.rstrip("\r"), error.colno),
        error.lineno,
        error.colno,
    )


def _without_position(parser_message: str) -> str:
    """The parser's message without a trailing "at" (``Unterminated string starting at``),
    which led to its own position: ``explain`` gives the position itself."""
    words = parser_message.rstrip(" :")
    return words.removesuffix(" at").rstrip()


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


@dataclass(frozen=True, slots=True)
class LoadedCard:
    """A card read and parsed: a JSON object, plus the warnings about reading and parsing it.

    ``problems`` holds the notices of the source and the document problems that did not stop
    the card from being read (a byte-order mark, a duplicate key, ``NaN``), in document order.
    """

    source: str
    location: str
    card: dict[str, Any]
    problems: tuple[Problem, ...] = ()


def load_card(
    source: str,
    limits: SourceLimits | None = None,
    *,
    scope: HeaderScope | None = None,
    recorder: HarRecorder | None = None,
) -> LoadedCard:
    """Read ``source`` and parse it as a card: a JSON object.

    Raises what ``read_source`` raises, and ``CardDocumentError`` when the bytes are not a JSON
    object (empty, not UTF-8, not JSON, nested too deep, or a top-level array or scalar). Its
    ``code`` is the document problem's code (``empty-document``, ``invalid-utf8``,
    ``invalid-json``, ``too-deep``, ``not-an-object``). A ``recorder`` records the card's
    requests (HAR).
    """
    return parse_card(read_source(source, limits, scope=scope, recorder=recorder))


def parse_card(raw: SourceBytes) -> LoadedCard:
    """``raw``'s bytes parsed as a card, for a caller that read them itself (``load_card`` once
    the source is read); raises ``CardDocumentError`` as ``load_card`` does."""
    document = parse_document(raw.data)
    fatal = next((p for p in document.problems if p.fatal), None)
    if fatal is not None or not isinstance(document.value, dict):
        problem = fatal or document.problems[-1]
        raise CardDocumentError(
            f"{raw.location}: {problem.message}", code=problem.code, path=problem.path
        )
    return LoadedCard(
        source=raw.source,
        location=raw.location,
        card=document.value,
        problems=raw.notices + document.problems,
    )


#: The deepest nesting of arrays and objects accepted; the card itself is 1.
MAX_DEPTH = 64


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


def fatal_problem(code: str, path: str, message: str, hint: str) -> Problem:
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
            fatal_problem("empty-document", "", "the document is empty", "serve the card as JSON")
        )
        return None, problems
    try:
        return data.decode("utf-8"), problems
    except UnicodeDecodeError as exc:
        problems.append(
            fatal_problem(
                "invalid-utf8",
                "",
                f"the document is not valid UTF-8 (byte {exc.start + offset})",
                "encode the card as UTF-8",
            )
        )
        return None, problems


def parse_text(text: str, deadline: Deadline | None = None) -> ParsedDocument:
    """Parse decoded JSON text. Never raises but ``DeadlineError`` once ``deadline`` passes."""
    constants: list[str] = []

    def read_constant(name: str) -> float:
        constants.append(name)
        return float(name)  # NaN, Infinity, -Infinity: float() reads each as JSON writes it

    repeated = _RepeatedKeys()
    try:
        value = json.loads(text, object_pairs_hook=repeated, parse_constant=read_constant)
    except RecursionError:
        return ParsedDocument(None, (_too_deep(deep_path_in_text(text)),))
    except json.JSONDecodeError as exc:
        why = explain(text, exc)
        invalid = Problem(
            "error",
            "invalid-json",
            "",
            why.message,
            why.hint,
            "document",
            fatal=True,
            line=why.line,
            column=why.column,
            excerpt=why.excerpt,
        )
        return ParsedDocument(None, (invalid,))
    except ValueError:  # an integer longer than Python's int-string limit
        return ParsedDocument(None, (_number_too_long(text),))
    too_deep = too_deep_path(value, deadline)
    if too_deep is not None:
        return ParsedDocument(None, (_too_deep(too_deep),))
    problems: list[Problem] = []
    if repeated.count:
        problems.extend(repeated.problems(value))
    if constants:
        problems.extend(_non_finite_problems(value))
    if not isinstance(value, dict):
        kind = "an array" if isinstance(value, list) else f"a {json_type(value)}"
        if value is None:
            kind = "null"
        problems.append(
            fatal_problem(
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
    with suppress(TooManyProblems):
        for path in iter_paths(value, _non_finite):
            found.append(
                _error(
                    "non-finite-number",
                    pointer(path),
                    "NaN and Infinity are not JSON numbers",
                    "use null or a finite number",
                )
            )
    return found.finished()


def _non_finite(value: Any) -> bool:
    return isinstance(value, float) and not math.isfinite(value)


class _RepeatedKeys:
    """The parser's ``object_pairs_hook``: builds each object as ``json.loads`` would (the last
    of a repeated key's values wins) and notes, by ``id``, every object that names a key twice.

    ``count`` is the number of duplicate-key problems: one per key an object repeats. An object
    inside a value a repeated key replaced is forgotten again, so every object noted is alive in
    the value. Only ids and keys are kept, so a card of such objects holds no second structure.
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
                        f"the key {quoted(key)} appears more than once in this object",
                        "keep one; parsers disagree on which of the values wins",
                    )
                )
            left -= 1
            if not left or len(found) >= MAX_PER_CODE:
                break
        found.add_unlisted("duplicate-key", self.count - found.counts.get("duplicate-key", 0))
        return found.finished()


def _too_deep(path: str) -> Problem:
    return fatal_problem(
        "too-deep",
        path,
        f"arrays and objects are nested more than {MAX_DEPTH} deep",
        "a card needs far less nesting; this is likely malformed or hostile",
    )


def too_deep_path(value: Any, deadline: Deadline | None = None) -> str | None:
    """The pointer to the first container (in document order) nested past ``MAX_DEPTH``, or
    ``None``. A walk with a stack of iterators, so any nesting the parser built is safe."""
    path: list[PathPart] = []
    stack = [children(value)]
    walked = 0
    while stack:
        for key, child in stack[-1]:
            if type(child) in _CONTAINERS:
                path.append(key)
                if len(stack) >= MAX_DEPTH:
                    return pointer(path)
                stack.append(children(child))
                break
        else:
            stack.pop()
            if path:
                path.pop()
            walked += 1
            if deadline is not None and not walked % 4096:
                deadline.check()
    return None


def deep_path_in_text(text: str) -> str:
    """The pointer to where nesting first exceeds ``MAX_DEPTH``, read from the raw text: for
    when the parser itself ran out of stack, so the value was never built."""
    for index, open_containers in _values_in_text(text):
        if text[index] in "[{" and len(open_containers) >= MAX_DEPTH:
            return _pointer_in_text(open_containers)
    return ""


def _number_too_long(text: str) -> Problem:
    """The problem of the first integer in ``text`` past Python's int-string limit, placed at
    its value (pointer, line, column and excerpt), read from the raw text as the parser
    stopped on it."""
    limit = sys.get_int_max_str_digits()
    path, line, column, excerpt = "", None, None, ""
    for index, open_containers in _values_in_text(text):
        number = _INTEGER.match(text, index)
        if number is None or number.group("fraction") is not None:
            continue
        if len(number.group("digits")) > limit:
            path = _pointer_in_text(open_containers)
            line = text.count("\n", 0, index) + 1
            line_start = text.rfind("\n", 0, index) + 1
            column = index - line_start + 1
            line_end = text.find("\n", index)
            line_text = text[line_start : line_end if line_end >= 0 else len(text)]
            excerpt = _excerpt(line_text.rstrip("\r"), column)
            break
    return Problem(
        "error",
        "number-too-long",
        path,
        f"a number has more than {limit} digits",
        "no card needs a number this long; this is likely malformed or hostile",
        "document",
        fatal=True,
        line=line,
        column=column,
        excerpt=excerpt,
    )


#: An integer as JSON writes it, and whether a fraction or an exponent makes it a float.
_INTEGER = re.compile(r"-?(?P<digits>[0-9]+)(?P<fraction>[.eE])?")


def _values_in_text(text: str) -> Iterator[tuple[int, list[list[Any]]]]:
    """Each place outside the strings of ``text`` where an array, an object or a number starts,
    with the containers open there (each ``[kind, current key or index]``): a walk of the raw
    text, for the problems that stop the parser before it builds a value. A number is skipped
    whole once its place is given."""
    decoder = json.JSONDecoder()
    open_containers: list[list[Any]] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            try:
                string, end = decoder.raw_decode(text, i)
            except ValueError:
                break
            if open_containers and open_containers[-1][0] == "{" and open_containers[-1][1] is None:
                open_containers[-1][1] = string
            i = end
            continue
        if ch in "[{":
            yield i, open_containers
            open_containers.append([ch, 0 if ch == "[" else None])
        elif ch in "]}":
            if open_containers:
                open_containers.pop()
        elif ch == "," and open_containers:
            entry = open_containers[-1]
            entry[1] = entry[1] + 1 if entry[0] == "[" else None
        elif ch in "-0123456789":
            yield i, open_containers
            number = _NUMBER.match(text, i)
            i = number.end() if number is not None and number.end() > i else i + 1
            continue
        i += 1


_NUMBER = re.compile(r"-?[0-9]*(?:\.[0-9]*)?(?:[eE][-+]?[0-9]*)?")


def _pointer_in_text(open_containers: list[list[Any]]) -> str:
    return pointer(tuple(entry[1] for entry in open_containers))


def json_type(value: Any) -> str:
    """The JSON type name of a parsed value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"
