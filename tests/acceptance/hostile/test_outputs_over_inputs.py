"""An output that names a file the command reads (the card, the list, a key, the store), or
another output's file, is refused in one line before anything is written: the file is kept
byte for byte."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from th_ext.cli import app

EXAMPLE_CARD = Path(__file__).resolve().parents[3] / "extensions/commands/v1/examples/card.json"
SAID = "th-ext does not write over a file it reads"


def run(*args: str) -> tuple[int, str, str]:
    outcome = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return outcome.exit_code, outcome.stdout, outcome.stderr


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """card.json, list.txt naming it, key.pem and jwks.json (its public part), h.db (a store
    with one run)."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(EXAMPLE_CARD, "card.json")
    Path("list.txt").write_text("card.json\n", encoding="utf-8")
    assert run("keys", "new", "-o", "key.pem")[0] == 0
    assert run("keys", "jwks", "key.pem", "--kid", "k", "-o", "jwks.json")[0] == 0
    assert run("validate", "card.json", "--db", "h.db", "-f", "jsonl")[0] == 0
    return tmp_path


CASES = [
    (["validate", "card.json", "-o", "card.json"], "-o card.json", "the source card.json"),
    (["validate", "card.json", "-o", "./card.json"], "-o card.json", "the source card.json"),
    (["validate", "card.json", "--junit-file", "card.json"], "--junit-file", "the source"),
    (["validate", "card.json", "--resume", "card.json"], "--resume card.json", "the source"),
    (["validate", "--from", "list.txt", "-o", "list.txt"], "-o list.txt", "--from list.txt"),
    (["validate", "card.json", "--db", "h.db", "-o", "h.db"], "-o h.db", "--db h.db"),
    (["validate", "card.json", "--keys", "jwks.json", "-o", "jwks.json"], "-o", "--keys"),
    (["validate", "card.json", "--schema", "list.txt", "-o", "list.txt"], "-o", "--schema"),
    (["conform", "card.json", "--html", "card.json"], "--html card.json", "the source"),
    (["conform", "card.json", "--har", "card.json"], "--har card.json", "the source"),
    (["conform", "card.json", "--junit-file", "h.db", "--db", "h.db"], "--junit-file", "--db"),
    (["dispatch", "card.json", "/help", "--live", "--har", "card.json"], "--har", "the card"),
    (["sign", "card.json", "--key", "key.pem", "--kid", "k", "-o", "key.pem"], "-o", "--key"),
    (["keys", "jwks", "key.pem", "--kid", "k", "-o", "key.pem"], "-o key.pem", "the key"),
    (["history", "h.db", "--html", "h.db"], "--html h.db", "the store h.db"),
]


@pytest.mark.parametrize(("args", "option", "what"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_an_output_over_an_input_is_refused_and_the_input_kept(
    files: Path, args: list[str], option: str, what: str
) -> None:
    before = {path.name: path.read_bytes() for path in files.iterdir()}
    code, out, err = run(*args)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert err.startswith(f"th-ext: error: {option}")
    assert f"the same file as {what}" in err
    assert err.endswith(f"; {SAID}\n")
    assert {path.name: path.read_bytes() for path in files.iterdir()} == before


def test_two_outputs_in_one_file_are_refused(files: Path) -> None:
    code, _, err = run("validate", "card.json", "-o", "out.txt", "--junit-file", "./out.txt")
    assert code == 2
    assert (
        err
        == "th-ext: error: --junit-file out.txt: the same file as -o out.txt; give each its own\n"
    )
    assert not Path("out.txt").exists()


def test_a_link_to_the_card_is_the_card(files: Path) -> None:
    Path("link.json").symlink_to("card.json")
    code, _, err = run("validate", "card.json", "-o", "link.json")
    assert code == 2
    assert "the same file as the source card.json" in err
    assert json.loads(Path("card.json").read_bytes())["name"]


def test_signing_a_card_in_place_and_other_outputs_still_work(files: Path) -> None:
    assert run("sign", "card.json", "--key", "key.pem", "--kid", "k", "-o", "card.json")[0] == 0
    assert json.loads(Path("card.json").read_bytes())["signatures"]
    code, _, _ = run("validate", "card.json", "-o", "report.txt", "--junit-file", "junit.xml")
    assert code == 0
    assert Path("report.txt").read_text(encoding="utf-8").startswith("th-ext validate card.json")
    assert Path("junit.xml").read_text(encoding="utf-8").startswith("<?xml")
