"""The fast schema check at the edges the property tests seldom reach, held to jsonschema.

Every case asserts the fast answer and that it equals jsonschema's ``is_valid``: arrays of
objects whose columns differ, ``$ref`` in its forms, the JSON type table's corners, and the
keywords outside the subset, which must leave the answer to jsonschema.
"""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from th_ext.validate._fastschema import compile_check


def agree(
    schema: Any, instance: Any, expected: bool, resources: dict[str, Any] | None = None
) -> None:
    check = compile_check(schema, resources or {})
    assert check is not None, "the schema is inside the subset"
    registry: Registry[Any] = Registry().with_resources(
        (uri, Resource.from_contents(contents, default_specification=DRAFT202012))
        for uri, contents in (resources or {}).items()
    )
    assert Draft202012Validator(schema, registry=registry).is_valid(instance) is expected
    assert check(instance) is expected


OPEN_ITEM = {
    "type": "object",
    "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
    "required": ["a"],
}
CLOSED_ITEM = {
    "type": "object",
    "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
    "additionalProperties": False,
}


@pytest.mark.parametrize(
    ("items", "expected"),
    [
        ([{"a": "x"}, {"a": "y", "b": 1}], True),
        ([{"a": "x", "b": 1}, {"a": "y", "b": "two"}], False),
        ([{"a": "x", "b": 1}, {"a": 2, "b": 3}], False),
        ([{"a": "x"}, {"b": 1}], False),
        ([{"a": "x", "c": [1]}, {"a": "y", "c": None}], True),
        ([{"a": "x"}, {"a": "y", "b": 2.0}], True),
        ([{"a": "x"}, {"a": "y", "b": 2.5}], False),
        ([{"a": "x"}, {"a": "y", "b": True}], False),
        ([], True),
    ],
)
def test_an_array_of_objects_is_checked_column_by_column(items: list[Any], expected: bool) -> None:
    agree({"type": "array", "items": OPEN_ITEM}, items, expected)


@pytest.mark.parametrize(
    ("items", "expected"),
    [
        ([{"a": "x"}, {"a": "y", "b": "z"}], True),
        ([{"a": "x"}, {"a": 1}], False),
        ([{"a": "x"}, {"a": "y", "c": "z"}], False),
        ([{"a": "x", "b": None}], False),
        ([{}, {}], True),
    ],
)
def test_closed_objects_of_one_value_type_are_checked_in_one_pass(
    items: list[Any], expected: bool
) -> None:
    agree({"type": "array", "items": CLOSED_ITEM}, items, expected)


@pytest.mark.parametrize(
    ("items", "expected"),
    [
        ([{"a": "x"}, {"a": "y", "extra": 1}], True),
        ([{"a": "x"}, {"a": "y", "extra": "no"}], False),
    ],
)
def test_additional_properties_with_a_schema(items: list[Any], expected: bool) -> None:
    item = {"properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "integer"}}
    agree({"type": "array", "items": item}, items, expected)


@pytest.mark.parametrize(
    ("items", "expected"),
    [
        ([[1, 2], [3]], True),
        ([[1, 2], ["3"]], False),
        ([[1], {"a": 1}], False),
        ([1, [2]], False),
    ],
)
def test_arrays_of_arrays(items: list[Any], expected: bool) -> None:
    agree(
        {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}}, items, expected
    )


@pytest.mark.parametrize(
    ("items", "expected"),
    [
        ([{"a": 1}, [1]], True),
        ([{"a": 1}, [1], "x"], False),
        ([{"a": "x"}, [1]], False),
    ],
)
def test_arrays_of_mixed_containers_are_checked_item_by_item(
    items: list[Any], expected: bool
) -> None:
    item = {"type": ["object", "array"], "properties": {"a": {"type": "integer"}}}
    agree({"type": "array", "items": item}, items, expected)
    untyped = {"properties": {"a": {"type": "integer"}}}
    agree({"type": "array", "items": untyped}, [*items, "x", 1], expected or items[-1] == "x")


@pytest.mark.parametrize(
    ("type_name", "value", "expected"),
    [
        ("integer", 1, True),
        ("integer", 1.0, True),
        ("integer", 1.5, False),
        ("integer", True, False),
        ("number", 1, True),
        ("number", 1.5, True),
        ("number", False, False),
        ("string", "", True),
        ("string", b"x".decode(), True),
        ("boolean", False, True),
        ("boolean", 0, False),
        ("null", None, True),
        ("null", 0, False),
        ("object", {}, True),
        ("object", [], False),
        ("array", [], True),
        ("array", {}, False),
        (["integer", "string"], 2.0, True),
        (["integer", "string"], 2.5, False),
        (["number", "integer"], 2.5, True),
    ],
)
def test_the_type_table(type_name: Any, value: Any, expected: bool) -> None:
    agree({"type": type_name}, value, expected)
    agree({"type": "array", "items": {"type": type_name}}, [value, value], expected)


@pytest.mark.parametrize(
    ("values", "expected"),
    [([1, 2.0, 3], True), ([1, 2.5], False), ([1.0, "1"], False), ([True], False)],
)
def test_integral_floats_in_a_column(values: list[Any], expected: bool) -> None:
    agree({"type": "array", "items": {"type": "integer"}}, values, expected)


DEFS = {
    "$defs": {
        "Name": {"type": "string"},
        "a/b": {"type": "integer"},
        "t~n": {"type": "boolean"},
        "Tree": {
            "type": "object",
            "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}},
            "additionalProperties": False,
        },
    }
}


@pytest.mark.parametrize(
    ("ref", "instance", "expected"),
    [
        ("#/$defs/Name", "x", True),
        ("#/$defs/Name", 1, False),
        ("#/$defs/a~1b", 1, True),
        ("#/$defs/a~1b", "1", False),
        ("#/$defs/t~0n", True, True),
        ("#/$defs/t~0n", 1, False),
        ("#/$defs/Tree", {"kids": [{"kids": []}, {}]}, True),
        ("#/$defs/Tree", {"kids": [{"kids": [{"leaf": 1}]}]}, False),
    ],
)
def test_refs_to_json_pointers(ref: str, instance: Any, expected: bool) -> None:
    agree({**DEFS, "$ref": ref}, instance, expected)
    agree({**DEFS, "type": "array", "items": {"$ref": ref}}, [instance], expected)


def test_a_ref_beside_other_keywords_must_hold_too() -> None:
    schema = {**DEFS, "type": "string", "$ref": "#/$defs/Name"}
    agree(schema, "x", True)
    agree({**DEFS, "type": "string", "$ref": "#/$defs/a~1b"}, "x", False)


def test_a_ref_to_another_known_schema() -> None:
    other = {"$id": "https://example.org/other.json", "$defs": {"N": {"type": "integer"}}}
    resources = {"https://example.org/other.json": other}
    schema = {"$id": "https://example.org/main.json", "$ref": "other.json#/$defs/N"}
    agree(schema, 3, True, resources)
    agree(schema, "3", False, resources)
    whole = {"$id": "https://example.org/main.json", "$ref": "https://example.org/other.json"}
    agree(whole, "anything", True, resources)


@pytest.mark.parametrize(
    "schema",
    [
        {"$ref": "#/$defs/Missing", "$defs": {}},
        {"$ref": "#/$defs/list/5", "$defs": {"list": [{}]}},
        {"$ref": "#anchor"},
        {"$ref": 5},
        {"$ref": "https://elsewhere.example/s.json"},
        {"properties": {"a": {"$id": "inner"}}},
        {"type": "integer-ish"},
        {"type": ["string", 5]},
        {"required": "a"},
        {"required": [1]},
        {"properties": ["a"]},
        [],
        "string",
    ],
)
def test_what_is_outside_the_subset_is_left_to_jsonschema(schema: Any) -> None:
    assert compile_check(schema, {}) is None


@pytest.mark.parametrize(
    "keyword",
    [
        "enum",
        "const",
        "minLength",
        "maxLength",
        "pattern",
        "minimum",
        "maximum",
        "multipleOf",
        "minItems",
        "maxItems",
        "uniqueItems",
        "prefixItems",
        "contains",
        "minProperties",
        "patternProperties",
        "propertyNames",
        "dependentRequired",
        "unevaluatedProperties",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "if",
        "$anchor",
        "$dynamicRef",
    ],
)
def test_a_keyword_outside_the_subset_is_never_ignored(keyword: str) -> None:
    assert compile_check({"type": "string", keyword: 1}, {}) is None
    assert compile_check({"type": "array", "items": {keyword: 1}}, {}) is None


@pytest.mark.parametrize(
    ("keyword", "value"),
    [
        ("title", "T"),
        ("description", "D"),
        ("default", 5),
        ("examples", [1]),
        ("$comment", "c"),
        ("deprecated", True),
        ("readOnly", True),
        ("writeOnly", False),
        ("format", "uri"),
        ("$schema", "https://json-schema.org/draft/2020-12/schema"),
        ("$defs", {"x": {}}),
        ("definitions", {"x": {}}),
    ],
)
def test_annotations_are_inside_the_subset_and_change_nothing(keyword: str, value: Any) -> None:
    agree({"type": "string", keyword: value}, "x", True)
    agree({"type": "string", keyword: value}, 1, False)


def test_an_id_on_the_root_is_inside_the_subset() -> None:
    agree({"$id": "https://example.org/s.json", "type": "string"}, "x", True)


@pytest.mark.parametrize(("schema", "expected"), [(True, True), (False, False)])
def test_boolean_schemas(schema: bool, expected: bool) -> None:
    agree(schema, {"a": 1}, expected)
    agree({"type": "array", "items": schema}, [1, {}], expected)
    agree({"type": "array", "items": schema}, [], True)


@pytest.mark.parametrize(
    ("items", "expected"),
    [
        ([{"a": "x", "b": 1}], True),
        ([{"a": "x", "b": "1"}], False),
        ([{"a": 1, "b": 1}], False),
    ],
)
def test_closed_objects_whose_properties_differ_in_type(items: list[Any], expected: bool) -> None:
    item = {
        "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
        "additionalProperties": False,
    }
    agree({"type": "array", "items": item}, items, expected)
    flags = {
        "properties": {"a": {"type": "string"}, "b": {"type": "boolean"}},
        "additionalProperties": False,
    }
    flagged = [{**i, "b": i["b"] == 1} if isinstance(i["b"], int) else i for i in items]
    agree({"type": "array", "items": flags}, flagged, expected)


@pytest.mark.parametrize(
    ("items", "expected"),
    [
        ([{"a": "x", "b": 1}, {"a": "y", "c": [None]}], True),
        ([{"a": 1, "b": 1}], False),
    ],
)
def test_open_objects_allow_any_other_key(items: list[Any], expected: bool) -> None:
    item = {"properties": {"a": {"type": "string"}}, "additionalProperties": True}
    agree({"type": "array", "items": item}, items, expected)


@pytest.mark.parametrize(("type_name", "value"), [("string", 1.0), ("null", 2.0), ("boolean", 0.0)])
def test_an_integral_float_is_no_other_type(type_name: str, value: float) -> None:
    agree({"type": type_name}, value, False)
    agree({"type": "array", "items": {"type": type_name}}, [value], False)


def test_two_refs_are_two_schemas() -> None:
    item = {"properties": {"a": {"$ref": "#/$defs/Name"}, "b": {"$ref": "#/$defs/a~1b"}}}
    agree({**DEFS, **item}, {"a": "x", "b": 1}, True)
    agree({**DEFS, **item}, {"a": "x", "b": "1"}, False)
    array = {**DEFS, "type": "array", "items": item}
    agree(array, [{"a": "x", "b": 1}, {"b": 2}], True)
    agree(array, [{"a": "x", "b": 1}, {"b": "2"}], False)


def test_refs_hold_beside_a_closed_object_of_one_value_type() -> None:
    schema = {
        "$defs": {"NeedsA": {"required": ["a"]}},
        "type": "array",
        "items": {
            "properties": {"a": {"type": "string"}},
            "additionalProperties": False,
            "$ref": "#/$defs/NeedsA",
        },
    }
    agree(schema, [{"a": "x"}], True)
    agree(schema, [{"a": "x"}, {}], False)


def test_refs_hold_on_arrays_of_arrays_and_of_scalars() -> None:
    defs = {"Ints": {"items": {"type": "integer"}}, "Name": {"type": "string"}}
    nested = {"$defs": defs, "type": "array", "items": {"type": "array", "$ref": "#/$defs/Ints"}}
    agree(nested, [[1], [2, 3]], True)
    agree(nested, [[1], ["x"]], False)
    both = {
        "$defs": defs,
        "type": "array",
        "items": {
            "type": "array",
            "items": {"type": ["integer", "string"]},
            "$ref": "#/$defs/Ints",
        },
    }
    agree(both, [[1], [2, 3]], True)
    agree(both, [[1], ["x"]], False)
    agree(both, [[1], [None]], False)
    flat = {"$defs": defs, "type": "array", "items": {"$ref": "#/$defs/Name"}}
    agree(flat, ["a", "b"], True)
    agree(flat, ["a", 2], False)


def test_refs_resolve_against_the_root_id_everywhere() -> None:
    root = "https://example.org/s.json"
    for schema_id in (root, root + "#"):
        schema = {
            "$id": schema_id,
            "$defs": {"N": {"type": "integer"}},
            "additionalProperties": {"$ref": "#/$defs/N"},
        }
        agree(schema, {"a": 1}, True)
        agree(schema, {"a": "1"}, False)


@pytest.mark.parametrize(
    ("items", "expected"),
    [([1, [2]], True), ([1, ["x"]], False), ([1, 2], True), (["x"], False)],
)
def test_an_item_that_may_be_an_array_or_a_scalar(items: list[Any], expected: bool) -> None:
    item = {"type": ["array", "integer"], "items": {"type": "integer"}}
    agree({"type": "array", "items": item}, items, expected)
