"""``th-ext conform`` over several agents: real demo agents, one event loop, JSON Lines."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from tests.support.card_origins import Origin, serve_origins
from tests.support.terminal import run_in_terminal
from th_ext.batch import check_agents
from th_ext.batch._fetch import PoliteTransport
from th_ext.batch._origins import OriginLimiter
from th_ext.cli import app
from th_ext.conform import ConformOptions, run_conform
from th_ext.demo import DemoServer, DemoVariant

pytestmark = pytest.mark.slow

Agent = Callable[[DemoVariant], DemoServer]


def conform(*args: str) -> tuple[int, str, str]:
    outcome = CliRunner().invoke(app, ["conform", *args], catch_exceptions=False)
    return outcome.exit_code, outcome.stdout, outcome.stderr


@pytest.fixture
def no_extension(tmp_path: Path) -> Path:
    card = tmp_path / "plain.json"
    card.write_text(json.dumps({"name": "x", "supportedInterfaces": [], "capabilities": {}}))
    return card


def test_each_agent_is_a_line_and_the_exit_code_is_the_worst(
    conform_agent: Agent, no_extension: Path, tmp_path: Path
) -> None:
    good = conform_agent(DemoVariant.CORRECT).base_url
    broken = conform_agent(DemoVariant.CHANGED_STATE).base_url
    listed = tmp_path / "agents.txt"
    listed.write_text(f"# agents\n{good}\n{broken}\n{good}\n")
    options = ["--max-commands", "1", "--binding", "jsonrpc"]
    code, out, _ = conform("--from", str(listed), "-f", "jsonl", *options)
    found = {d["source"]: d for d in map(json.loads, out.splitlines())}
    assert set(found) == {good, broken}  # the duplicate checked once
    assert code == 1
    assert found[good]["passed"] is True and found[broken]["passed"] is False
    _, alone, _ = conform(good, "-f", "json", *options)
    expected = {"source": good, **json.loads(alone)}
    assert set(found[good]) == set(expected)  # the object --format json gives, with its source
    for key in ("source", "passed", "agent", "summary", "core_summary", "commands_run"):
        assert found[good][key] == expected[key], key
    assert [(r["id"], r["status"]) for r in found[good]["requirements"]] == [
        (r["id"], r["status"]) for r in expected["requirements"]
    ]

    code, out, _ = conform(broken, str(no_extension), "-f", "jsonl", *options)
    assert code == 2
    found = {d["source"]: d for d in map(json.loads, out.splitlines())}
    _, error_document, _ = conform(str(no_extension), "-f", "json")
    assert found[str(no_extension)] == json.loads(error_document)


def test_text_ends_with_the_summary(conform_agent: Agent, no_extension: Path) -> None:
    good = conform_agent(DemoVariant.CORRECT).base_url
    code, out, err = conform(good, str(no_extension), "--max-commands", "1", "--binding", "jsonrpc")
    assert code == 2
    assert "does not declare the commands extension" in err
    assert out.rstrip().endswith("2 agents: 1 passed, 0 failed, 1 could not be read")
    assert f"  {no_extension} (exit 2)" in out


def test_the_library_runs_the_agents_on_one_loop(conform_agent: Agent) -> None:
    urls = [conform_agent(v).base_url for v in (DemoVariant.CORRECT, DemoVariant.NO_STREAMING)]

    async def run() -> list[int]:
        options = ConformOptions(max_commands=1, rule_edges=False)
        return [o.exit_code async for o in check_agents(urls, options=options, jobs=2)]

    assert asyncio.run(run()) == [0, 0]


def test_html_takes_one_agent(no_extension: Path) -> None:
    code, _, err = conform("--from", str(no_extension), "--html", "x.html")
    assert code == 2 and "--html writes the report of one agent" in err


def test_the_polite_transport_holds_each_origin_to_its_cap() -> None:
    """Every request through the shared transport, from any number of clients, takes a slot
    of its origin until its response is closed."""
    origin = Origin(delay=0.05, body=b"{}")
    with serve_origins([origin]):

        async def run() -> None:
            pool = httpx.AsyncHTTPTransport()
            limiter = OriginLimiter(3)
            clients = [
                httpx.AsyncClient(transport=PoliteTransport(pool, limiter)) for _ in range(4)
            ]
            await asyncio.gather(*(c.get(f"{origin.url}/{i}") for i in range(5) for c in clients))
            for client in clients:
                await client.aclose()
            assert limiter.origins_in_use() == 0
            await pool.aclose()

        asyncio.run(run())
    assert origin.requests == 20 and origin.most_at_once == 3


def test_a_single_run_shows_its_progress_on_a_terminal(conform_agent: Agent) -> None:
    script = Path(sys.executable).parent / "th-ext"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "th_ext"]
    args = [
        *command,
        "conform",
        conform_agent(DemoVariant.CORRECT).base_url,
        "--binding",
        "jsonrpc",
    ]
    shown = run_in_terminal(args)
    planned = re.findall(r"(\d+)/(\d+) messages sent", shown)
    assert planned, shown
    done, total = planned[-1]
    assert done == total and int(total) > 10
    assert "messages sent" not in run_in_terminal([*args, "--quiet"])


def test_the_progress_callback_counts_up_to_the_plan(conform_agent: Agent) -> None:
    told: list[tuple[int, int]] = []
    options = ConformOptions(
        max_commands=1, progress=lambda done, total: told.append((done, total))
    )
    run_conform(conform_agent(DemoVariant.CORRECT).base_url, options)
    assert told and told[-1][0] == told[-1][1]
    assert [done for done, _ in told] == sorted(done for done, _ in told)
    assert len({total for _, total in told}) == 1


def test_every_jsonl_line_has_its_source_and_exit_code(
    conform_agent: Agent, no_extension: Path
) -> None:
    good = conform_agent(DemoVariant.CORRECT).base_url
    broken = conform_agent(DemoVariant.CHANGED_STATE).base_url
    options = ["--max-commands", "1", "--binding", "jsonrpc"]
    _, out, _ = conform(good, broken, str(no_extension), "-f", "jsonl", *options)
    found = {d["source"]: d["exit_code"] for d in map(json.loads, out.splitlines())}
    assert found == {good: 0, broken: 1, str(no_extension): 2}
    _, alone, _ = conform(good, "-f", "json", *options)
    assert json.loads(alone)["exit_code"] == 0


def test_quiet_leaves_out_the_requirements_that_passed_alone_or_among_many(
    conform_agent: Agent,
) -> None:
    good = conform_agent(DemoVariant.CORRECT).base_url
    broken = conform_agent(DemoVariant.CHANGED_STATE).base_url
    options = ["--max-commands", "1", "--binding", "jsonrpc"]
    loud = conform(broken, *options)[1].splitlines()
    quiet = conform(broken, "--quiet", *options)[1].splitlines()
    among = conform(good, broken, "--quiet", *options)[1].splitlines()
    passed = [line for line in loud if line.startswith("pass ")]
    failed = [line for line in loud if line.startswith("FAIL ")]
    assert passed and failed
    assert not any(line.startswith("pass ") for line in quiet + among)
    assert all(line in quiet and line in among for line in failed)
