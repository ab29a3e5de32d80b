"""JSON written from trees whose objects are lists of key/value pairs, so that a key may repeat.

``json.loads`` keeps only the last of repeated keys, so a test of duplicate-key detection needs
its documents written from something else: here an object is a one-element tuple holding its
``(key, value)`` pairs, keys written as they appear in the text (``\\u0061`` is ``a``).
"""

from __future__ import annotations

import json
from typing import Any

from th_ext.validate._positions import pointer

__all__ = ["duplicate_key_pointers", "has_duplicate_keys", "pair_text"]


def pair_text(node: Any) -> str:
    """The JSON text of ``node``."""
    if isinstance(node, tuple):
        return "{" + ", ".join(f'"{k}": {pair_text(v)}' for k, v in node[0]) + "}"
    if isinstance(node, list):
        return "[" + ", ".join(pair_text(v) for v in node) + "]"
    return json.dumps(node)


def has_duplicate_keys(node: Any) -> bool:
    """Whether an object anywhere in ``node`` names a key twice, escapes decoded."""
    if isinstance(node, tuple):
        keys = [json.loads(f'"{k}"') for k, _ in node[0]]
        return len(set(keys)) != len(keys) or any(has_duplicate_keys(v) for _, v in node[0])
    if isinstance(node, list):
        return any(has_duplicate_keys(v) for v in node)
    return False


def duplicate_key_pointers(node: Any, path: tuple[str | int, ...] = ()) -> list[str]:
    """The pointer of every key an object repeats, for the objects the parsed value keeps (a
    repeated key's last value wins), in document order: an object's keys in the order they
    repeat, before the objects inside it."""
    if isinstance(node, list):
        return [p for i, v in enumerate(node) for p in duplicate_key_pointers(v, (*path, i))]
    if not isinstance(node, tuple):
        return []
    pairs = [(json.loads(f'"{k}"'), v) for k, v in node[0]]
    seen: set[str] = set()
    repeated: dict[str, None] = {}
    for key, _ in pairs:
        if key in seen:
            repeated[key] = None
        seen.add(key)
    found = [pointer((*path, key)) for key in repeated]
    for key, value in dict(pairs).items():
        found.extend(duplicate_key_pointers(value, (*path, key)))
    return found
