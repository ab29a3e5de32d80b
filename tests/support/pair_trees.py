"""JSON written from trees whose objects are lists of key/value pairs, so that a key may repeat.

``json.loads`` keeps only the last of repeated keys, so a test of duplicate-key detection needs
its documents written from something else: here an object is a one-element tuple holding its
``(key, value)`` pairs, keys written as they appear in the text (``\\u0061`` is ``a``).
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["has_duplicate_keys", "pair_text"]


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
