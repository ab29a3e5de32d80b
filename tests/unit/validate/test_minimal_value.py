"""``minimal_schema_value``: the small value a hint proposes for a missing key, keyword by
keyword, and always one the schema accepts."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from th_ext.validate._schema import minimal_schema_value

ROOT = {
    "$defs": {
        "name": {"type": "string", "minLength": 1},
        "deep": {"$ref": "#/$defs/deep"},
    }
}


@pytest.mark.parametrize(
    ("schema", "value"),
    [
        ({"type": "string", "default": "fast"}, "fast"),
        ({"type": "boolean", "default": True}, True),
        ({"type": "string", "examples": ["model", "help"]}, "model"),
        ({"type": "string", "examples": []}, "…"),
        ({"const": "v1"}, "v1"),
        ({"enum": ["b", "a"]}, "b"),
        ({"type": "string", "enum": []}, "…"),
        ({"type": "string"}, "…"),
        ({"type": "integer"}, 0),
        ({"type": "number"}, 0),
        ({"type": "boolean"}, False),
        ({"type": "null"}, None),
        ({"type": "array", "items": {"type": "string"}}, []),
        ({"type": "array", "items": {"type": "string"}, "minItems": 1}, ["…"]),
        ({"type": "array", "minItems": 1}, []),
        (
            {
                "type": "object",
                "properties": {"a": {"type": "integer"}, "b": {"type": "string"}},
                "required": ["b", 7],
            },
            {"b": "…"},
        ),
        ({"properties": {"a": {"type": "boolean"}}, "required": ["a"]}, {"a": False}),
        ({"type": "object", "properties": [], "required": "a"}, {}),
        (
            {
                "properties": {"text": {"type": "string"}, "uri": {"const": "x"}},
                "oneOf": [{"required": ["uri"]}, {"required": ["text"]}],
            },
            {"uri": "x"},
        ),
        ({"oneOf": [{}]}, {None: None}),
        ({"oneOf": ["not a schema"], "type": "integer"}, 0),
        ({"$ref": "#/$defs/name"}, "…"),
        ({"$ref": "#/$defs/missing"}, None),
        ({"$ref": "https://elsewhere.example/schema.json"}, None),
        ({"$ref": "#/$defs/name", "default": "kept"}, "kept"),
        ("not a schema", None),
    ],
)
def test_each_keyword_proposes_its_value(schema: Any, value: Any) -> None:
    assert minimal_schema_value(schema, ROOT) == value


def test_a_ref_with_no_root_to_follow_proposes_nothing() -> None:
    assert minimal_schema_value({"$ref": "#/$defs/name"}) is None


def test_a_schema_that_refers_to_itself_stops() -> None:
    assert minimal_schema_value({"$ref": "#/$defs/deep"}, ROOT) is None


def test_nesting_stops_at_the_depth_limit() -> None:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(9):
        schema = {"type": "object", "properties": {"a": schema}, "required": ["a"]}
    value = minimal_schema_value(schema, ROOT)
    depth = 0
    while isinstance(value, dict):
        value, depth = value["a"], depth + 1
    assert (depth, value) == (9, None)
    schema = schema["properties"]["a"]
    assert minimal_schema_value(schema, ROOT) == {
        "a": {"a": {"a": {"a": {"a": {"a": {"a": {"a": "…"}}}}}}}
    }


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "properties": {"n": {"$ref": "#/$defs/name"}}, "required": ["n"]},
        {"type": "array", "items": {"enum": [3, 4]}, "minItems": 1},
        {"properties": {"a": {"type": "boolean"}}, "oneOf": [{"required": ["a"]}]},
    ],
)
def test_what_it_proposes_passes_the_schema(schema: dict[str, Any]) -> None:
    value = minimal_schema_value(schema, ROOT)
    assert list(Draft202012Validator({**schema, **ROOT}).iter_errors(value)) == []
