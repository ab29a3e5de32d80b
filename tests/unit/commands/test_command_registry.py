"""The registry: names in the pattern, each once, in order; its params match the schema."""

from __future__ import annotations

import json

import jsonschema
import pytest

from th_ext import CommandRegistrationError, find
from th_ext.catalog._reader import schema_bytes
from th_ext.commands import COMMANDS_V1_URI, CommandRegistry


def published_schema() -> dict[str, object]:
    schema: dict[str, object] = json.loads(schema_bytes(find("commands/v1")))
    return schema


@pytest.mark.parametrize("name", ["model", "help", "a", "set-model", "x1", "a-b-c", "z9-"])
def test_names_in_the_pattern_register(name: str) -> None:
    registry = CommandRegistry()
    spec = registry.register(name, "Does a thing")
    assert spec.name == name
    assert name in registry
    assert registry.get(name) == spec


@pytest.mark.parametrize(
    "name",
    ["", "Model", "1model", "-model", "mo del", "model:x", "/model", "modél", "model\n", "_x"],
)
def test_names_outside_the_pattern_are_refused(name: str) -> None:
    registry = CommandRegistry()
    with pytest.raises(CommandRegistrationError, match=r"must match \^\[a-z\]"):
        registry.register(name, "Does a thing")
    assert len(registry) == 0


def test_a_taken_name_is_refused_and_the_first_registration_kept() -> None:
    registry = CommandRegistry()
    registry.register("model", "First")
    with pytest.raises(CommandRegistrationError, match="'model' is already registered"):
        registry.register("model", "Second")
    assert registry.get("model") is not None
    assert registry.get("model").description == "First"  # type: ignore[union-attr]
    assert len(registry) == 1


def test_a_description_is_required() -> None:
    with pytest.raises(CommandRegistrationError, match="needs a description"):
        CommandRegistry().register("model", "  ")


def test_registration_order_is_kept_everywhere() -> None:
    registry = CommandRegistry()
    for name in ["zeta", "alpha", "mid"]:
        registry.register(name, f"The {name} command")
    assert registry.names == ("zeta", "alpha", "mid")
    assert [spec.name for spec in registry] == ["zeta", "alpha", "mid"]
    assert [c["name"] for c in registry.card_params()["commands"]] == ["zeta", "alpha", "mid"]


def test_card_params_validate_against_the_published_schema() -> None:
    registry = CommandRegistry()
    registry.register("model", "Show or choose this task's model", "[<model>]")
    registry.register("help", "List the commands")
    params = registry.card_params()
    jsonschema.validate(params, published_schema())
    assert params == {
        "commands": [
            {
                "name": "model",
                "description": "Show or choose this task's model",
                "argument_hint": "[<model>]",
            },
            {"name": "help", "description": "List the commands", "argument_hint": ""},
        ]
    }


def test_an_empty_registry_gives_valid_empty_params() -> None:
    params = CommandRegistry().card_params()
    jsonschema.validate(params, published_schema())
    assert params == {"commands": []}


def test_the_card_extension_entry_matches_the_example_shape(extensions_dir: object) -> None:
    from pathlib import Path

    registry = CommandRegistry()
    registry.register("model", "Show or choose this task's model", "[<model>]")
    entry = registry.card_extension("Slash commands run on the harness.")
    example = json.loads(
        (Path(str(extensions_dir)) / "commands/v1/examples/card-extension-entry.json").read_text()
    )
    assert entry["uri"] == COMMANDS_V1_URI == example["uri"]
    assert entry["required"] is False
    assert entry["params"] == example["params"]
    jsonschema.validate(entry["params"], published_schema())


def test_the_light_uri_constant_is_the_models_uri() -> None:
    from th_ext.commands._entry import EXTENSION_URI
    from th_ext.commands._registry import COMMANDS_V1_URI as FROM_MODELS

    assert EXTENSION_URI == FROM_MODELS == COMMANDS_V1_URI == find("commands/v1").uri


def test_every_public_name_resolves() -> None:
    import th_ext.commands as package

    for name in package.__all__:
        assert getattr(package, name) is not None, name
    with pytest.raises(AttributeError):
        _ = package.NoSuchName
