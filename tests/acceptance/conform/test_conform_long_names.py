"""A card whose command names and bindings are thousands of characters long, checked against
the real demo agent: conform's report names them, every line it prints stays short."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from th_ext.cli import app
from th_ext.demo import DemoServer, DemoVariant

pytestmark = pytest.mark.slow

Agent = Callable[[DemoVariant], DemoServer]


def test_every_line_of_the_report_is_short(conform_agent: Agent, tmp_path: Path) -> None:
    agent = conform_agent(DemoVariant.CORRECT)
    card: dict[str, Any] = httpx.get(agent.card_url, timeout=10).json()
    card["name"] = "n" * 50_000
    for entry in card["capabilities"]["extensions"][0]["params"]["commands"]:
        entry["name"] = entry["name"] + "z" * 20_000  # registered nowhere: ordinary messages
    card["supportedInterfaces"].append(
        dict(card["supportedInterfaces"][0], protocolBinding="B" * 20_000)
    )
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card), encoding="utf-8")
    result = CliRunner().invoke(app, ["conform", str(path)], catch_exceptions=False)
    assert result.exit_code == 1, result.stderr  # the commands do not run: CMD-1 fails
    longest = max(result.stdout.splitlines(), key=len)
    assert len(longest) < 600, longest[:300]
    assert "not checked: BBBB" in result.stdout and "commands   ran /model" in result.stdout
