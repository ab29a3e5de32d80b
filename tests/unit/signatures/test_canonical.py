"""Section 8.4.1's canonical form (presence rules, Struct contents, JCS) and a2a-sdk's."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from th_ext.signatures import (
    MAX_DEPTH,
    CanonicalFormError,
    canonical_bytes,
    canonical_form,
    empty_values,
    first_difference,
    sdk_form,
)

SPEC_EXAMPLE = {
    "name": "Example Agent",
    "description": "",
    "capabilities": {"streaming": False, "pushNotifications": False, "extensions": []},
    "skills": [],
}


def spec(card: dict[str, Any]) -> bytes:
    return canonical_bytes(canonical_form(card))


def test_the_specifications_own_example_gives_its_canonical_output() -> None:
    assert spec(SPEC_EXAMPLE) == (
        b'{"capabilities":{"pushNotifications":false,"streaming":false},'
        b'"description":"","name":"Example Agent","skills":[]}'
    )


def test_a_required_field_is_kept_even_when_empty() -> None:
    form = canonical_form({"name": "", "skills": [], "defaultInputModes": []})
    assert form == {"name": "", "skills": [], "defaultInputModes": []}


def test_an_optional_field_set_at_its_default_is_kept_and_an_unset_one_stays_absent() -> None:
    form = canonical_form({"capabilities": {"extendedAgentCard": False}})
    assert form == {"capabilities": {"extendedAgentCard": False}}
    assert "streaming" not in form["capabilities"]


def test_a_plain_field_at_its_default_is_dropped() -> None:
    card = {
        "supportedInterfaces": [{"url": "u", "tenant": ""}],
        "capabilities": {
            "extensions": [{"uri": "x", "required": False, "description": ""}],
        },
        "securitySchemes": {},
        "securityRequirements": [],
    }
    assert canonical_form(card) == {
        "supportedInterfaces": [{"url": "u"}],
        "capabilities": {"extensions": [{"uri": "x"}]},
    }


def test_a_set_message_is_kept_even_when_empty_and_null_is_not_set() -> None:
    assert canonical_form({"provider": {}, "iconUrl": None}) == {"provider": {}}


def test_struct_contents_are_kept_as_written() -> None:
    params: dict[str, Any] = {"a": "", "b": [], "c": {}, "d": None, "e": False, "f": 0}
    card = {"capabilities": {"extensions": [{"uri": "x", "params": params}]}}
    assert canonical_form(card)["capabilities"]["extensions"][0]["params"] == params


def test_signatures_are_removed_and_the_card_is_not_changed() -> None:
    card = {"name": "n", "signatures": [{"protected": "p", "signature": "s"}]}
    before = copy.deepcopy(card)
    assert canonical_form(card) == {"name": "n"}
    assert card == before


def test_a_member_the_proto_does_not_know_is_kept_by_the_spec_form_only() -> None:
    card = {"name": "n", "x-extra": ""}
    assert canonical_form(card) == {"name": "n", "x-extra": ""}
    assert sdk_form(card) == {"name": "n"}


def test_the_sdk_form_drops_every_empty_value_at_any_depth() -> None:
    card = {
        "name": "n",
        "description": "",
        "skills": [],
        "capabilities": {
            "streaming": False,
            "extensions": [{"uri": "x", "params": {"hint": "", "list": [""], "n": None}}],
        },
    }
    assert sdk_form(card) == {
        "name": "n",
        "capabilities": {"streaming": False, "extensions": [{"uri": "x"}]},
    }
    assert empty_values(card) == [
        "/description",
        "/skills",
        "/capabilities/extensions/0/params",
    ]


def test_the_first_difference_names_a_pointer() -> None:
    card = {"name": "n", "capabilities": {"extensions": [{"uri": "x", "params": {"a/b": ""}}]}}
    where = first_difference(canonical_form(card), sdk_form(card))
    assert where == "/capabilities/extensions/0/params"
    assert first_difference({"a": [1, {"b~": 1}]}, {"a": [1, {"b~": 2}]}) == "/a/1/b~0"
    assert first_difference({"a": 1}, {"a": 1.0}, numbers_by_value=True) is None
    assert first_difference({"a": 1}, {"a": 1.0}) == "/a"
    assert first_difference({"a": True}, {"a": 1}, numbers_by_value=True) == "/a"
    assert first_difference([1], [1, 2]) == "/1"


def test_jcs_orders_keys_by_utf16_code_units_and_writes_numbers_as_ecmascript() -> None:
    card = {
        "name": "n",
        "capabilities": {
            "extensions": [{"uri": "x", "params": {"\U0001f600": 1, "\uff61": 1e21, "a": 1.0}}]
        },
    }
    text = spec(card).decode()
    assert text.index("\U0001f600") < text.index("\uff61")
    assert '"a":1' in text and "1e+21" in text


def test_a_card_nested_too_deep_has_no_canonical_form() -> None:
    deep: Any = "x"
    for _ in range(MAX_DEPTH + 5):
        deep = [deep]
    card = {"capabilities": {"extensions": [{"uri": "x", "params": {"d": deep}}]}}
    with pytest.raises(CanonicalFormError, match="deeper"):
        spec(card)


def test_an_integer_beyond_two_to_the_53_has_no_canonical_form() -> None:
    card = {"capabilities": {"extensions": [{"uri": "x", "params": {"n": 2**60}}]}}
    with pytest.raises(CanonicalFormError, match="RFC 8785"):
        spec(card)
