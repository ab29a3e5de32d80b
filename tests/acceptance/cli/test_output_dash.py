"""An output of ``-`` is standard output, as a source of ``-`` is standard input: never a file
named ``-``. Where it would mix with the command's own output, or the output is a private key,
it is refused in one line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from th_ext.cli import app

EXAMPLE_CARD = Path(__file__).resolve().parents[3] / "extensions/commands/v1/examples/card.json"


def run(*args: str) -> tuple[int, str, str]:
    outcome = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return outcome.exit_code, outcome.stdout, outcome.stderr


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """card.json, key.pem and h.db (a store with one run)."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(EXAMPLE_CARD, "card.json")
    assert run("keys", "new", "-o", "key.pem")[0] == 0
    assert run("validate", "card.json", "--db", "h.db", "-f", "jsonl")[0] == 0
    return tmp_path


WRITTEN = [
    (["validate", "card.json", "-f", "json", "-o", "-"], '"valid": true'),
    (["validate", "card.json", "card.json", "-f", "jsonl", "-o", "-"], '"valid"'),
    (["validate", "card.json", "-o", "report.txt", "--junit-file", "-"], "<testsuites"),
    (["keys", "jwks", "key.pem", "--kid", "k", "-o", "-"], '"kty": "EC"'),
    (["sign", "card.json", "--key", "key.pem", "--kid", "k", "-o", "-"], '"signatures"'),
    (["history", "h.db", "--html", "-"], "<!DOCTYPE html>"),
]


@pytest.mark.parametrize(("args", "said"), WRITTEN, ids=[" ".join(c[0]) for c in WRITTEN])
def test_dash_is_standard_output(files: Path, args: list[str], said: str) -> None:
    code, stdout, _ = run(*args)
    assert code in (0, 1)
    assert said in stdout
    assert not (files / "-").exists()


REFUSED = [
    (["keys", "new", "-o", "-"], "-o -: a private key is written only to a file of mode 0600"),
    (["validate", "card.json", "--junit-file", "-"], "--junit-file -: standard output carries"),
    (["validate", "card.json", "-o", "-", "--junit-file", "-"], "--junit-file -: standard"),
    (["validate", "card.json", "--resume", "-"], "--resume -: a run is resumed from the file"),
    (["conform", "card.json", "--html", "-"], "--html -: standard output carries"),
]


@pytest.mark.parametrize(("args", "said"), REFUSED, ids=[" ".join(c[0]) for c in REFUSED])
def test_dash_is_refused_where_it_would_mix(files: Path, args: list[str], said: str) -> None:
    code, stdout, stderr = run(*args)
    assert (code, stdout) == (2, "")
    assert stderr.startswith(f"th-ext: error: {said}")
    assert stderr.count("\n") == 1
    assert not (files / "-").exists()


def test_the_jwks_on_standard_output_is_the_file_s(files: Path) -> None:
    assert run("keys", "jwks", "key.pem", "--kid", "k", "-o", "jwks.json")[0] == 0
    code, stdout, _ = run("keys", "jwks", "key.pem", "--kid", "k", "-o", "-")
    assert code == 0
    assert json.loads(stdout) == json.loads((files / "jwks.json").read_text(encoding="utf-8"))
