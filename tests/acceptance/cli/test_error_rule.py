"""One rule for input that cannot be used, in every command.

Text mode: one line on standard error, nothing on standard output, exit 2. ``--format json``,
``junit`` or ``github``: a document on standard output that carries the error, exit 2.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.support.cli_tree import command_paths
from th_ext.cli import app

FORMATS = {
    "validate": ("text", "json", "junit", "github"),
    "commands": ("text", "json"),
    "dispatch": ("text", "json"),
    "conform": ("text", "json", "junit", "github"),
}
CASES = [(command, output) for command, formats in FORMATS.items() for output in formats]
SCRIPT = Path(sys.executable).with_name("th-ext")
EXAMPLE_CARD = Path(__file__).resolve().parents[3] / "extensions/commands/v1/examples/card.json"


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def _args(command: str, source: str, output: str) -> list[str]:
    extra = ["/model"] if command == "dispatch" else []
    return [command, source, *extra, "--format", output]


@pytest.mark.parametrize(("command", "output"), CASES)
def test_a_missing_file(tmp_path: Path, command: str, output: str) -> None:
    missing = str(tmp_path / "nope.json")
    code, stdout, stderr = _run(*_args(command, missing, output))
    assert code == 2
    if output == "text":
        assert stdout == ""
        assert stderr == f"th-ext: error: {missing}: no such file\n"
        return
    assert stderr == ""
    if output == "json":
        document = json.loads(stdout)
        if command == "validate":
            assert document["card_read"] is False
            assert [p["code"] for p in document["problems"]] == ["unreadable"]
        else:
            assert document["command"] == command
            assert document["exit_code"] == 2
            assert document["error"] == {
                "code": "unreadable",
                "message": f"{missing}: no such file",
            }
    elif output == "junit":
        suites = ET.fromstring(stdout)
        failed = sum(int(s.get("errors", 0)) + int(s.get("failures", 0)) for s in suites.iter())
        assert failed >= 1
        assert "no such file" in stdout
    else:
        assert stdout.startswith("::error")
        assert "no such file" in stdout


@pytest.mark.parametrize(("command", "output"), CASES)
def test_a_file_that_is_not_json(tmp_path: Path, command: str, output: str) -> None:
    path = tmp_path / "card.json"
    path.write_text("<html>not a card</html>", encoding="utf-8")
    code, stdout, stderr = _run(*_args(command, str(path), output))
    assert code == 2
    if output == "json":
        json.loads(stdout)
    elif output == "junit":
        ET.fromstring(stdout)
    elif output == "text" and command != "validate":  # validate reports where the JSON breaks
        assert stdout == ""
        assert stderr.count("\n") == 1


@pytest.mark.parametrize(
    "args",
    [
        ["schema", "nope/v9"],
        ["extensions", "--extensions-dir", "/nonexistent-th-ext"],
        ["lock", "check", "--extensions-dir", "/nonexistent-th-ext"],
        ["lock", "add", "commands/v9"],
        ["dispatch", str(EXAMPLE_CARD), "/model", "--message", "/nonexistent-th-ext.json"],
    ],
    ids=lambda args: " ".join(args[:2]),
)
def test_other_commands_follow_the_rule(args: list[str]) -> None:
    code, stdout, stderr = _run(*args)
    assert code == 2
    assert stdout == ""
    assert stderr.startswith("th-ext: error: ")
    assert stderr.count("\n") == 1


@pytest.mark.parametrize("path", command_paths(), ids=lambda p: " ".join(p) or "th-ext")
def test_every_command_takes_debug(path: list[str]) -> None:
    code, stdout, _ = _run(*path, "--help")
    assert code == 0
    assert "--debug" in stdout


def test_debug_is_accepted_after_the_arguments() -> None:
    code, stdout, _ = _run("extensions", "--debug", "--format", "json")
    assert code == 0
    assert json.loads(stdout)[0]["name"] == "commands"


def _closed_pipe(*args: str) -> subprocess.CompletedProcess[bytes]:
    reader, writer = os.pipe()
    os.close(reader)
    try:
        return subprocess.run(
            [SCRIPT, *args], stdout=writer, stderr=subprocess.PIPE, timeout=60, check=False
        )
    finally:
        os.close(writer)


@pytest.mark.parametrize(
    "args",
    [
        ["commands", str(EXAMPLE_CARD)],
        ["commands", str(EXAMPLE_CARD), "--format", "json"],
        ["dispatch", str(EXAMPLE_CARD), "/model fast"],
        ["dispatch", str(EXAMPLE_CARD), "/model fast", "--format", "json"],
        ["validate", str(EXAMPLE_CARD)],
        ["extensions"],
        ["schema", "commands/v1"],
    ],
    ids=lambda args: " ".join(args[:1] + args[2:]),
)
def test_a_closed_pipe_ends_quietly(args: list[str]) -> None:
    run = _closed_pipe(*args)
    assert run.stderr == b""
    assert run.returncode == 141


def test_closed_standard_output_discards_the_output() -> None:
    run = subprocess.run(
        [SCRIPT, "commands", str(EXAMPLE_CARD)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        timeout=60,
        check=False,
        pass_fds=(),
        preexec_fn=lambda: os.close(1),
    )
    assert run.returncode == 0
    assert run.stderr == b""


@pytest.mark.parametrize(
    ("lock", "reason"),
    [
        (None, "no lock to check (no such file)"),
        (b"\xe6\x00\xff", "cannot be read (not UTF-8 text)"),
        ("a folder", "cannot be read (is a directory)"),
    ],
    ids=["absent", "binary", "a folder"],
)
def test_lock_check_needs_a_lock_it_can_read(
    tmp_path: Path, lock: bytes | str | None, reason: str
) -> None:
    path = tmp_path / "published.lock"
    if isinstance(lock, bytes):
        path.write_bytes(lock)
    elif lock is not None:
        path.mkdir()
    code, stdout, stderr = _run("lock", "check", "--extensions-dir", str(tmp_path))
    assert (code, stdout) == (2, "")
    assert stderr == f"th-ext: error: {path}: {reason}\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
@pytest.mark.parametrize(
    "args",
    [
        ["schema", "commands/v1"],
        ["extensions"],
        ["validate", str(EXAMPLE_CARD)],
        ["validate", str(EXAMPLE_CARD), "--format", "json"],
        ["commands", str(EXAMPLE_CARD)],
    ],
    ids=lambda args: " ".join(args[:1] + args[2:]),
)
def test_full_standard_output_is_one_line(args: list[str]) -> None:
    with Path("/dev/full").open("wb") as full:
        run = subprocess.run(
            [SCRIPT, *args], stdout=full, stderr=subprocess.PIPE, timeout=60, check=False
        )
    assert run.stderr == b"th-ext: error: standard output: no space left on device\n"
    assert run.returncode == 2


@pytest.mark.parametrize("output", ["text", "json"])
def test_extensions_refuses_a_version_without_its_schema(tmp_path: Path, output: str) -> None:
    source = EXAMPLE_CARD.parents[1]
    folder = tmp_path / "commands" / "v1"
    folder.mkdir(parents=True)
    (folder / "extension.toml").write_bytes((source / "extension.toml").read_bytes())
    code, stdout, stderr = _run("extensions", "--extensions-dir", str(tmp_path), "-f", output)
    message = f"{folder / 'schema.json'}: cannot be read (no such file or directory)"
    assert code == 2
    if output == "json":  # the error in the document, as the rule says
        assert json.loads(stdout)["error"]["message"] == message
    else:
        assert (stdout, stderr) == ("", f"th-ext: error: {message}\n")
