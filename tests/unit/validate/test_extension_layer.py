"""The extension layer: params against the bundled schema, then the commands rules."""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.validate.conftest import COMMANDS_URI, commands_schema
from th_ext._exceptions import SchemaError
from th_ext.validate import SchemaOverride, ValidateOptions, validate_value

BASE = "/capabilities/extensions/0"


def ext_codes(card: dict[str, Any], **options: Any) -> list[tuple[str, str, str]]:
    report = validate_value(card, options=ValidateOptions(**options))
    return [(p.severity, p.code, p.path) for p in report.problems if p.layer == "extension"]


def commands(card: dict[str, Any]) -> list[dict[str, Any]]:
    value: list[dict[str, Any]] = card["capabilities"]["extensions"][0]["params"]["commands"]
    return value


def test_valid_params_have_no_problems(card: dict[str, Any]) -> None:
    assert ext_codes(card) == []
    report = validate_value(card)
    assert report.extensions[0]["commands"] == ["model", "help", "review"]
    assert report.extensions[0]["extension"] == "commands/v1"


def test_every_schema_error_with_its_path(card: dict[str, Any]) -> None:
    commands(card)[0]["aliases"] = ["m"]
    del commands(card)[1]["description"]
    commands(card)[2]["argument_hint"] = 5
    card["capabilities"]["extensions"][0]["params"]["extra"] = True
    # An unexpected key is reported at the key, a missing one where it belongs.
    assert ext_codes(card) == [
        ("error", "schema-violation", f"{BASE}/params/extra"),
        ("error", "schema-violation", f"{BASE}/params/commands/0/aliases"),
        ("error", "schema-violation", f"{BASE}/params/commands/1/description"),
        ("error", "schema-violation", f"{BASE}/params/commands/2/argument_hint"),
    ]


def test_params_not_an_object_is_left_to_the_card_layer(card: dict[str, Any]) -> None:
    card["capabilities"]["extensions"][0]["params"] = ["model"]
    report = validate_value(card)
    assert [(p.layer, p.code, p.path) for p in report.problems] == [
        ("card", "wrong-type", f"{BASE}/params"),
    ]
    assert report.extensions[0]["valid"] is False


def test_commands_not_a_list(card: dict[str, Any]) -> None:
    card["capabilities"]["extensions"][0]["params"] = {"commands": {"name": "x"}}
    assert ext_codes(card) == [("error", "schema-violation", f"{BASE}/params/commands")]


def test_rules_the_schema_does_not_encode(card: dict[str, Any]) -> None:
    commands(card)[0]["name"] = "Model"
    commands(card)[1]["name"] = "review"
    commands(card)[2]["name"] = "line\nbreak"
    commands(card).append({"name": "review", "description": "again"})
    card["capabilities"]["extensions"][0]["required"] = True
    assert ext_codes(card) == [
        ("warning", "required-extension", f"{BASE}/required"),
        ("error", "command-name-pattern", f"{BASE}/params/commands/0/name"),
        ("error", "command-name-pattern", f"{BASE}/params/commands/2/name"),
        ("error", "duplicate-command", f"{BASE}/params/commands/3/name"),
    ]


def test_names_that_are_not_strings_are_left_to_the_schema(card: dict[str, Any]) -> None:
    commands(card)[0]["name"] = 3
    card["capabilities"]["extensions"][0]["params"]["commands"].append("help")
    found = ext_codes(card)
    assert ("error", "schema-violation", f"{BASE}/params/commands/0/name") in found
    assert ("error", "schema-violation", f"{BASE}/params/commands/3") in found
    assert all(code == "schema-violation" for _, code, _ in found)


def test_params_absent_means_empty(card: dict[str, Any]) -> None:
    del card["capabilities"]["extensions"][0]["params"]
    assert ext_codes(card) == []
    assert validate_value(card).extensions[0]["commands"] == []


def test_duplicate_and_unknown_and_missing(card: dict[str, Any]) -> None:
    card["capabilities"]["extensions"].append({"uri": "urn:other"})
    card["capabilities"]["extensions"].append({"uri": COMMANDS_URI, "params": {"x": 1}})
    assert ext_codes(card) == [
        ("info", "extension-not-checked", "/capabilities/extensions/1/uri"),
        ("error", "duplicate-extension", "/capabilities/extensions/2/uri"),
    ]
    assert ext_codes(card, extensions=("urn:absent",)) == [
        ("info", "extension-not-checked", "/capabilities/extensions/1/uri"),
        ("error", "duplicate-extension", "/capabilities/extensions/2/uri"),
        ("error", "missing-extension", "/capabilities/extensions"),
    ]


def test_no_extensions_at_all(card: dict[str, Any]) -> None:
    del card["capabilities"]["extensions"]
    assert ext_codes(card) == [("info", "no-known-extension", "/capabilities")]
    report = validate_value(card)
    assert report.exit_code == 0
    assert validate_value(card, options=ValidateOptions(strict=True)).exit_code == 0
    message = next(p.message for p in report.problems if p.code == "no-known-extension")
    assert message == (
        "the card declares none of the extensions th-ext checks: only the A2A layers were checked"
    )


def test_schema_override_for_a_draft_uri(card: dict[str, Any]) -> None:
    draft_uri = "https://example.com/ext/commands/v2"
    schema = commands_schema()
    schema["$id"] = draft_uri + "/schema.json"
    schema["$defs"]["CommandSpec"]["properties"]["name"]["maxLength"] = 4
    card["capabilities"]["extensions"][0]["uri"] = draft_uri
    override = SchemaOverride(schema, "draft.json")
    found = ext_codes(card, schema=override)
    assert found == [
        ("error", "schema-violation", f"{BASE}/params/commands/0/name"),
        ("error", "schema-violation", f"{BASE}/params/commands/2/name"),
    ]


def test_override_ref_to_a_bundled_schema_resolves(card: dict[str, Any]) -> None:
    bundled_id = commands_schema()["$id"]
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.com/ext/commands/v2/schema.json",
        "$ref": bundled_id,
        "required": ["commands"],
    }
    override = SchemaOverride(schema, "draft.json")
    assert ext_codes(card, schema=override, extensions=(COMMANDS_URI,)) == []
    del card["capabilities"]["extensions"][0]["params"]["commands"]
    assert ext_codes(card, schema=override, extensions=(COMMANDS_URI,)) == [
        ("error", "schema-violation", f"{BASE}/params/commands"),
    ]


def test_unresolvable_ref_is_a_schema_error_not_a_fetch(card: dict[str, Any]) -> None:
    schema = {"$ref": "https://schemas.example.invalid/other.json"}
    with pytest.raises(SchemaError, match="cannot be resolved"):
        validate_value(card, options=ValidateOptions(schema=SchemaOverride(schema, "s.json")))
