"""A path the system will not even look at (a name longer than it allows) is one line and
exit 2 wherever a path is given: the system's words, never an internal error. Python 3.11's
``Path.is_dir()`` raises for such a name where it returns ``False`` for a missing one."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.acceptance.hostile.conftest import Result

REPO = Path(__file__).resolve().parents[3]
LONG = "x" * 300  # beyond the 255 bytes a name may have on Linux and macOS


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("history", LONG), f"th-ext: error: {LONG}: cannot be read (file name too long)"),
        (("validate", "{card}", "--db", LONG), f"--db {LONG}: cannot be read (file name too long)"),
        (("validate", "{card}", "--schemas", LONG), f"--schemas {LONG}: not a folder"),
        (("lock", "check", "--extensions-dir", LONG), f"{LONG}: no extensions folder here"),
        (("conform", "{card}", "--har", f"{LONG}/run.har"), f"--har {LONG}/run.har: the folder"),
    ],
    ids=["history", "db", "schemas", "extensions-dir", "har folder"],
)
def test_a_name_too_long_is_one_line(
    th_ext: Callable[..., Result],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...],
    said: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    card = tmp_path / "card.json"
    card.write_text("{}", encoding="utf-8")
    result = th_ext(*(arg.replace("{card}", str(card)) for arg in args))
    assert result.exit_code == 2, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert "internal error" not in result.stderr
    assert said in result.stderr


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("generate", "--out", "{tmp}/" + LONG), "/a2a/ext/agent-card/v1: file name too long"),
        (("subtree", "--dest", "{tmp}/" + LONG, "--work-dir", "{tmp}/work"), "file name too long"),
    ],
    ids=["generate", "subtree"],
)
def test_the_publisher_says_a_name_too_long_in_one_line(
    tmp_path: Path, args: tuple[str, ...], said: str
) -> None:
    command = [str(Path(sys.executable).parent / "th-ext-publish")]
    command += [arg.replace("{tmp}", str(tmp_path)) for arg in args]
    done = subprocess.run(
        command, capture_output=True, text=True, cwd=REPO, timeout=120, check=False
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(f"th-ext-publish {args[0]}: error: {tmp_path}/{LONG}")
    assert done.stderr.rstrip().endswith(said)
