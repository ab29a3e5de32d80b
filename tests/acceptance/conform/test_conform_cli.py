"""``th-ext conform`` on the command line: exit codes, options and every output format."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from th_ext.cli import app
from th_ext.demo import DemoServer, DemoVariant

pytestmark = pytest.mark.slow

Agent = Callable[[DemoVariant], DemoServer]


def conform(*args: str) -> tuple[int, str, str]:
    outcome = CliRunner().invoke(app, ["conform", *args], catch_exceptions=False)
    return outcome.exit_code, outcome.stdout, outcome.stderr


def as_json(*args: str) -> tuple[int, dict[str, Any]]:
    code, out, err = conform(*args, "--format", "json")
    assert code in (0, 1), err
    document: dict[str, Any] = json.loads(out)
    return code, document


def statuses(document: dict[str, Any]) -> dict[str, str]:
    return {r["id"]: r["status"] for r in document["requirements"]}


def test_json_has_the_documented_shape(conform_agent: Agent) -> None:
    code, document = as_json(conform_agent(DemoVariant.CORRECT).base_url)
    assert code == 0
    assert document["passed"] is True
    assert {"name", "card_url", "commands", "bindings_checked"} <= set(document["agent"])
    for requirement in document["requirements"]:
        assert requirement["status"] in ("pass", "fail", "warn", "skip")
        assert {"id", "level", "status", "checks"} <= set(requirement)
        for check in requirement["checks"]:
            assert {"binding", "scenario", "mode", "status", "detail"} <= set(check)
    assert document["commands_run"][0].startswith("/model")


def test_a_must_failure_exits_1_and_the_text_names_requirement_binding_and_scenario(
    conform_agent: Agent,
) -> None:
    code, out, _ = conform(conform_agent(DemoVariant.WORKING_FIRST).base_url)
    assert code == 1
    block = out.split("CMD-14", 1)[1].split("\nwarn ", 1)[0]
    assert "JSONRPC stream, /model, existing task: 1 other status update: TASK_STATE_WORKING" in (
        block
    )
    assert "HTTP+JSON stream" in block
    assert "FAILED: 12 passed, 1 failed" in out


def test_command_and_skip_command_choose_what_runs(conform_agent: Agent) -> None:
    base = conform_agent(DemoVariant.CORRECT).base_url
    _, only = as_json(base, "--command", "help")
    assert [run.split(" (")[0] for run in only["commands_run"]] == ["/help"]
    _, skipped = as_json(base, "--skip-command", "review", "--skip-command", "model")
    assert [run.split(" (")[0] for run in skipped["commands_run"]] == ["/help"]
    assert statuses(skipped)["CMD-4"] == "skip"  # only /review starts a sub-task
    code, _, err = conform(base, "--command", "deploy")
    assert code == 2
    assert "/deploy is not registered on the card" in err


def test_binding_and_level_narrow_the_run(conform_agent: Agent) -> None:
    base = conform_agent(DemoVariant.CORRECT).base_url
    _, rest = as_json(base, "--binding", "http+json")
    assert rest["agent"]["bindings_checked"] == ["HTTP+JSON"]
    bindings = {c["binding"] for r in rest["requirements"] for c in r["checks"]}
    assert bindings == {"HTTP+JSON", "card"}
    _, should = as_json(base, "--level", "SHOULD")
    assert {r["level"] for r in should["requirements"]} == {"SHOULD"}


def test_a_should_failure_warns_and_fails_only_with_strict(conform_agent: Agent) -> None:
    base = conform_agent(DemoVariant.UNNAMED_TASK).base_url
    code, document = as_json(base)
    assert code == 0
    assert statuses(document)["CMD-11"] == "warn"
    assert document["passed"] is True
    code, document = as_json(base, "--strict")
    assert code == 1
    assert document["passed"] is False
    assert conform(base, "--strict")[1].count("warn  CMD-11") == 1


def test_junit_is_well_formed_with_one_case_per_requirement(conform_agent: Agent) -> None:
    code, out, _ = conform(conform_agent(DemoVariant.USER_ROLE).base_url, "-f", "junit")
    assert code == 1
    suite = ET.fromstring(out).find("testsuite")
    assert suite is not None
    cases = suite.findall("testcase")
    assert len(cases) == int(suite.get("tests", "0")) == 17
    failed = [c.get("name", "") for c in cases if c.find("failure") is not None]
    assert [name.split(":")[0] for name in failed] == ["CMD-9"]
    assert suite.get("failures") == "1"
    assert suite.get("skipped") == "4"


def test_an_unreachable_agent_exits_2_with_one_line() -> None:
    code, _, err = conform("http://127.0.0.1:9/")
    assert code == 2
    assert err.startswith("th-ext: error: ") and err.count("\n") == 1


def test_a_card_without_the_extension_exits_2(tmp_path: Path) -> None:
    card = tmp_path / "card.json"
    card.write_text(json.dumps({"name": "x", "supportedInterfaces": [], "capabilities": {}}))
    code, _, err = conform(str(card))
    assert code == 2
    assert "does not declare the commands extension" in err


def test_an_agent_that_never_answers_is_unreachable_within_the_timeout(
    conform_agent: Agent, tmp_path: Path
) -> None:
    import socket
    import time

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    port = listener.getsockname()[1]
    import httpx

    document = httpx.get(conform_agent(DemoVariant.CORRECT).card_url, timeout=10).json()
    for interface in document["supportedInterfaces"]:
        interface["url"] = interface["url"].replace(
            interface["url"].split("/")[2], f"127.0.0.1:{port}"
        )
    path = tmp_path / "card.json"
    path.write_text(json.dumps(document))
    start = time.monotonic()
    code, out, _ = conform(str(path), "--timeout", "0.5", "--format", "json")
    elapsed = time.monotonic() - start
    listener.close()
    assert code == 2
    assert elapsed < 8
    error = json.loads(out)["error"]
    assert error["code"] == "unreachable"
    assert "no complete answer within 0.5 s" in error["message"]


def test_html_says_on_standard_error_where_it_wrote_the_report(
    conform_agent: Agent, tmp_path: Path
) -> None:
    path = tmp_path / "report.html"
    code, out, err = conform(conform_agent(DemoVariant.CORRECT).base_url, "--html", str(path))
    assert code == 0
    assert err == f"wrote {path}\n"
    assert f"wrote {path}" not in out
    page = path.read_text(encoding="utf-8")
    # the core A2A section says why a MUST of A2A is only a warning here
    assert (
        "each is a MUST or a SHOULD of A2A that th-ext reports as a warning, because it is "
        "not the extension's rule, so it fails the run only with <code>--strict</code>"
    ) in page


def test_the_core_section_says_a_must_of_a2a_is_reported_as_a_warning(
    conform_agent: Agent,
) -> None:
    code, out, _ = conform(conform_agent(DemoVariant.CORRECT).base_url)
    assert code == 0
    assert (
        "\ncore A2A (rules of A2A itself, MUST or SHOULD, not of the extension; th-ext reports "
        "each as a warning, because it is not the extension's rule, so it fails the run only "
        "with --strict):\n"
    ) in out
    assert "warnings that fail only with --strict" not in out
