"""Property tests: the validator returns a report for any input, and its fast schema check
always agrees with jsonschema."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tests.support.pair_trees import duplicate_key_pointers, pair_text
from tests.unit.validate.conftest import COMMANDS_URI, commands_schema, example_card
from th_ext.validate import Report, ValidateOptions, validate_bytes, validate_value
from th_ext.validate._fastschema import compile_check

scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12)
json_values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=40,
)
keys = st.sampled_from(["name", "description", "argument_hint", "uri", "params", "x", "commands"])
near_values = st.recursive(
    scalars | st.sampled_from(["model", "Model", "a-b", "", "1x"]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(keys, children, max_size=4),
    max_leaves=30,
)
SETTINGS = settings(max_examples=300)


def check_report(report: Report) -> None:
    assert isinstance(report, Report)
    assert report.exit_code in (0, 1, 2)
    json.dumps(report.to_dict())
    for problem in report.problems:
        assert problem.path == "" or problem.path.startswith("/")
        assert problem.severity in ("error", "warning", "info")
        if problem.severity == "info":
            assert not report.fails(problem)


@SETTINGS
@given(json_values)
def test_any_json_value_gives_a_report(value: Any) -> None:
    check_report(validate_value(value, options=ValidateOptions(strict=True)))


@SETTINGS
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["", "capabilities", "skills", "supportedInterfaces"]), near_values
        ),
        max_size=4,
    )
)
def test_card_with_arbitrary_parts_gives_a_report(changes: list[tuple[str, Any]]) -> None:
    card = example_card()
    for key, value in sorted(changes, key=lambda change: bool(change[0])):
        if key:
            card[key] = value
        else:
            card["capabilities"]["extensions"][0]["params"] = value
    check_report(validate_value(card))


@SETTINGS
@given(near_values)
def test_arbitrary_params_give_a_report(params: Any) -> None:
    card = example_card()
    card["capabilities"]["extensions"] = [{"uri": COMMANDS_URI, "params": params}]
    check_report(validate_value(card))


@SETTINGS
@given(st.binary(max_size=200) | json_values.map(lambda v: json.dumps(v).encode()))
def test_any_bytes_give_a_report(data: bytes) -> None:
    check_report(validate_bytes(data, source="prop"))


COMMANDS_VALIDATOR = Draft202012Validator(commands_schema())
FAST_COMMANDS = compile_check(commands_schema(), {})


@SETTINGS
@given(near_values | st.dictionaries(st.just("commands"), near_values))
def test_fast_check_agrees_with_jsonschema_on_commands_params(instance: Any) -> None:
    assert FAST_COMMANDS is not None
    assert FAST_COMMANDS(instance) == COMMANDS_VALIDATOR.is_valid(instance)


type_names = st.sampled_from(["object", "array", "string", "integer", "number", "boolean", "null"])
schemas = st.recursive(
    st.booleans()
    | st.fixed_dictionaries(
        {}, optional={"type": type_names | st.lists(type_names, min_size=1, max_size=3)}
    ),
    lambda children: st.fixed_dictionaries(
        {},
        optional={
            "type": type_names,
            "properties": st.dictionaries(keys, children, max_size=3),
            "required": st.lists(keys, max_size=3, unique=True),
            "additionalProperties": children,
            "items": children,
            "title": st.text(max_size=5),
        },
    ),
    max_leaves=12,
)


@SETTINGS
@given(schemas, near_values)
def test_fast_check_agrees_with_jsonschema_on_any_subset_schema(schema: Any, instance: Any) -> None:
    check = compile_check(schema, {})
    assert check is not None
    assert check(instance) == Draft202012Validator(schema).is_valid(instance)


@SETTINGS
@given(st.lists(near_values, max_size=8), schemas)
def test_fast_check_on_arrays_agrees(items: list[Any], item_schema: Any) -> None:
    schema = {"type": "array", "items": item_schema}
    check = compile_check(schema, {})
    assert check is not None
    assert check(items) == Draft202012Validator(schema).is_valid(items)


def test_schemas_outside_the_subset_are_left_to_jsonschema() -> None:
    assert compile_check({"type": "string", "minLength": 2}, {}) is None
    assert compile_check({"$ref": "#anchor"}, {}) is None
    assert compile_check({"properties": {"a": {"$id": "inner"}}}, {}) is None
    assert compile_check({"$ref": "https://elsewhere.example/s.json"}, {}) is None


pair_keys = st.sampled_from(["a", "b", "a:b", ":", "\\u003a", 'k\\"', "x"])


pair_trees = st.recursive(
    scalars.filter(lambda v: not isinstance(v, float)) | st.sampled_from(["a:b", "::", "\\u003a"]),
    lambda children: (
        st.lists(children, max_size=3)
        | st.lists(st.tuples(pair_keys, children), max_size=4).map(lambda pairs: (pairs,))
    ),
    max_leaves=20,
)


@SETTINGS
@given(pair_trees)
def test_duplicate_keys_are_found_exactly_when_present(tree: Any) -> None:
    from th_ext.validate import parse_document

    found = [
        p.path
        for p in parse_document(pair_text(tree).encode()).problems
        if p.code == "duplicate-key"
    ]
    assert found == duplicate_key_pointers(tree)
