"""Cards and keys for the signature tests (keys are generated per test session)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from tests.support.signing import SigningKey, make_key

EXAMPLE = Path(__file__).resolve().parents[3] / "extensions/commands/v1/examples/card.json"


def example_card() -> dict[str, Any]:
    """The commands example card: its params hold ``"argument_hint": ""``."""
    card: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return card


def agreeing_card() -> dict[str, Any]:
    """The example card without its empty values: both canonical forms are one."""
    card = example_card()
    for command in card["capabilities"]["extensions"][0]["params"]["commands"]:
        if command.get("argument_hint") == "":
            del command["argument_hint"]
    return card


@cache
def key(alg: str = "ES256", kid: str = "key-1") -> SigningKey:
    return make_key(alg, kid)
