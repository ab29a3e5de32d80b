"""Cards for the validator's unit tests: the bundled example, copied fresh for each test."""

from __future__ import annotations

import json
from typing import Any

import pytest

from th_ext.catalog._records import bundled_extensions_dir

COMMANDS_URI = "https://madarauchiha-314.github.io/tiny-harness/a2a/ext/commands/v1"


def example_card() -> dict[str, Any]:
    path = bundled_extensions_dir() / "commands" / "v1" / "examples" / "card.json"
    card: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return card


def commands_schema() -> dict[str, Any]:
    path = bundled_extensions_dir() / "commands" / "v1" / "schema.json"
    schema: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return schema


@pytest.fixture
def card() -> dict[str, Any]:
    return example_card()
