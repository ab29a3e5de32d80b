"""``th-ext conform --db``: each agent's outcome recorded, with the category its failure
belongs to, and ``th-ext history`` reading it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from th_ext.cli import app
from th_ext.demo import DemoServer, DemoVariant
from th_ext.history import HistoryStore

pytestmark = pytest.mark.slow

Agent = Callable[[DemoVariant], DemoServer]


def test_conform_records_each_agent_with_its_category(conform_agent: Agent, tmp_path: Path) -> None:
    good = conform_agent(DemoVariant.CORRECT).base_url
    broken = conform_agent(DemoVariant.CHANGED_STATE).base_url
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps({"name": "x", "supportedInterfaces": [], "capabilities": {}}))
    listed = tmp_path / "agents.txt"
    listed.write_text(f"{good}\n{broken}\n{plain}\n")
    store = tmp_path / "h.db"
    args = ["conform", "--from", str(listed), "-f", "jsonl", "--db", str(store)]
    options = ["--max-commands", "1", "--binding", "jsonrpc"]
    done = CliRunner().invoke(app, [*args, *options], catch_exceptions=False)
    assert done.exit_code == 2, done.stderr
    with HistoryStore.open(store, write=False) as opened:
        (run,) = opened.runs()
        outcomes = opened.outcomes(run.id)
    assert (run.command, run.status, run.total, run.passed) == ("conform", "complete", 3, 1)
    assert run.options["binding"] == ["jsonrpc"] and run.options["max_commands"] == 1
    assert outcomes[good].category == "passed"
    assert outcomes[broken].category == "conformance"
    assert outcomes[broken].problems.get("CMD-5") == 1
    assert outcomes[str(plain)].category == "card-invalid"
    assert outcomes[str(plain)].problems == {"conform": 1}
    shown = CliRunner().invoke(app, ["history", str(store), "--format", "json"])
    assert shown.exit_code == 0  # the first run: nothing is new
    failing = {c["source"] for c in json.loads(shown.stdout)["still_failing"]}
    assert failing == {broken, str(plain)}
