"""The pytest plugin, loaded through its entry point in a separate pytest run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.unit.validate.conftest import example_card
from th_ext import __version__

TESTS = """
from th_ext.testing import check_card


def test_card_by_import():
    check_card("agent-card.json")


def test_card_by_fixture(th_ext_check_card):
    th_ext_check_card("broken-card.json")
"""


def test_the_plugin_is_registered_and_its_fixture_fails_a_broken_card(tmp_path: Path) -> None:
    card = example_card()
    (tmp_path / "agent-card.json").write_text(json.dumps(card), encoding="utf-8")
    card["skills"] = []
    (tmp_path / "broken-card.json").write_text(json.dumps(card), encoding="utf-8")
    (tmp_path / "test_agent.py").write_text(TESTS, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(tmp_path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"th-ext {__version__}" in done.stdout
    assert "1 failed, 1 passed" in done.stdout
    assert "FAILED test_agent.py::test_card_by_fixture" in done.stdout
    assert (
        "th_ext.testing.CardCheckFailed: the required array 'skills' is empty"
        " (empty-array at /skills); agent card broken-card.json is not valid: 1 problem"
    ) in done.stdout
    assert "error empty-array at /skills" in done.stdout
    # The failure points at the author's line, with none of th-ext's own frames.
    assert '>       th_ext_check_card("broken-card.json")' in done.stdout
    assert "th_ext/testing" not in done.stdout
    assert "def check_card" not in done.stdout


def test_the_short_summary_names_the_public_class_and_begins_with_the_reason(
    tmp_path: Path,
) -> None:
    """``-ra`` shows the first line of the failure, cut to the terminal's width: the public
    class name and then the reason, before the verdict's boilerplate."""
    card = example_card()
    card["skills"] = []
    (tmp_path / "broken-card.json").write_text(json.dumps(card), encoding="utf-8")
    (tmp_path / "test_agent.py").write_text(
        'def test_card(th_ext_check_card):\n    th_ext_check_card("broken-card.json")\n',
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "BUILD_NUMBER")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-ra", str(tmp_path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**env, "COLUMNS": "120"},
    )
    summary = [line for line in done.stdout.splitlines() if line.startswith("FAILED ")]
    assert len(summary) == 1, done.stdout
    assert summary[0].startswith(
        "FAILED test_agent.py::test_card - th_ext.testing.CardCheckFailed: "
        "the required array 'skills' is empty ("
    ), done.stdout
    assert "th_ext.testing._card" not in done.stdout
