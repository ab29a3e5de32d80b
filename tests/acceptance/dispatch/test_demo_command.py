"""``th-ext demo`` end to end, the demo card under ``th-ext validate``, and the light start-up."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable

import pytest

from th_ext.demo import DemoServer, DemoVariant

from .conftest import Result


def test_the_demo_runs_every_step_and_passes(th_ext: Callable[..., Result]) -> None:
    result = th_ext("demo")
    assert result.exit_code == 0, result.stdout + result.stderr
    out = result.stdout
    for step in (
        "1. th-ext validate http://127.0.0.1:",
        "2. th-ext dispatch http://127.0.0.1:",
        "3. th-ext conform http://127.0.0.1:",
    ):
        assert step in out
    assert "outcome    command /model" in out
    assert "pass  CMD-5  MUST   For a message to an existing task, the state does not change" in out
    assert "bindings   JSONRPC, HTTP+JSON" in out
    assert "passed: 13 passed, 0 failed, 0 warnings, 4 skipped" in out
    assert out.rstrip().endswith("demo passed")


def test_the_demo_json_report(th_ext: Callable[..., Result]) -> None:
    result = th_ext("demo", "--format", "json")
    assert result.exit_code == 0
    report = result.json()
    assert report["passed"] is True
    assert report["validate"]["valid"] is True
    assert report["dry_run"]["outcome"] == "command" and report["dry_run"]["command"] == "model"
    assert report["conform"]["passed"] is True
    assert {r["status"] for r in report["conform"]["requirements"]} == {"pass", "skip"}


def test_the_demo_against_a_broken_variant_fails_with_exit_1(th_ext: Callable[..., Result]) -> None:
    result = th_ext("demo", "--variant", "changed-state")
    assert result.exit_code == 1
    assert "FAIL  CMD-5" in result.stdout
    assert result.stdout.rstrip().endswith("demo FAILED")


def test_the_variant_option_lists_every_variant() -> None:
    from th_ext.cli._demo import VariantChoice

    assert [choice.value for choice in VariantChoice] == [v.value for v in DemoVariant]


@pytest.mark.parametrize("variant", list(DemoVariant))
def test_the_demo_card_passes_th_ext_validate(
    th_ext: Callable[..., Result],
    demo_agent: Callable[[DemoVariant], DemoServer],
    variant: DemoVariant,
) -> None:
    server = demo_agent(variant)
    result = th_ext("validate", server.base_url, "--strict", "--format", "json")
    assert result.exit_code == 0, result.stdout
    report = result.json()
    assert report["valid"] is True
    assert report["problems"] == []


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )


def test_without_the_demo_extra_the_demo_says_so_in_one_line() -> None:
    code = (
        "import sys\n"
        "sys.modules['a2a'] = None\n"  # as if a2a-sdk were not installed
        "sys.argv = ['th-ext', 'demo']\n"
        "from th_ext.cli import main\n"
        "main()\n"
    )
    done = run_python(code)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("th-ext: error: the demo agent needs the optional 'demo' extra")
    assert (
        "pip install 'th-ext[demo] @ git+https://github.com/madarauchiha-314/th-ext'" in done.stderr
    )


def test_the_cli_start_up_and_a_dry_run_never_import_the_sdk_or_httpx(repo_root: object) -> None:
    card = f"{repo_root}/extensions/commands/v1/examples/card.json"
    code = (
        "import sys\n"
        f"sys.argv = ['th-ext', 'dispatch', {card!r}, '/model fast']\n"
        "from th_ext.cli import main\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = ('a2a', 'httpx', 'uvicorn', 'starlette', 'google.protobuf')\n"
        "print('HEAVY', sorted(m for m in heavy if m in sys.modules))\n"
    )
    done = run_python(code)
    assert "outcome    command /model" in done.stdout
    assert "HEAVY []" in done.stdout, done.stdout


def test_serve_runs_the_agent_until_stopped(th_ext: Callable[..., Result]) -> None:
    command = [sys.executable, "-m", "th_ext", "demo", "--serve", "--port", "0"]
    env = {**os.environ, "NO_COLOR": "1"}
    agent = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env
    )
    try:
        assert agent.stdout is not None
        first = agent.stdout.readline()
        assert first.startswith("demo agent (correct) at http://127.0.0.1:")
        base_url = first.split(" at ")[1].split(";")[0]
        result = th_ext("dispatch", base_url, "/help", "--live", "-f", "json")
        assert result.exit_code == 0, result.stdout
        assert "/review <focus>" in json.dumps(result.json()["live"]["received"])
    finally:
        agent.terminate()
        assert agent.wait(timeout=20) in (0, -signal.SIGTERM)
        if agent.stdout is not None:
            agent.stdout.close()
