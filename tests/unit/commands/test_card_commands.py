"""Reading the extension off a card: declared or not, the usable commands, and the problems."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from th_ext.commands import COMMANDS_V1_URI, read_card_commands


@pytest.fixture
def card(extensions_dir: Path) -> dict[str, Any]:
    value: dict[str, Any] = json.loads(
        (extensions_dir / "commands/v1/examples/card.json").read_text()
    )
    return value


def with_params(card: dict[str, Any], params: Any) -> dict[str, Any]:
    changed = copy.deepcopy(card)
    changed["capabilities"]["extensions"][0]["params"] = params
    return changed


def test_the_example_card_lists_three_commands_in_order(card: dict[str, Any]) -> None:
    found = read_card_commands(card)
    assert found.declared and not found.required and found.problems == ()
    assert found.names == ["model", "help", "review"]
    assert found.commands[0].argument_hint == "[<model>]"


def test_a_card_without_the_extension(card: dict[str, Any]) -> None:
    card["capabilities"]["extensions"][0]["uri"] = COMMANDS_V1_URI + "x"
    assert read_card_commands(card).declared is False
    assert read_card_commands({"capabilities": {}}).declared is False
    assert read_card_commands([]).declared is False


def test_missing_params_and_missing_required_mean_the_defaults(card: dict[str, Any]) -> None:
    entry = card["capabilities"]["extensions"][0]
    del entry["params"], entry["required"]
    found = read_card_commands(card)
    assert found.declared and not found.required and found.commands == () and found.problems == ()


@pytest.mark.parametrize(
    ("params", "problem"),
    [
        ([], "params is not a JSON object"),
        ({"commands": {}}, "params.commands is not a list"),
        ({"commands": [], "extra": 1}, "unknown field 'extra'"),
        ({"commands": [{"name": "model"}]}, "'model' has no description"),
        ({"commands": [{"name": "Model", "description": "d"}]}, "does not match"),
        (
            {"commands": [{"name": "m", "description": "d", "aliases": []}]},
            "unknown field 'aliases'",
        ),
        ({"commands": [{"description": "d"}]}, "name is missing"),
        ({"commands": ["model"]}, "not a JSON object"),
        ({"commands": [{"name": "m", "description": "d", "argument_hint": 1}]}, "argument_hint"),
        (
            {"commands": [{"name": "m", "description": "d"}, {"name": "m", "description": "e"}]},
            "listed twice",
        ),
    ],
)
def test_unusable_params_are_named(card: dict[str, Any], params: Any, problem: str) -> None:
    found = read_card_commands(with_params(card, params))
    assert found.declared
    assert any(problem in text for text in found.problems), found.problems


def test_good_entries_survive_a_bad_one(card: dict[str, Any]) -> None:
    params = {
        "commands": [{"name": "Bad", "description": "d"}, {"name": "good", "description": "d"}]
    }
    found = read_card_commands(with_params(card, params))
    assert found.names == ["good"]
    assert found.problems == (
        "/capabilities/extensions/0/params/commands/0: name 'Bad' does not match ^[a-z][a-z0-9-]*$",
    )
