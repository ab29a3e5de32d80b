"""How deep a parsed JSON document nests, measured at C speed.

A card can hold half a million objects, so the walk goes level by level with ``map``,
``chain`` and ``compress`` instead of a Python loop over values, and stops at the first
container past ``MAX_DEPTH``.

A long array of objects whose values hold no array or object (a card's ``commands``) is not
walked value by value: its facts come from ``_tables`` (where the schema check and the rules
find them again), and they say it ends one level down.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import chain, compress
from typing import Any

from th_ext.validate._pointer import find_path, pointer
from th_ext.validate._tables import MIN_ROWS, table

__all__ = ["MAX_DEPTH", "deep_path_in_text", "too_deep_path"]

#: The deepest nesting of arrays and objects accepted; the card itself is 1.
MAX_DEPTH = 64

_CONTAINER_TYPES = frozenset({dict, list})
_IS_DICT = frozenset({dict})
_IS_LIST = frozenset({list})
_BATCH = 4096


def too_deep_path(value: Any) -> str | None:
    """The pointer to the first container (in document order) nested past ``MAX_DEPTH``, or
    ``None``."""
    level = [value] if type(value) in _CONTAINER_TYPES else []
    depth = 1
    while level:
        if depth > MAX_DEPTH:  # the first of them in document order
            paths = find_path(value, _one_of(level), limit=1)
            return pointer(paths[0]) if paths else ""
        deeper: list[Any] = []
        # The objects of a long flat array are one level down: past the limit, walk them.
        skip_flat = depth < MAX_DEPTH
        for start in range(0, len(level), _BATCH):
            _add_children(level[start : start + _BATCH], deeper, skip_flat=skip_flat)
        level = deeper
        depth += 1
    return None


def _add_children(containers: list[Any], deeper: list[Any], *, skip_flat: bool) -> None:
    """Append the arrays and objects that ``containers`` (some of one level) hold to
    ``deeper``. A batch at a time keeps the temporary lists small.

    With ``skip_flat``, a long array of objects without containers in them is left out: its
    objects are one level down and hold nothing deeper."""
    if _IS_LIST.issuperset(map(type, containers)):  # arrays only (deep nesting): no sorting
        dicts: list[dict[Any, Any]] = []
        lists = containers
    else:
        kinds = list(map(type, containers))
        dicts = list(compress(containers, map(_IS_DICT.__contains__, kinds)))
        lists = list(compress(containers, map(_IS_LIST.__contains__, kinds)))
    if skip_flat and max(map(len, lists), default=0) >= MIN_ROWS:
        lists = [items for items in lists if len(items) < MIN_ROWS or not _is_flat_table(items)]
    values = list(chain(chain.from_iterable(map(dict.values, dicts)), *lists))
    value_kinds = list(map(type, values))
    found = set(value_kinds)
    if _CONTAINER_TYPES.issuperset(found):
        deeper.extend(values)
    elif not _CONTAINER_TYPES.isdisjoint(found):
        deeper.extend(compress(values, map(_CONTAINER_TYPES.__contains__, value_kinds)))


def _is_flat_table(items: list[Any]) -> bool:
    """Whether ``items`` are objects whose values hold no array or object."""
    facts = table(items)  # the value comes from json.loads (see Table.parsed_objects)
    return facts.parsed_objects() and not facts.value_types & _CONTAINER_TYPES


def _one_of(containers: list[Any]) -> Callable[[Any], bool]:
    ids = set(map(id, containers))  # they are alive, so no other value shares an id
    return lambda candidate: id(candidate) in ids


def deep_path_in_text(text: str) -> str:
    """The pointer to where nesting first exceeds ``MAX_DEPTH``, read from the raw text.

    Used only when the parser itself ran out of stack, so the value was never built. Scans
    until the limit is passed, tracking array indices and object keys.
    """
    decoder = json.JSONDecoder()
    stack: list[list[Any]] = []  # [kind, current key or index]
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            try:
                string, end = decoder.raw_decode(text, i)
            except ValueError:
                break
            if stack and stack[-1][0] == "{" and stack[-1][1] is None:
                stack[-1][1] = string
            i = end
            continue
        if ch in "[{":
            if len(stack) >= MAX_DEPTH:
                return pointer(tuple(entry[1] for entry in stack))
            stack.append([ch, 0 if ch == "[" else None])
        elif ch in "]}":
            if stack:
                stack.pop()
        elif ch == "," and stack:
            stack[-1][1] = stack[-1][1] + 1 if stack[-1][0] == "[" else None
        i += 1
    return ""
