"""The JS agent fixture without Node: a skip with the reason on a developer's machine, a failure
under CI, where every test must run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

TEST = "tests/acceptance/js_agent/test_js_agent.py"


def run_without_node(repo_root: Path, ci: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": str(Path(sys.executable).parent), "CI": ci}
    return subprocess.run(
        [sys.executable, "-m", "pytest", TEST, "-k", "card", "-p", "no:randomly", "-p",
         "no:cacheprovider", "-rs", "-q"],
        cwd=repo_root, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip


def test_without_node_the_tests_are_skipped_with_the_reason(repo_root: Path) -> None:
    run = run_without_node(repo_root, ci="")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 skipped" in run.stdout
    assert "node and npm not found: the JS SDK agent cannot run" in run.stdout


def test_without_node_under_ci_the_tests_fail(repo_root: Path) -> None:
    run = run_without_node(repo_root, ci="true")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "1 error" in run.stdout
    assert "node and npm not found" in run.stdout
