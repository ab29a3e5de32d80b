"""The card schema's compiled validator: made once for a set of extension schemas and reused,
checked against the metaschema when a schema is not bundled, and bounded in what it keeps."""

from __future__ import annotations

import time
from typing import Any

import pytest

from th_ext._deadline import Deadline
from th_ext._exceptions import DeadlineError, SchemaError
from th_ext.validate._card import _CACHED_VALIDATORS, _validators, card_validator, check_card
from th_ext.validate._limits import MAX_PER_LAYER
from th_ext.validate._schema import ParamsSchema, reading_errors, safe_validator

from .conftest import COMMANDS_URI, example_card

URL = "https://schemas.example/params.json"


def params(schema: dict[str, Any], *, bundled: bool = False) -> dict[str, ParamsSchema]:
    return {COMMANDS_URI: ParamsSchema(schema, URL, "the example params", bundled)}


def with_params(value: Any) -> dict[str, Any]:
    card = example_card()
    card["capabilities"]["extensions"][0]["params"] = value
    return card


def test_one_set_of_schemas_is_compiled_once() -> None:
    schema = {"type": "object"}
    first = card_validator(params(schema))
    assert card_validator(params(schema)) is first
    assert first.schema["$id"].endswith("/agent-card/v1/schema.json")
    assert first.names == {COMMANDS_URI: "the example params"}


def test_another_schema_at_the_same_url_gets_a_validator_of_its_own() -> None:
    strings = card_validator(params({"type": "object", "additionalProperties": False}))
    anything = card_validator(params({"type": "object"}))
    card = with_params({"extra": 1})
    assert [p.code for p in check_card(card, anything)[1].get(0, [])] == []
    assert [p.path for p in check_card(card, strings)[1][0]] == [
        "/capabilities/extensions/0/params/extra"
    ]


def test_a_schema_not_bundled_is_checked_against_the_metaschema() -> None:
    with pytest.raises(SchemaError, match="the example params"):
        card_validator(params({"type": 5}))


def test_a_bundled_schema_is_taken_as_published() -> None:
    assert card_validator(params({"type": 5, "title": "bundled"}, bundled=True)).validator


def test_the_compiled_validators_kept_are_bounded() -> None:
    for index in range(_CACHED_VALIDATORS + 5):
        card_validator(params({"type": "object", "title": f"schema {index}"}))
    assert len(_validators) == _CACHED_VALIDATORS


def test_problems_inside_params_name_the_extension_s_schema() -> None:
    schema = card_validator(params({"type": "object", "properties": {"a": {"type": "string"}}}))
    (problem,) = check_card(with_params({"a": 1}), schema)[1][0]
    assert problem.hint == "make it a string, as the example params requires"


def test_a_ref_the_card_schema_cannot_follow_names_the_card_schema() -> None:
    schema = card_validator(params({"$ref": "https://elsewhere.example/x.json"}, bundled=True))
    with pytest.raises(SchemaError, match=r"^the card schema: \$ref"):
        check_card(with_params({}), schema)


def test_reading_stops_after_the_layer_s_limit() -> None:
    card = example_card()
    card["skills"] = [{"id": 1} for _ in range(MAX_PER_LAYER + 5)]
    problems, _ = check_card(card, card_validator({}))
    assert len(problems) <= MAX_PER_LAYER + 1
    assert problems[-1].code == "too-many-problems"


def test_of_two_problems_at_one_path_the_one_that_says_more_is_kept() -> None:
    card = example_card()
    card["skills"][0]["tags"] = ""  # a wrong type, not an empty string
    (problem,) = check_card(card, card_validator({}))[0]
    assert (problem.code, problem.path) == ("wrong-type", "/skills/0/tags")


@pytest.mark.parametrize(
    ("schema", "instance"),
    [
        ({"properties": {"a": {"type": "integer"}}}, {"a": 1}),
        ({"items": {"type": "integer"}}, [1, 2]),
        ({"prefixItems": [{"type": "integer"}]}, [1]),
        ({"additionalProperties": {"type": "integer"}}, {"a": 1}),
    ],
)
def test_each_keyword_that_descends_keeps_the_deadline(schema: Any, instance: Any) -> None:
    """A large value with no error and no pattern still stops when the deadline passes."""
    validator = safe_validator(schema, {})
    assert list(validator.iter_errors(instance)) == []
    passed = Deadline(time.monotonic() - 1, "the card took too long")
    with (
        pytest.raises(DeadlineError, match="the card took too long"),
        reading_errors("the schema", passed),
    ):
        list(validator.iter_errors(instance))
