"""Help that names things and shows whole summaries, and shell completion."""

from __future__ import annotations

import functools
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main

from tests.support.cli_tree import command_paths
from th_ext.cli import app
from th_ext.cli._boundary import summary

REPO = Path(__file__).resolve().parents[3]
SCRIPT = Path(sys.executable).with_name("th-ext")
TYPE_METAVAR = re.compile(  # noqa: DUO138 (only th-ext's own help text)
    r"<(str|int|float|path|file|directory|bool|text|integer)>|<[\w+-]+(\|[\w+-]+)+>"
)


def _help(path: list[str], columns: int) -> str:
    """``th-ext PATH --help`` from the real script, on a terminal ``columns`` wide."""
    return _help_of(tuple(path), columns)


@functools.cache
def _help_of(path: tuple[str, ...], columns: int) -> str:
    """The help text, run once per path and width in this process: the help tests read the
    same texts for different checks."""
    run = subprocess.run(
        [SCRIPT, *path, "--help"],
        env={**os.environ, "COLUMNS": str(columns)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    return run.stdout


def _one_line(text: str) -> str:
    """``text`` unwrapped, words that the formatter broke at a hyphen joined again."""
    return re.sub(r"-\s+", "-", " ".join(text.split()))


@pytest.mark.parametrize("columns", [200, 60])
@pytest.mark.parametrize("path", command_paths(), ids=lambda p: " ".join(p) or "th-ext")
def test_help_names_every_value(path: list[str], columns: int) -> None:
    text = _help(path, columns)
    usage = next(line for line in text.splitlines() if line.startswith("Usage:"))
    assert "{" not in usage and "}" not in usage, usage
    assert TYPE_METAVAR.search(text) is None, TYPE_METAVAR.search(text)


@pytest.mark.parametrize("columns", [200, 60])
@pytest.mark.parametrize("group", [[], ["lock"]], ids=lambda p: " ".join(p) or "th-ext")
def test_every_command_list_shows_whole_summaries(group: list[str], columns: int) -> None:
    text = _help(group, columns)
    listing = text.split("Commands:", 1)[1]
    parent = typer.main.get_command(app)
    for name in group:
        parent = parent.commands[name]  # type: ignore[attr-defined]
    for name, command in parent.commands.items():  # type: ignore[attr-defined]
        whole = summary(command.help)
        assert whole.endswith("."), name
        assert ". " not in whole, f"{name}: one sentence"
        assert whole in _one_line(listing), name
    assert "..." not in listing


def test_a_wide_terminal_gets_one_line_per_command() -> None:
    listing = _help([], 200).split("Commands:", 1)[1].strip().splitlines()
    root = typer.main.get_command(app)
    assert len(listing) == len(root.commands)  # type: ignore[attr-defined]


def test_the_usage_line_names_the_arguments() -> None:
    assert "Usage: th-ext dispatch [OPTIONS] SOURCE [TEXT]" in _help(["dispatch"], 200)
    assert "Usage: th-ext schema [OPTIONS] EXTENSION" in _help(["schema"], 200)


def _complete(words: str, *argv: str, cwd: Path | None = None) -> list[str]:
    """What bash's completion script gets back from ``th-ext ARGV`` for ``words``."""
    env = {
        **os.environ,
        "_TH_EXT_COMPLETE": "complete_bash",
        "COMP_WORDS": words,
        "COMP_CWORD": str(len(words.split(" ")) - 1),
    }
    run = subprocess.run(
        [SCRIPT, *argv], env=env, cwd=cwd, capture_output=True, text=True, timeout=60, check=False
    )
    assert run.returncode == 0, run.stderr
    return run.stdout.split()


@pytest.mark.parametrize(
    "words",
    ["th-ext schema com", "th-ext schema ", "th-ext lock add c", "th-ext validate card.json -e co"],
)
def test_bundled_extension_keys_complete(words: str) -> None:
    assert "commands/v1" in _complete(words)


def test_an_extension_uri_completes() -> None:
    offered = _complete("th-ext schema https://madarauchiha")
    assert offered == [
        "https://madarauchiha-314.github.io/tiny-harness/a2a/ext/commands/v1",
        "https://madarauchiha-314.github.io/tiny-harness/a2a/ext/commands/v2",
    ]


def test_nothing_unknown_completes() -> None:
    assert _complete("th-ext schema zzz") == []


def test_subcommands_complete() -> None:
    assert _complete("th-ext val") == ["validate"]
    assert "conform" in _complete("th-ext co")


def test_completion_sees_the_whole_application_whatever_the_arguments() -> None:
    """The script builds only the subcommand it is asked for, except while completing."""
    assert _complete("th-ext val", "schema") == ["validate"]


@pytest.fixture
def with_draft(tmp_path: Path) -> Path:
    """The repository's extensions folder with a ``commands/v9`` draft copied from v1."""
    from tests.support.new_version import copy_as_draft

    shutil.copytree(REPO / "extensions", tmp_path / "extensions")
    copy_as_draft(tmp_path / "extensions", "commands/v1", "v9")
    return tmp_path


def test_extensions_complete_from_the_folder_the_command_reads(with_draft: Path) -> None:
    folder = str(with_draft / "extensions")
    assert _complete(f"th-ext lock add --extensions-dir {folder} c") == [
        "commands/v1",
        "commands/v2",
        "commands/v9",
    ]
    assert _complete(f"th-ext schema --extensions-dir {folder} commands/") == [
        "commands/v1",
        "commands/v2",
        "commands/v9",
    ]
    bundled = ["commands/v1", "commands/v2"]
    assert _complete("th-ext schema c", cwd=with_draft) == bundled  # the bundled copies
    # lock add reads ./extensions by default: the repository's folder, drafts included
    assert _complete("th-ext lock add c", cwd=with_draft) == [*bundled, "commands/v9"]


def test_a_missing_extensions_folder_completes_nothing(tmp_path: Path) -> None:
    assert _complete(f"th-ext lock add --extensions-dir {tmp_path / 'none'} c") == []


def test_show_completion_prints_the_script_of_the_shell_it_runs_in() -> None:
    """``--show-completion`` takes no shell name: it prints the script of the shell it is
    started from (detected from its parent processes), here bash. The trailing ``:`` keeps
    bash from replacing itself with th-ext, so that bash stays the parent."""
    run = subprocess.run(
        ["bash", "-c", f"{shlex.quote(str(SCRIPT))} --show-completion; :"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert "_TH_EXT_COMPLETE=complete_bash" in run.stdout
    assert "complete -o default -F _th_ext_completion th-ext" in run.stdout
