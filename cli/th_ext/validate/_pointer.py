"""RFC 6901 JSON pointers: building them, resolving them, and finding the values to name."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

__all__ = ["find_path", "iter_paths", "pointer", "resolve_pointer"]

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

    Iterative, so any nesting the parser accepted is safe to walk; ``limit`` stops early.
    """
    found: list[tuple[PathPart, ...]] = []
    for path in iter_paths(value, predicate):
        found.append(path)
        if limit is not None and len(found) >= limit:
            break
    return found


def iter_paths(value: Any, predicate: Callable[[Any], bool]) -> Iterator[tuple[PathPart, ...]]:
    """``find_path`` one path at a time, in memory that grows with the depth, not the size."""
    if predicate(value):
        yield ()
    stack: list[tuple[tuple[PathPart, ...], Iterator[tuple[PathPart, Any]]]] = [
        ((), _children(value))
    ]
    while stack:
        path, children = stack[-1]
        for key, child in children:
            child_path = (*path, key)
            if predicate(child):
                yield child_path
            kind = type(child)
            if kind is dict or kind is list:
                stack.append((child_path, _children(child)))
                break
        else:
            stack.pop()


def _children(value: Any) -> Iterator[tuple[PathPart, Any]]:
    kind = type(value)
    if kind is dict:
        return iter(value.items())
    if kind is list:
        return enumerate(value)
    return iter(())
