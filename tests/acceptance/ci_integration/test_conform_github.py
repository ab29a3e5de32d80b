"""``th-ext conform --format github`` and ``--junit-file`` against real demo agents."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from th_ext.demo._server import DemoServer
from th_ext.demo._variants import DemoVariant

TH_EXT = str(Path(sys.executable).parent / "th-ext")


def _conform(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TH_EXT, "conform", url, "--format", "github", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_failing_requirement_is_one_error_annotation_with_its_checks(tmp_path: Path) -> None:
    junit = tmp_path / "conform.xml"
    with DemoServer(DemoVariant.USER_ROLE) as server:
        done = _conform(server.base_url, "--junit-file", str(junit))
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    errors = [line for line in lines if line.startswith("::error")]
    assert len(errors) == 1
    assert errors[0].startswith("::error title=CMD-9::MUST: ")
    assert "%0AJSONRPC stream, /model, new task: role 'ROLE_USER' (got: task SUBMITTED" in errors[0]
    assert lines[-1].startswith(f"th-ext conform {server.base_url}/.well-known/agent-card.json: ")
    assert ": failed (" in lines[-1]
    suite = ET.parse(junit).getroot()
    assert suite.get("name") == "th-ext conform"
    failed = [
        case.get("name", "") for case in suite.iter("testcase") if case.find("failure") is not None
    ]
    assert len(failed) == 1 and failed[0].startswith("CMD-9:")


def test_a_conforming_agent_prints_only_the_summary_line() -> None:
    with DemoServer() as server:
        done = _conform(server.base_url)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not [line for line in done.stdout.splitlines() if line.startswith("::error")]
    assert ": passed (" in done.stdout.splitlines()[-1]
