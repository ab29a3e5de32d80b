"""``th-ext conform``'s controls: ``--statistics``, ``--select`` and ``--ignore`` by requirement
ID, ``--exit-zero``, ``--format sarif`` and the summary's first problem, against real demo
agents (the correct one, and one whose command replies end the task: CMD-5 fails)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.acceptance.validate.conftest import good_card, respond, serve_routes
from tests.acceptance.validate.test_validate_controls import sarif_errors
from th_ext.cli import app
from th_ext.demo import DemoServer, DemoVariant

pytestmark = pytest.mark.slow

Agent = Callable[[DemoVariant], DemoServer]
QUICK = ("--max-commands", "1", "--binding", "jsonrpc", "--quiet")


def conform(*args: str) -> tuple[int, str, str]:
    done = CliRunner(env={"NO_COLOR": "1"}).invoke(
        app, ["conform", *args, *QUICK], catch_exceptions=False
    )
    return done.exit_code, done.stdout, done.stderr


@pytest.fixture
def plain(tmp_path: Path) -> str:
    card = tmp_path / "plain.json"
    card.write_text(json.dumps({"name": "x", "supportedInterfaces": [], "capabilities": {}}))
    return str(card)


def test_statistics_count_the_failed_requirements_and_the_agents_not_checked(
    conform_agent: Agent, plain: str
) -> None:
    good = conform_agent(DemoVariant.CORRECT).base_url
    broken = conform_agent(DemoVariant.CHANGED_STATE).base_url
    code, out, _ = conform(good, broken, plain, "--statistics")
    assert code == 2
    lines = out.splitlines()
    assert lines[0] == "requirements failed by code, most frequent first:"
    assert lines[1].split()[1:] == ["CMD-5", "(error,", "in", "1", "agent)"]
    assert lines[2:] == [
        "could not be checked, by error code:",
        "   1  conform",
        "3 agents checked",
    ]
    code, out, _ = conform(good, broken, "--statistics", "-f", "json")
    document = json.loads(out)
    assert (code, document["command"], document["sources"], document["errors"]) == (
        1,
        "conform",
        2,
        [],
    )
    assert [(p["code"], p["sources"], p["severity"]) for p in document["problems"]] == [
        ("CMD-5", 1, "error")
    ]


def test_the_summary_names_each_failing_agent_s_first_failure(
    conform_agent: Agent, plain: str
) -> None:
    broken = conform_agent(DemoVariant.CHANGED_STATE).base_url
    _, out, _ = conform(broken, plain)
    summary = out[out.index("\nfailing:\n") :]
    assert f"\n  {broken} (exit 1): [CMD-5] " in summary
    assert f"\n  {plain} (exit 2): [conform] the card does not declare the commands" in summary
    assert summary.rstrip().endswith("2 agents: 0 passed, 1 failed, 1 could not be read")


def test_ignore_and_select_by_requirement_decide_the_verdict(conform_agent: Agent) -> None:
    broken = conform_agent(DemoVariant.CHANGED_STATE).base_url
    assert conform(broken, "-f", "json")[0] == 1
    code, out, _ = conform(broken, "-f", "json", "--ignore", "CMD-5")
    report = json.loads(out)
    assert (code, report["passed"]) == (0, True)
    assert "CMD-5" not in [r["id"] for r in report["requirements"]]
    code, out, _ = conform(broken, "-f", "json", "--select", "a2a-")  # a family, any case
    report = json.loads(out)
    assert (code, report["requirements"]) == (0, [])
    core = [r["id"] for r in report["core"]]
    assert "A2A-3.1.2" in core and all(rule.startswith("A2A-") for rule in core)
    assert conform(broken, "--select", "CMD-5,CMD-1")[0] == 1


def test_a_requirement_that_does_not_exist_is_one_usage_error(conform_agent: Agent) -> None:
    good = conform_agent(DemoVariant.CORRECT).base_url
    assert conform(good, "--select", "CMD-99") == (
        2,
        "",
        "th-ext: error: --select: no requirement 'CMD-99'; did you mean 'CMD-9'?\n",
    )
    assert conform(good, "--ignore", "unknown-field")[2] == (
        "th-ext: error: --ignore: no requirement 'unknown-field'\n"
    )


EMPTY = " leaves no check to run"
EMPTY_SELECTIONS = [
    (["--select", "CMD-3", "--level", "SHOULD"], "--select CMD-3 with --level SHOULD" + EMPTY),
    (["--level", "MAY"], "--level MAY" + EMPTY),
    (["--select", "CMD-1", "--ignore", "CMD-"], "--select CMD-1 with --ignore CMD-" + EMPTY),
    (
        ["--ignore", "CMD-,A2A-", "--level", "MUST", "--level", "SHOULD"],
        "--ignore CMD-,A2A-" + EMPTY,
    ),
    (
        ["--select", "CMD-11,A2A-8.6", "--ignore", "A2A-", "--level", "MUST"],
        "--select CMD-11,A2A-8.6 with --ignore A2A- and --level MUST" + EMPTY,
    ),
    (
        ["--select", "A2A-8.4"],
        "--select A2A-8.4" + EMPTY + " (A2A-8.4 is checked with --keys, --fetch-keys or "
        "--require-signature)",
    ),
]


@pytest.mark.parametrize(
    ("args", "message"), EMPTY_SELECTIONS, ids=[" ".join(args) for args, _ in EMPTY_SELECTIONS]
)
def test_a_selection_that_leaves_no_check_is_refused_before_anything_is_sent(
    args: list[str], message: str
) -> None:
    with serve_routes() as server:
        server.route("/.well-known/agent-card.json", respond(200, good_card()))
        code, out, err = conform(server.url(), *args)
    assert (code, out, err) == (2, "", f"th-ext: error: {message}\n")
    assert server.seen == []


def test_a_narrow_selection_that_leaves_a_check_runs(conform_agent: Agent) -> None:
    good = conform_agent(DemoVariant.CORRECT).base_url
    code, out, _ = conform(good, "-f", "json", "--select", "CMD-11", "--level", "SHOULD")
    assert (code, [r["id"] for r in json.loads(out)["requirements"]]) == (0, ["CMD-11"])
    code, out, _ = conform(good, "-f", "json", "--select", "A2A-8.4", "--require-signature")
    assert (code, [r["id"] for r in json.loads(out)["core"]]) == (1, ["A2A-8.4"])


def test_exit_zero(conform_agent: Agent, plain: str) -> None:
    broken = conform_agent(DemoVariant.CHANGED_STATE).base_url
    assert conform(broken, "--exit-zero", "-f", "json")[0] == 0
    assert conform(broken, plain, "--exit-zero", "-f", "jsonl")[0] == 2


def test_sarif_validates_and_places_each_failing_check_at_the_card(
    conform_agent: Agent, plain: str
) -> None:
    broken = conform_agent(DemoVariant.CHANGED_STATE).base_url
    code, out, _ = conform(broken, plain, "-f", "sarif")
    assert code == 2
    log = json.loads(out)
    assert sarif_errors(log) == []
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == ["CMD-5", "conform"]
    assert rules[0]["helpUri"].endswith("#cmd-5") and rules[0]["help"]["text"]
    results = log["runs"][0]["results"]
    failing = [r for r in results if r["ruleId"] == "CMD-5"]
    assert failing and all(r["level"] == "error" for r in failing)
    place = failing[0]["locations"][0]
    assert place["physicalLocation"]["artifactLocation"]["uri"] == (
        broken + "/.well-known/agent-card.json"
    )
    assert place["logicalLocations"][0]["fullyQualifiedName"] == broken + "/a2a"
    assert results[-1]["ruleId"] == "conform"
    one = json.loads(conform(broken, "-f", "sarif")[1])
    assert sarif_errors(one) == [] and len(one["runs"][0]["results"]) == len(failing)
