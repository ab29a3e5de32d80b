"""RFC 6901 JSON pointers: building them, resolving them, and finding the values to name."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["find_path", "pointer", "resolve_pointer"]

PathPart = str | int


def pointer(parts: Iterable[PathPart]) -> str:
    """``("capabilities", "extensions", 0)`` as ``/capabilities/extensions/0``."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)


def resolve_pointer(document: Any, pointer: str) -> Any:
    """The value at an RFC 6901 ``pointer``; ``KeyError`` when it is absent or not a pointer."""
    if pointer == "":
        return document
    if not pointer.startswith("/"):
        raise KeyError(pointer)
    value = document
    for token in pointer[1:].split("/"):
        key = token.replace("~1", "/").replace("~0", "~")
        if isinstance(value, list) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        elif isinstance(value, dict) and key in value:
            value = value[key]
        else:
            raise KeyError(pointer)
    return value


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
