"""The shape of a parsed JSON document, measured at C speed: nesting depth and member count.

A card can hold half a million objects, so the walk goes level by level with ``map``,
``chain`` and ``compress`` instead of a Python loop over values. Besides the depth (checked
against ``MAX_DEPTH``) it counts object members and the colons inside strings: a JSON text has
exactly one colon outside strings per member, so comparing the counts tells, without a parse
hook, whether any object had a duplicate key that the parser silently merged.

A long array of objects whose values hold no array or object (a card's ``commands``) is not
walked value by value: its facts come from ``_tables`` (where the schema check and the rules
find them again), and the colons in its strings are left out of ``string_colons`` and counted
only if the caller needs the exact number (``deferred_colons``).
"""

from __future__ import annotations

import json
from itertools import chain, compress
from typing import Any, NamedTuple

from th_ext.validate._pointer import find_path, pointer
from th_ext.validate._tables import MIN_ROWS, Table, table

__all__ = ["MAX_DEPTH", "Shape", "deep_path_in_text", "deferred_colons", "measure"]

#: The deepest nesting of arrays and objects accepted; the card itself is 1.
MAX_DEPTH = 64

_CONTAINER_TYPES = frozenset({dict, list})
_IS_DICT = frozenset({dict})
_IS_LIST = frozenset({list})
_IS_STR = frozenset({str})
_BATCH = 4096


class Shape(NamedTuple):
    """``too_deep`` is the pointer to the first container past ``MAX_DEPTH`` (or ``None``).

    ``string_colons`` leaves out the strings of the arrays in ``deferred`` (see the module).
    """

    too_deep: str | None
    members: int
    string_colons: int
    deferred: tuple[Table, ...] = ()


def measure(value: Any) -> Shape:
    """The depth, the number of object members, and the colons in keys and string values."""
    members = 0
    colons = value.count(":") if type(value) is str else 0
    level = [value] if type(value) in _CONTAINER_TYPES else []
    depth = 1
    deferred: list[Table] = []
    while level:
        if depth > MAX_DEPTH:
            paths = find_path(value, _identity(level[0]), limit=1)
            return Shape(pointer(paths[0]) if paths else "", members, colons, tuple(deferred))
        deeper: list[Any] = []
        # The objects of a long flat array are one level down: past the limit, walk them.
        tables = deferred if depth < MAX_DEPTH else None
        for start in range(0, len(level), _BATCH):
            found_members, found_colons = _measure_batch(
                level[start : start + _BATCH], deeper, tables
            )
            members += found_members
            colons += found_colons
        level = deeper
        depth += 1
    return Shape(None, members, colons, tuple(deferred))


def deferred_colons(shape: Shape) -> int:
    """The colons in the keys and string values of the arrays ``measure`` deferred."""
    colons = 0
    for deferred in shape.deferred:
        for start in range(0, len(deferred.rows), _BATCH):
            colons += _measure_batch(deferred.rows[start : start + _BATCH], [], None)[1]
    return colons


def _measure_batch(
    containers: list[Any], deeper: list[Any], tables: list[Table] | None
) -> tuple[int, int]:
    """Members and string colons of some containers of one level; their children containers
    are appended to ``deeper``. A batch at a time keeps the temporary lists small.

    With ``tables``, a long array of objects without containers in them is measured from its
    ``Table`` and added to ``tables`` instead (its strings' colons are not counted)."""
    if _IS_LIST.issuperset(map(type, containers)):  # arrays only (deep nesting): no sorting
        dicts: list[dict[Any, Any]] = []
        lists = containers
    else:
        kinds = list(map(type, containers))
        dicts = list(compress(containers, map(_IS_DICT.__contains__, kinds)))
        lists = list(compress(containers, map(_IS_LIST.__contains__, kinds)))
    members = 0
    if tables is not None and max(map(len, lists), default=0) >= MIN_ROWS:
        walked = []
        for items in lists:
            flat = _flat_table(items) if len(items) >= MIN_ROWS else None
            if flat is None:
                walked.append(items)
            else:
                tables.append(flat)
                members += flat.members
        lists = walked
    colons = _count_colons(list(chain.from_iterable(dicts))) if dicts else 0
    values = list(chain(chain.from_iterable(map(dict.values, dicts)), *lists))
    value_kinds = list(map(type, values))
    found = set(value_kinds)
    if str in found:
        colons += _count_colons(list(compress(values, map(_IS_STR.__contains__, value_kinds))))
    if _CONTAINER_TYPES.issuperset(found):
        deeper.extend(values)
    elif not _CONTAINER_TYPES.isdisjoint(found):
        deeper.extend(compress(values, map(_CONTAINER_TYPES.__contains__, value_kinds)))
    return members + sum(map(len, dicts)), colons


def _flat_table(items: list[Any]) -> Table | None:
    """The table of ``items`` if they are objects whose values hold no array or object."""
    facts = table(items)  # the value comes from json.loads (see Table.parsed_objects)
    if facts.parsed_objects() and not facts.value_types & _CONTAINER_TYPES:
        return facts
    return None


def _identity(target: Any) -> Any:
    return lambda candidate: candidate is target


def _count_colons(strings: list[str]) -> int:
    """Colons in ``strings``, joined a batch at a time to keep the temporary copy small."""
    return sum(
        "".join(strings[start : start + _BATCH]).count(":")
        for start in range(0, len(strings), _BATCH)
    )


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
