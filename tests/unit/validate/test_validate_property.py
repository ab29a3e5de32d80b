"""Property tests: the validator returns a report for any input, and the schema validator (whose
pattern keywords match with a timeout) gives exactly jsonschema's errors."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tests.unit.validate.conftest import COMMANDS_URI, example_card
from th_ext.validate import Report, ValidateOptions, validate_bytes, validate_value
from th_ext.validate._schema import safe_validator

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


type_names = st.sampled_from(["object", "array", "string", "integer", "number", "boolean", "null"])
schemas = st.recursive(
    st.booleans()
    | st.fixed_dictionaries(
        {},
        optional={"type": type_names | st.lists(type_names, min_size=1, max_size=3, unique=True)},
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
            "pattern": st.sampled_from(["^m", "a-b", "^[a-z]+$", "x|^$"]),
            "patternProperties": st.dictionaries(
                st.sampled_from(["^n", "e$", "x", "^(a|b)"]), children, max_size=2
            ),
        },
    ),
    max_leaves=12,
)


def _errors(validator: Any, instance: Any) -> list[tuple[list[Any], str, str]]:
    found = [
        (list(e.absolute_path), e.validator, e.message) for e in validator.iter_errors(instance)
    ]
    return sorted(found, key=repr)


@SETTINGS
@given(schemas, near_values)
def test_the_schema_validator_gives_jsonschema_s_errors(schema: Any, instance: Any) -> None:
    ours = safe_validator(schema, {})
    assert _errors(ours, instance) == _errors(Draft202012Validator(schema), instance)
