"""One definition of a usable commands entry, and the same words wherever a card is read."""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.validate.conftest import example_card
from th_ext.commands import read_card_commands
from th_ext.commands._entry import (
    NAME_RULE,
    duplicate_message,
    entry_fault,
    is_command_name,
    listed_twice,
    name_mismatch,
    name_requirement,
    repeated_names,
)
from th_ext.validate import validate_value

URI = "https://madarauchiha-314.github.io/tiny-harness/a2a/ext/commands/v1"


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        ("model", True),
        ("m", True),
        ("a1-b", True),
        ("Model", False),
        ("", False),
        ("1model", False),
        ("-model", False),
        ("mo del", False),
        ("model\n", False),
        ("modél", False),
        (None, False),
        (5, False),
    ],
)
def test_is_command_name(value: object, ok: bool) -> None:
    assert is_command_name(value) is ok


def test_the_messages_people_read() -> None:
    assert NAME_RULE == "^[a-z][a-z0-9-]*$"
    assert name_mismatch("Model") == "name 'Model' does not match ^[a-z][a-z0-9-]*$"
    assert name_requirement("Model") == "command name 'Model' must match ^[a-z][a-z0-9-]*$"
    assert duplicate_message("help", 1) == "command 'help' is already registered at index 1"
    assert listed_twice("help") == "'help' is listed twice"


@pytest.mark.parametrize(
    ("raw", "fault"),
    [
        ({"name": "m", "description": "d"}, None),
        ({"name": "m", "description": "d", "argument_hint": "<x>"}, None),
        ("m", "not a JSON object"),
        ({"name": "m", "description": "d", "b": 1, "a": 2}, "unknown field 'a'"),
        ({"description": "d"}, "name is missing or not a string"),
        ({"name": 3, "description": "d"}, "name is missing or not a string"),
        ({"name": "Model", "description": "d"}, "name 'Model' does not match ^[a-z][a-z0-9-]*$"),
        ({"name": "m"}, "'m' has no description"),
        ({"name": "m", "description": 1}, "'m' has no description"),
        (
            {"name": "m", "description": "d", "argument_hint": 1},
            "'m': argument_hint is not a string",
        ),
        (
            {"name": "push", "description": "d", "runsOn": "surface", "z": 1},
            "command 'push' carries runsOn: tiny-harness 0.9 writes runsOn for a command the "
            "client runs itself; commands v1 as published does not allow it",
        ),
    ],
)
def test_entry_fault(raw: Any, fault: str | None) -> None:
    assert entry_fault(raw) == fault


def test_repeated_names_skip_values_that_are_not_names() -> None:
    names: list[object] = ["a", None, 3, "b", "a", None, "b", "a"]
    assert list(repeated_names(names)) == [(4, "a", 0), (6, "b", 3), (7, "a", 0)]


def card_with(commands: list[Any]) -> dict[str, Any]:
    return {
        "capabilities": {
            "extensions": [{"uri": URI, "params": {"commands": commands}}],
        }
    }


def test_the_reader_and_the_validator_share_their_words() -> None:
    commands: list[Any] = [
        {"name": "Model", "description": "d"},
        {"name": "help", "description": "d"},
        {"name": "help", "description": "again"},
    ]
    found = read_card_commands(card_with(commands))
    assert found.problems == (
        "/capabilities/extensions/0/params/commands/0: name 'Model' does not match "
        "^[a-z][a-z0-9-]*$",
        "/capabilities/extensions/0/params/commands/2: 'help' is listed twice",
    )
    report = validate_value(card_with(commands))
    rules = [(p.code, p.path, p.message) for p in report.problems if p.layer == "extension"]
    base = "/capabilities/extensions/0/params/commands"
    assert rules == [
        ("command-name-pattern", f"{base}/0/name", "command " + name_mismatch("Model")),
        ("duplicate-command", f"{base}/2/name", duplicate_message("help", 1)),
    ]


def test_a_name_whose_only_fault_is_its_case() -> None:
    card = example_card()
    card["capabilities"]["extensions"][0]["params"]["commands"][0]["name"] = "Model"
    report = validate_value(card)
    assert [(p.severity, p.code, p.message) for p in report.problems] == [
        ("error", "command-name-pattern", "command name 'Model' does not match ^[a-z][a-z0-9-]*$")
    ]
    assert report.exit_code == 1
