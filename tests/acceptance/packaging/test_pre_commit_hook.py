"""The repository's pre-commit hook, run by pre-commit itself in a scratch agent repository.

pre-commit installs th-ext from this repository into its own environment (from a commit, so the
tests first snapshot the working tree into a throw-away git repository, once per run, and share
pre-commit's store), then runs the ``th-ext-validate`` hook on the card files it selects.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.run_once import folder_once, run_folder

pytestmark = pytest.mark.slow

CARD = "extensions/commands/v1/examples/card.json"
GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "test",
    "GIT_AUTHOR_EMAIL": "test@example.invalid",
    "GIT_COMMITTER_NAME": "test",
    "GIT_COMMITTER_EMAIL": "test@example.invalid",
}


def git(*args: str, cwd: Path) -> str:
    env = {**os.environ, **GIT_IDENTITY}
    done = subprocess.run(
        ["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=True, timeout=120
    )
    return done.stdout.strip()


@pytest.fixture(scope="session")
def hook_repo(repo_root: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """This repository's working tree (tracked and new files) committed in a scratch repository;
    its path and commit. One for the whole run, so that pre-commit installs th-ext once."""

    def snapshot(target: Path) -> None:
        listed = git("ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=repo_root)
        for name in filter(None, listed.split("\0")):
            source = repo_root / name
            if source.is_file():
                (target / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target / name)
        git("init", "-q", cwd=target)
        git("add", "-A", cwd=target)
        git("commit", "-q", "-m", "snapshot", cwd=target)

    target = folder_once(tmp_path_factory, "hook-repo", snapshot)
    return target, git("rev-parse", "HEAD", cwd=target)


@pytest.fixture(scope="session")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """pre-commit's store, shared by every worker of the run: pre-commit locks it itself while
    it installs a hook's environment."""
    home = run_folder(tmp_path_factory) / "pre-commit-home"
    home.mkdir(exist_ok=True)
    return home


def agent_repo(path: Path, files: dict[str, object]) -> Path:
    """A scratch git repository holding ``files`` (JSON documents), all staged."""
    path.mkdir()
    git("init", "-q", cwd=path)
    for name, document in files.items():
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        (path / name).write_text(json.dumps(document, indent=2) + "\n")
    git("add", "-A", cwd=path)
    return path


def pre_commit(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never"}
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


@pytest.fixture(scope="module")
def good_card(repo_root: Path) -> dict[str, object]:
    card: dict[str, object] = json.loads((repo_root / CARD).read_text())
    return card


def hook_config(hook_repo: tuple[Path, str], extra: str = "") -> str:
    path, commit = hook_repo
    return (
        f"repos:\n  - repo: {path}\n    rev: {commit}\n    hooks:\n"
        f"      - id: th-ext-validate\n{extra}"
    )


def test_the_hook_checks_the_card_files_and_shows_the_problems(
    hook_repo: tuple[Path, str],
    good_card: dict[str, object],
    pre_commit_home: Path,
    tmp_path: Path,
) -> None:
    bad_card = {key: value for key, value in good_card.items() if key != "name"}
    repo = agent_repo(
        tmp_path / "agent",
        {
            "agent-card.json": good_card,
            "deploy/agent.json": bad_card,
            "other.json": {"not": "a card"},
        },
    )
    (repo / ".pre-commit-config.yaml").write_text(hook_config(hook_repo))
    git("add", "-A", cwd=repo)
    run = pre_commit("run", "--all-files", "--verbose", cwd=repo, home=pre_commit_home)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "th-ext validate (A2A agent cards)" in run.stdout
    assert "Failed" in run.stdout
    assert "th-ext validate agent-card.json" in run.stdout
    assert "th-ext validate deploy/agent.json" in run.stdout
    assert "error missing-field at /name" in run.stdout
    assert "other.json" not in run.stdout


def test_a_valid_card_passes_and_files_overrides_the_selection(
    hook_repo: tuple[Path, str],
    good_card: dict[str, object],
    pre_commit_home: Path,
    tmp_path: Path,
) -> None:
    config = hook_config(hook_repo)
    repo = agent_repo(tmp_path / "agent", {"agent-card.json": good_card})
    (repo / ".pre-commit-config.yaml").write_text(config)
    run = pre_commit("run", "--all-files", cwd=repo, home=pre_commit_home)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "th-ext validate (A2A agent cards)" in run.stdout and "Passed" in run.stdout

    # With files: the hook checks the files it names, and only those.
    (repo / "cards").mkdir()
    (repo / "cards" / "production.json").write_text(json.dumps({"name": "half a card"}))
    (repo / "agent-card.json").write_text("{ not json")
    config = hook_config(hook_repo, "        files: ^cards/.*\\.json$\n        args: [--strict]\n")
    (repo / ".pre-commit-config.yaml").write_text(config)
    git("add", "-A", cwd=repo)
    run = pre_commit("run", "--all-files", "--verbose", cwd=repo, home=pre_commit_home)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "th-ext validate cards/production.json" in run.stdout
    assert "error missing-field at /supportedInterfaces" in run.stdout
    assert "agent-card.json" not in run.stdout
