"""Where each problem is in the card's text, the order they are listed in, and their lines;
RFC 6901 JSON pointers: building them, resolving them, and finding the values to name."""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from dataclasses import dataclass, replace
from typing import Any

from th_ext.problems._problem import LAYERS, Problem

__all__ = [
    "SUMMARY_CODES",
    "Position",
    "children",
    "first_difference",
    "iter_paths",
    "locate",
    "needs_place",
    "place_problems",
    "pointer",
    "resolve_pointer",
    "sort_problems",
    "source_lines",
]

PathPart = str | int


def pointer(parts: Iterable[PathPart]) -> str:
    """``("capabilities", "extensions", 0)`` as ``/capabilities/extensions/0``."""
    return "".join(_step("", part) for part in parts)


def first_difference(
    left: Any, right: Any, at: str = "", *, numbers_by_value: bool = False
) -> str | None:
    """The JSON pointer of the first place where two JSON values differ (members in ``left``'s
    order, then those only ``right`` has), or ``None``. ``1`` and ``1.0`` differ, as their bytes
    do, unless ``numbers_by_value`` (as canonical JSON writes both ``1``); ``true`` and ``1``
    always differ."""
    if isinstance(left, dict) and isinstance(right, dict):
        for key in [*left, *(key for key in right if key not in left)]:
            here = _step(at, key)
            if key not in left or key not in right:
                return here
            found = first_difference(left[key], right[key], here, numbers_by_value=numbers_by_value)
            if found is not None:
                return found
        return None
    if isinstance(left, list) and isinstance(right, list):
        for index, (a, b) in enumerate(zip(left, right, strict=False)):
            found = first_difference(a, b, _step(at, index), numbers_by_value=numbers_by_value)
            if found is not None:
                return found
        return None if len(left) == len(right) else _step(at, min(len(left), len(right)))
    numbers = numbers_by_value and _is_number(left) and _is_number(right)
    return None if (type(left) is type(right) or numbers) and left == right else at


def _step(at: str, part: PathPart) -> str:
    return f"{at}/{str(part).replace('~', '~0').replace('/', '~1')}"


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def resolve_pointer(document: Any, pointer: str) -> Any:
    """The value at an RFC 6901 ``pointer``; ``KeyError`` when it is absent or not a pointer."""
    tokens = _reference_tokens(pointer)
    if tokens is None:
        raise KeyError(pointer)
    value = document
    for key in tokens:
        if isinstance(value, list) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        elif isinstance(value, dict) and key in value:
            value = value[key]
        else:
            raise KeyError(pointer)
    return value


def iter_paths(value: Any, predicate: Callable[[Any], bool]) -> Iterator[tuple[PathPart, ...]]:
    """The paths, in document order, of the values (containers or not) that match
    ``predicate``: iterative, in memory that grows with the depth, not the size."""
    if predicate(value):
        yield ()
    stack: list[tuple[tuple[PathPart, ...], Iterator[tuple[PathPart, Any]]]] = [
        ((), children(value))
    ]
    while stack:
        path, items = stack[-1]
        for key, child in items:
            child_path = (*path, key)
            if predicate(child):
                yield child_path
            kind = type(child)
            if kind is dict or kind is list:
                stack.append((child_path, children(child)))
                break
        else:
            stack.pop()


def children(value: Any) -> Iterator[tuple[PathPart, Any]]:
    """The (key or index, value) pairs of an object or array; none for anything else."""
    kind = type(value)
    if kind is dict:
        return iter(value.items())
    if kind is list:
        return enumerate(value)
    return iter(())


# A JSON string, written as an unrolled loop of possessive runs: a run of plain characters is
# one step of the matcher, not one backtracking point per character, so a megabyte-long run
# costs no memory (an alternation inside a repetition would keep a point per character).
_STRING = r'"[^"\\]*+(?:\\.[^"\\]*+)*+"'
# After optional white space: a string (with its escapes), one structural character, or a run of
# anything else (a number, true, false, null).
_TOKEN = re.compile(rf'\s*+({_STRING}|[{{}}\[\]:,]|[^\s{{}}\[\]:,"]++)', re.DOTALL)
# A member's key and its colon, in one match.
_KEY = re.compile(rf"\s*+({_STRING})\s*+:", re.DOTALL)
# Everything up to the next bracket that is not inside a string: one C-level match skips the
# flat part of a value, so skipping costs a match per nested container, not per token.
_FLAT = re.compile(rf'[^"{{}}\[\]]*+(?:{_STRING}[^"{{}}\[\]]*+)*+', re.DOTALL)


@dataclass(frozen=True, slots=True)
class Position:
    """A 1-based line and column (counted in characters) in the source text."""

    line: int
    column: int


class _Trie(dict[str, "_Trie"]):
    """The wanted pointers as a tree of their reference tokens; ``below`` lists the wanted
    pointers at this node and under it."""

    def __init__(self) -> None:
        super().__init__()
        self.below: list[tuple[str, ...]] = []


def locate(text: str, pointers: Iterable[str], *, keys: Iterable[str] = ()) -> dict[str, Position]:
    """The position of each pointer's value in ``text``, a JSON document that parsed (of its
    key, for the pointers in ``keys``). A missing member is placed where it belongs: at the key
    of the deepest value on its way that exists, or at its opening brace when it has no key.

    Pointers that are not well formed are left out of the answer.
    """
    root = _Trie()
    wanted: dict[str, tuple[str, ...]] = {}
    for pointer in pointers:
        if pointer in wanted:
            continue
        tokens = _reference_tokens(pointer)
        if tokens is None:
            continue
        node = root
        node.below.append(tokens)
        for token in tokens:
            node = node.setdefault(token, _Trie())
            node.below.append(tokens)
        wanted[pointer] = tokens
    if not wanted:
        return {}
    scanner = _Scanner(text, set(wanted.values()))
    offsets: dict[tuple[str, ...], int] = {}
    key_offsets = scanner.key_offsets
    start = scanner.token()
    if start is not None:
        with suppress(_AllPlaced):
            scanner.value(start, root, (), offsets)
    lines = _LineIndex(text)
    at_key = set(keys)
    found: dict[str, Position] = {}
    for pointer, tokens in wanted.items():
        if tokens in offsets:
            use_key = pointer in at_key and tokens in key_offsets
            found[pointer] = lines.position((key_offsets if use_key else offsets)[tokens])
            continue
        placed = tokens
        while placed not in offsets and placed:
            placed = placed[:-1]
        if placed in offsets:
            found[pointer] = lines.position(key_offsets.get(placed, offsets[placed]))
    return found


def _reference_tokens(pointer: str) -> tuple[str, ...] | None:
    if pointer == "":
        return ()
    if not pointer.startswith("/"):
        return None
    if "~" not in pointer:
        return tuple(pointer[1:].split("/"))
    return tuple(t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/"))


class _AllPlaced(Exception):
    """Every wanted pointer has its offset: the rest of the text need not be read."""


class _Scanner:
    """A cursor over the text that reads one token at a time, or skips a whole value. It stops
    (``_AllPlaced``) once every wanted pointer is placed or known to be missing: placing the
    first problems of a huge card costs the text up to them, not the whole card."""

    def __init__(self, text: str, wanted: set[tuple[str, ...]]) -> None:
        self.text = text
        self.pos = 0
        self.unplaced = set(wanted)
        self.key_offsets: dict[tuple[str, ...], int] = {}

    def token(self) -> tuple[str, int] | None:
        """The next token and its offset, or ``None`` at the end of the text."""
        match = _TOKEN.match(self.text, self.pos)
        if match is None:
            return None
        self.pos = match.end()
        return match.group(1), match.start(1)

    def skip_container(self) -> None:
        """Move past the bracket that closes the container just opened."""
        depth = 1
        while depth:
            end = _FLAT.match(self.text, self.pos).end()  # type: ignore[union-attr]
            if end >= len(self.text):
                self.pos = end
                return
            depth += 1 if self.text[end] in "{[" else -1
            self.pos = end + 1

    def value(
        self,
        start: tuple[str, int],
        want: _Trie,
        path: tuple[str, ...],
        offsets: dict[tuple[str, ...], int],
    ) -> None:
        """Record the value that begins with ``start``; descend where ``want`` has children."""
        lexeme, offset = start
        offsets[path] = offset
        if path in self.unplaced:  # placed where its value starts, whatever the value holds
            self.unplaced.discard(path)
            if not self.unplaced:
                raise _AllPlaced
        if lexeme not in ("{", "["):
            self._settle(want)
        elif not want:
            self._settle(want)
            self.skip_container()
        elif lexeme == "{":
            self._members(want, path, offsets)
            self._settle(want)
        else:
            self._items(want, path, offsets)
            self._settle(want)

    def _settle(self, want: _Trie) -> None:
        """The value ``want`` stands for has been read: its pointers are placed or missing."""
        self.unplaced.difference_update(want.below)
        if not self.unplaced:
            raise _AllPlaced

    def _members(
        self, want: _Trie, path: tuple[str, ...], offsets: dict[tuple[str, ...], int]
    ) -> None:
        remaining = len(want)
        while True:
            member = _KEY.match(self.text, self.pos)
            if member is None:  # the closing brace, or a comma before the next member
                token = self.token()
                if token is None or token[0] == "}":
                    return
                continue
            self.pos = member.end()
            lexeme = member.group(1)
            key = json.loads(lexeme) if "\\" in lexeme else lexeme[1:-1]
            start = self.token()
            if start is None:
                return
            child = want.get(key)
            if child is None:
                if start[0] in ("{", "["):
                    self.skip_container()
                continue
            self.key_offsets[(*path, key)] = member.start(1)
            self.value(start, child, (*path, key), offsets)
            remaining -= 1
            if not remaining:
                self.skip_container()
                return

    def _items(
        self, want: _Trie, path: tuple[str, ...], offsets: dict[tuple[str, ...], int]
    ) -> None:
        index, remaining = 0, len(want)
        while (start := self.token()) is not None:
            lexeme = start[0]
            if lexeme == "]":
                return
            if lexeme == ",":
                index += 1
                continue
            child = want.get(str(index))
            if child is None:
                if lexeme in ("{", "["):
                    self.skip_container()
                continue
            self.value(start, child, (*path, str(index)), offsets)
            remaining -= 1
            if not remaining:
                self.skip_container()
                return


class _LineIndex:
    """Offsets to lines and columns, with the line starts found once."""

    def __init__(self, text: str) -> None:
        self._starts = [0]
        self._starts.extend(m.end() for m in re.finditer("\n", text))

    def position(self, offset: int) -> Position:
        line = bisect_right(self._starts, offset)
        return Position(line, offset - self._starts[line - 1] + 1)


def place_problems(text: str, problems: list[Problem]) -> list[Problem]:
    """``problems`` with ``line`` and ``column`` set from their paths in ``text``, in the
    order a reader fixes them: layer by layer, each layer's problems by position (the "and M
    more" summaries last)."""
    unplaced = [p.path for p in problems if needs_place(p)]
    if not unplaced:
        return sort_problems(problems)
    keys = [p.path for p in problems if p.at_key and p.line is None]
    positions = locate(text, unplaced, keys=keys)
    placed = []
    for problem in problems:
        position = positions.get(problem.path) if needs_place(problem) else None
        if position is None:
            placed.append(problem)
        else:
            placed.append(replace(problem, line=position.line, column=position.column))
    return sort_problems(placed)


#: Problems that stand for many places, or for none: never placed, listed after the others.
SUMMARY_CODES = frozenset({"more-problems", "too-many-problems"})


def sort_problems(problems: list[Problem]) -> list[Problem]:
    """Layer by layer; in a layer, by line and column, the unplaced and summaries after."""
    far = 1 << 62

    def sort_key(problem: Problem) -> tuple[int, int, int, int]:
        return (
            LAYERS.index(problem.layer),
            problem.code in SUMMARY_CODES,
            far if problem.line is None else problem.line,
            far if problem.column is None else problem.column,
        )

    return sorted(problems, key=sort_key)


def source_lines(text: str, problems: list[Problem]) -> dict[int, str]:
    """The text of every line a problem is placed on, for showing it under the problem."""
    wanted = {p.line for p in problems if p.line is not None and not p.excerpt}
    if not wanted:
        return {}
    last = max(wanted)
    lines = enumerate(text.split("\n", last)[:last], start=1)
    return {number: line.rstrip("\r") for number, line in lines if number in wanted}


def needs_place(problem: Problem) -> bool:
    return problem.line is None and problem.layer != "source" and problem.code not in SUMMARY_CODES
