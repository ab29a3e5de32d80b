"""A jsonschema error said in a card author's words, with a hint that fixes it.

jsonschema's messages name its keywords ("Additional properties are not allowed", "the
'required' rule"); a card author needs the key that is wrong, the name it most likely meant,
the keys that are allowed, and for a missing member a value that would pass. ``problems_for``
turns one error into its problems: one per unexpected key (placed at the key), one for a
missing member (placed at the object it belongs in), one for anything else.
"""

from __future__ import annotations

import json
import re
from typing import Any

from th_ext.problems._problem import Problem
from th_ext.validate._pointer import pointer
from th_ext.validate._suggest import allowed_keys_text, closest_name, minimal_schema_value

__all__ = ["problems_for"]

_MESSAGE_LIMIT = 240
_TYPES = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "array": "an array",
    "object": "an object",
    "null": "null",
}


def problems_for(error: Any, base: tuple[str | int, ...], schema_name: str) -> list[Problem]:
    """The problems one jsonschema ``ValidationError`` stands for, at ``base`` + its path."""
    path = (*base, *error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        unexpected = _unexpected_keys(error.schema, error.instance)
        if unexpected:
            allowed = _allowed(error.schema)
            return [
                _problem(
                    (*path, key),
                    f"{key!r} is not a key this object may have",
                    _unknown_key_hint(key, allowed),
                    at_key=True,
                )
                for key in unexpected
            ]
    if error.validator == "required" and isinstance(error.instance, dict):
        key = _missing_key(error)
        if key is not None:
            properties = error.schema.get("properties")
            value = minimal_schema_value(
                properties.get(key) if isinstance(properties, dict) else None
            )
            return [
                _problem(
                    (*path, key),
                    f"the required key {key!r} is missing",
                    f"add {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}",
                )
            ]
    return [_problem(path, _shorten(error.message), _hint(error, schema_name))]


def _hint(error: Any, schema_name: str) -> str:
    fix = _fix(error)
    return f"{fix}, as {schema_name} requires" if fix else f"see what {schema_name} allows here"


def _problem(
    path: tuple[str | int, ...], message: str, hint: str, *, at_key: bool = False
) -> Problem:
    return Problem(
        "error", "schema-violation", pointer(path), message, hint, "extension", at_key=at_key
    )


def _allowed(schema: dict[str, Any]) -> list[str]:
    properties = schema.get("properties")
    return sorted(properties) if isinstance(properties, dict) else []


def _unexpected_keys(schema: dict[str, Any], instance: dict[str, Any]) -> list[str]:
    allowed = set(_allowed(schema))
    patterns = schema.get("patternProperties")
    compiled = [re.compile(p) for p in patterns] if isinstance(patterns, dict) else []
    return [
        key
        for key in instance
        if key not in allowed and not any(pattern.search(key) for pattern in compiled)
    ]


def _unknown_key_hint(key: str, allowed: list[str]) -> str:
    suggestion = closest_name(key, allowed)
    known = allowed_keys_text(allowed)
    if suggestion is not None:
        return f"did you mean {suggestion!r}? {known[0].upper()}{known[1:]}"
    return f"remove it or rename it: {known}"


def _missing_key(error: Any) -> str | None:
    required = error.validator_value if isinstance(error.validator_value, list) else []
    missing = [k for k in required if isinstance(k, str) and k not in error.instance]
    for key in missing:
        if error.message.startswith(repr(key)):
            return key
    return missing[0] if missing else None


def _fix(error: Any) -> str:
    value = error.validator_value
    if error.validator == "type":
        kinds = value if isinstance(value, list) else [value]
        return "make it " + " or ".join(_TYPES.get(str(k), str(k)) for k in kinds)
    if error.validator == "enum" and isinstance(value, list):
        return "use one of " + ", ".join(_shorten(repr(v)) for v in value[:10])
    if error.validator == "pattern":
        return f"use a value that matches {value}"
    if error.validator == "const":
        return f"use {value!r}"
    return ""


def _shorten(message: str) -> str:
    one_line = " ".join(message.split())
    if len(one_line) <= _MESSAGE_LIMIT:
        return one_line
    return one_line[: _MESSAGE_LIMIT - 1] + "…"
