"""Did-you-mean for a key a card should not have, and a minimal value for one it lacks.

A misspelt key (``argument_hnit``), a camelCase one where the schema is snake_case
(``argumentHint``) or the reverse: the closest allowed name is suggested when one is close
enough. Names are compared with case, ``_`` and ``-`` set aside first, then by similarity.
A missing member's hint gives a value that would pass, built from A2A 1.0's model of the card
(every required field, with a typical value) or from the extension's schema.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from difflib import get_close_matches
from typing import Any

__all__ = ["allowed_keys_text", "closest_name", "minimal_card_member", "minimal_schema_value"]

_CUTOFF = 0.75

#: Values a person would write for A2A fields whose meaning is known; any other string is "…".
_TYPICAL = {
    "url": "https://agent.example/a2a",
    "protocolBinding": "JSONRPC",
    "protocolVersion": "1.0",
    "defaultInputModes": ["text/plain"],
    "defaultOutputModes": ["text/plain"],
    "version": "1.0.0",
    "uri": "https://agent.example/ext/v1",
}
_MAX_DEPTH = 4


def _folded(name: str) -> str:
    return name.replace("_", "").replace("-", "").lower()


def closest_name(name: str, allowed: Iterable[str]) -> str | None:
    """The allowed name ``name`` most likely stands for, or ``None`` when none is close."""
    names = [a for a in allowed if a != name]
    folded = _folded(name)
    for candidate in names:
        if _folded(candidate) == folded:
            return candidate
    by_fold = {_folded(c): c for c in names}
    match = get_close_matches(folded, list(by_fold), n=1, cutoff=_CUTOFF)
    return by_fold[match[0]] if match else None


def allowed_keys_text(allowed: Iterable[str]) -> str:
    """``allowed`` as a phrase for a hint: "the keys allowed here are a, b and c"."""
    names = sorted(allowed)
    if not names:
        return "no keys are allowed here"
    if len(names) == 1:
        return f"the only key allowed here is {names[0]}"
    return f"the keys allowed here are {', '.join(names[:-1])} and {names[-1]}"


def minimal_card_member(path: tuple[str | int, ...], key: str) -> str | None:
    """``"key": value`` for the A2A field ``key`` of the object at ``path`` in a card."""
    from th_ext.validate._a2a_model import MESSAGES, ROOT

    message: str | None = ROOT
    for step in path:
        if isinstance(step, int) or message is None:
            continue
        field = next((f for f in MESSAGES.get(message, ()) if f.json_name == step), None)
        message = field.target if field is not None and field.kind == "message" else None
    if message is None:
        return None
    field = next((f for f in MESSAGES.get(message, ()) if f.json_name == key), None)
    if field is None:
        return None
    return f"{json.dumps(key)}: {_compact(_card_value(field, 0))}"


def _card_value(field: Any, depth: int) -> Any:
    from th_ext.validate._a2a_model import MESSAGES

    if field.json_name in _TYPICAL:
        return _TYPICAL[field.json_name]
    if field.kind == "message" and depth < _MAX_DEPTH:
        value: Any = {
            f.json_name: _card_value(f, depth + 1)
            for f in MESSAGES.get(field.target, ())
            if f.required
        }
    elif field.kind == "bool":
        value = False
    elif field.kind in ("int", "float"):
        value = 0
    elif field.kind in ("map", "struct", "message"):
        value = {}
    else:
        value = "…"
    return [value] if field.repeated else value


def minimal_schema_value(schema: Any, depth: int = 0) -> Any:
    """A small value that passes ``schema`` (its ``default`` when it has one), as far as the
    common keywords tell; ``$ref`` is not followed."""
    if not isinstance(schema, dict):
        return None
    if "default" in schema:
        return schema["default"]
    if "const" in schema:
        return schema["const"]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object" or (kind is None and "properties" in schema):
        properties = schema.get("properties")
        required = schema.get("required")
        properties = properties if isinstance(properties, dict) else {}
        required = required if isinstance(required, list) else []
        if depth >= _MAX_DEPTH:
            return {}
        return {
            key: minimal_schema_value(properties.get(key), depth + 1)
            for key in required
            if isinstance(key, str)
        }
    if kind == "array":
        return []
    if kind == "string":
        return "…"
    if kind in ("integer", "number"):
        return 0
    if kind == "boolean":
        return False
    return None


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
