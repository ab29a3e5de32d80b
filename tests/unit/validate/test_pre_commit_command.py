"""The pre-commit hook runs ``th-ext validate`` with validate's options, then every file
pre-commit passes; the worst exit code."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CARD = "extensions/commands/v1/examples/card.json"


def hook(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    code = "import sys; from th_ext.cli import main; sys.argv[0] = 'th-ext'; main()"
    return subprocess.run(
        [sys.executable, "-c", code, "validate", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_each_file_is_validated_and_the_worst_exit_code_wins(
    repo_root: Path, tmp_path: Path
) -> None:
    (tmp_path / "agent.json").write_text('{"name": "half a card"}')
    (tmp_path / "agent-card.json").write_text((repo_root / CARD).read_text())
    run = hook("agent-card.json", "agent.json", cwd=tmp_path)
    assert run.returncode == 1, run.stderr
    assert run.stdout.index("th-ext validate agent-card.json") < run.stdout.index(
        "th-ext validate agent.json"
    )
    assert "valid (0 errors, 0 warnings)" in run.stdout
    assert "error missing-field at /supportedInterfaces" in run.stdout
    unreadable = hook("agent-card.json", "missing.json", cwd=tmp_path)
    assert unreadable.returncode == 2


def test_validate_options_come_before_the_files(repo_root: Path, tmp_path: Path) -> None:
    (tmp_path / "agent-card.json").write_text((repo_root / CARD).read_text())
    run = hook("-f", "json", "--strict", "-e", "commands/v1", "agent-card.json", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert '"valid": true' in run.stdout
    assert hook("--no-such-option", "agent-card.json", cwd=tmp_path).returncode == 2
