"""``runsOn`` on a commands v1 entry: one ``command-runs-on`` error per entry, naming the
command, placed at the key, with the two ways out; other problems of the entries stay."""

from __future__ import annotations

import json
from typing import Any

from tests.unit.validate.conftest import example_card
from th_ext.validate import validate_bytes

COMMANDS_URI = "https://madarauchiha-314.github.io/tiny-harness/a2a/ext/commands/v1"
BASE = "/capabilities/extensions/0/params/commands"


def checked(commands: Any, *, params: Any = None) -> tuple[bytes, list[Any]]:
    card = example_card()
    given = {"commands": commands} if params is None else params
    card["capabilities"]["extensions"] = [{"uri": COMMANDS_URI, "params": given}]
    text = json.dumps(card, indent=1).encode()
    report = validate_bytes(text, source="card.json")
    return text, [p for p in report.problems if p.layer == "extension"]


def key_position(text: bytes, occurrence: int) -> tuple[int, int]:
    """The line and column (from 1) of the ``occurrence``-th ``"runsOn"`` key in ``text``."""
    at = -1
    for _ in range(occurrence + 1):
        at = text.index(b'"runsOn"', at + 1)
    line = text.count(b"\n", 0, at) + 1
    return line, at - text.rfind(b"\n", 0, at)


def test_each_entry_with_runs_on_is_named_and_placed_at_its_key() -> None:
    text, problems = checked(
        [
            {"name": "push", "description": "d", "runsOn": "surface"},
            {"name": "help", "description": "d"},
            {"name": "pull", "description": "d", "runsOn": "agent"},
        ]
    )
    message = (
        "command {!r} carries runsOn: tiny-harness 0.9 writes runsOn for a command the client "
        "runs itself; commands v1 as published does not allow it"
    )
    assert [(p.severity, p.code, p.path, p.message) for p in problems] == [
        ("error", "command-runs-on", f"{BASE}/0/runsOn", message.format("push")),
        ("error", "command-runs-on", f"{BASE}/2/runsOn", message.format("pull")),
    ]
    assert [(p.line, p.column) for p in problems] == [key_position(text, 0), key_position(text, 1)]
    assert problems[0].hint.startswith(
        "two ways out: leave the commands the client runs itself off a v1 card"
    )
    assert problems[0].hint.endswith("commands/v2 (a draft), whose schema allows runsOn")


def test_other_problems_of_the_entries_are_kept_beside_it() -> None:
    _, problems = checked(
        [
            {"name": "sync", "description": "d", "extra": 1},
            {"name": "push", "description": "d", "runsOn": "surface"},
            {"name": "pull", "description": "d", "extra": 1},
        ]
    )
    assert [(p.code, p.path) for p in problems] == [
        ("schema-violation", f"{BASE}/0/extra"),
        ("command-runs-on", f"{BASE}/1/runsOn"),
        ("schema-violation", f"{BASE}/2/extra"),
    ]
