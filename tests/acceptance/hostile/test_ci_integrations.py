"""The CI integrations are as safe as the command line: the pytest plugin (real pytest runs),
the pre-commit hook and the GitHub Action read a card with the same bounded reader and print
it through the same sanitiser; the Action's job summary shows card text inert and bounded."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt

from tests.acceptance.hostile.conftest import EXAMPLE_CARD

REPO = Path(__file__).resolve().parents[3]
BIN = Path(sys.executable).parent
FORGED = "::error ::forged by the card"
# Far below what reading /dev/zero or a 2 GiB file whole needs, far above what pytest needs.
MEMORY_LIMIT = 1024 * 1024 * 1024


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def _run(command: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command,
        cwd=cwd,
        env={**os.environ, "NO_COLOR": "1", **env},
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
        preexec_fn=_limited,
    )


def _hostile_card() -> dict[str, Any]:
    card: dict[str, Any] = json.loads(EXAMPLE_CARD.read_text(encoding="utf-8"))
    commands = card["capabilities"]["extensions"][0]["params"]["commands"]
    commands[0][f"x\n{FORGED}\x1b[2J\x07"] = 1
    card["skills"][0][f"y\r\n{FORGED} too\x1b]0;title\x07\u202e"] = 1
    return card


def _assert_inert(output: str) -> None:
    assert not any(line.lstrip().startswith("::error ::forged") for line in output.splitlines())
    for raw in ("\x1b", "\x07", "\u202e", "\r"):
        assert raw not in output, repr(raw)


@pytest.fixture
def cards(tmp_path: Path) -> Path:
    folder = tmp_path / "cards"
    folder.mkdir()
    (folder / "hostile.json").write_text(json.dumps(_hostile_card()), encoding="utf-8")
    (folder / "zero.json").symlink_to("/dev/zero")
    with (folder / "sparse.json").open("wb") as handle:
        handle.truncate(2 * 1024 * 1024 * 1024)  # 2 GiB, no block on disk
    return folder


PLUGIN_TESTS = """
import pytest
from th_ext.testing import check_card


@pytest.mark.parametrize("name", ["hostile.json", "zero.json", "sparse.json"])
def test_card(name):
    check_card(name)


def test_card_by_fixture(th_ext_check_card):
    th_ext_check_card("zero.json")
"""


def test_the_pytest_plugin_reads_bounded_and_prints_sanitised(cards: Path) -> None:
    (cards / "test_cards.py").write_text(PLUGIN_TESTS, encoding="utf-8")
    done = _run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q"], cards)
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "4 failed" in output, output
    assert "MemoryError" not in output
    assert output.count("larger than the cap of 5242880 bytes") >= 3, output
    assert "forged by the card" in output  # shown, on the problem's own line
    _assert_inert(output)


def test_the_pre_commit_hook_reads_bounded_and_prints_sanitised(cards: Path) -> None:
    files = ["hostile.json", "zero.json", "sparse.json"]
    for fmt in ("text", "github"):
        done = _run([str(BIN / "th-ext"), "validate", "--format", fmt, *files], cards)
        output = done.stdout + done.stderr
        assert done.returncode == 2, output
        assert output.count("cap of 5242880 bytes") >= 2, output
        _assert_inert(output)


def _action(cards: Path, card: str) -> tuple[subprocess.CompletedProcess[str], str]:
    summary = cards / f"summary-{card}.md"
    done = _run(
        [sys.executable, str(REPO / "action/run.py")],
        cards,
        GITHUB_ACTIONS="true",
        GITHUB_STEP_SUMMARY=str(summary),
        GITHUB_OUTPUT=str(cards / "output.txt"),
        TH_EXT_BIN=str(BIN / "th-ext"),
        TH_EXT_CARD=card,
        TH_EXT_JUNIT_DIR=str(cards / f"junit-{card}"),
    )
    return done, summary.read_text(encoding="utf-8")


@pytest.mark.parametrize("card", ["hostile.json", "zero.json", "sparse.json"])
def test_the_action_reads_bounded_and_prints_sanitised(cards: Path, card: str) -> None:
    done, summary = _action(cards, card)
    output = done.stdout + done.stderr
    assert done.returncode == (1 if card == "hostile.json" else 2), output
    _assert_inert(output)
    _assert_inert(summary)


def _rendered(markdown: str) -> str:
    html: str = MarkdownIt("commonmark").enable("table").render(markdown)
    return html


def test_the_job_summary_shows_card_text_inert(tmp_path: Path) -> None:
    card: dict[str, Any] = json.loads(EXAMPLE_CARD.read_text(encoding="utf-8"))
    commands = card["capabilities"]["extensions"][0]["params"]["commands"]
    live = [
        "[Fix the build](https://attacker.example/x)",
        "![pixel](https://attacker.example/p.png)",
        "<img src=https://attacker.example/q.png>",
        "``tick`` `|` **bold** www.attacker.example",
    ]
    commands[:] = [{"name": text, "description": text} for text in live]
    (tmp_path / "card.json").write_text(json.dumps(card), encoding="utf-8")
    done, summary = _action(tmp_path, "card.json")
    assert done.returncode == 1, done.stdout + done.stderr
    html = _rendered(summary)
    assert "<a " not in html and "<img" not in html and "<strong>" not in html, html
    assert "[Fix the build](https://attacker.example/x)" in html  # shown as text, in code
    assert html.count("<code>") >= len(live)


def test_the_job_summary_of_a_huge_card_is_bounded(tmp_path: Path) -> None:
    card: dict[str, Any] = json.loads(EXAMPLE_CARD.read_text(encoding="utf-8"))
    commands = card["capabilities"]["extensions"][0]["params"]["commands"]
    commands[:] = [{"name": f"Bad{i}" + "x" * 3000, "description": "d"} for i in range(1000)]
    (tmp_path / "card.json").write_text(json.dumps(card), encoding="utf-8")
    done, summary = _action(tmp_path, "card.json")
    assert done.returncode == 1, done.stderr
    assert len(summary.encode("utf-8")) < 64 * 1024, len(summary)
    assert "more in the JUnit files" in summary
