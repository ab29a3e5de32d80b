"""RFC 6901 JSON pointers: building them, and finding the values a pointer should name."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["find_path", "pointer"]

PathPart = str | int


def pointer(parts: Iterable[PathPart]) -> str:
    """``("capabilities", "extensions", 0)`` as ``/capabilities/extensions/0``."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)


def find_path(
    value: Any, predicate: Callable[[Any], bool], limit: int | None = None
) -> list[tuple[PathPart, ...]]:
    """The paths, in document order, of the values (containers or not) that match ``predicate``.

    Iterative, so any nesting the parser accepted is safe to walk.
    """
    found: list[tuple[PathPart, ...]] = []
    stack: list[tuple[tuple[PathPart, ...], Any]] = [((), value)]
    while stack:
        path, current = stack.pop()
        if predicate(current):
            found.append(path)
            if limit is not None and len(found) >= limit:
                break
        children: list[tuple[tuple[PathPart, ...], Any]]
        if type(current) is dict:
            children = [((*path, key), child) for key, child in current.items()]
        elif type(current) is list:
            children = [((*path, index), child) for index, child in enumerate(current)]
        else:
            continue
        stack.extend(reversed(children))
    return found
