"""The README's rule for input that cannot be used, read from the README and checked against
what th-ext does: every kind of input it names, with every command it names."""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.acceptance.validate.conftest import CardServer, good_card, serve_routes
from th_ext.cli import main

README = Path(__file__).resolve().parents[3] / "README.md"
RULE = " ".join(README.read_text(encoding="utf-8").split())
NEED_A_CARD = re.search(r"`(\w+)`, `(\w+)` and `(\w+)` say what is wrong with it", RULE)


def _listed(after: str) -> list[str]:
    found = re.search(re.escape(after) + r" \(([^)]*)\)", RULE)
    assert found is not None, f"the README no longer says {after!r}"
    return [kind.strip() for kind in found.group(1).split(",")]


UNREADABLE = _listed("cannot be read at all")
NOT_A_CARD = _listed("is read but is not a card")
NOT_A_CARD_BYTES = {
    "empty": b"",
    "not UTF-8": b'{"name": "caf\xe9"}',
    "not JSON": b'{"name": "x',
    "not a JSON object": b"[]",
}


@pytest.fixture(scope="module")
def server() -> Iterator[CardServer]:
    with serve_routes() as state:
        yield state


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _unreadable(kind: str, tmp_path: Path, server: CardServer) -> list[str]:
    card = tmp_path / "card.json"
    card.write_text(json.dumps(good_card()), encoding="utf-8")
    sources = {
        "no such file": [str(tmp_path / "nope.json")],
        "no answer": [f"http://127.0.0.1:{_closed_port()}/card.json", "--timeout", "5"],
        "an HTTP error": [server.url("/gone.json")],
        "over the size cap": [str(card), "--max-bytes", "10"],
    }
    return sources[kind]


def _run(capsys: pytest.CaptureFixture[str], command: str, *args: str) -> tuple[int, str, str]:
    source, *options = args
    text = ["/model"] if command == "dispatch" else []
    with pytest.raises(SystemExit) as ended:
        main([command, source, *text, *options])
    out, err = capsys.readouterr()
    return int(ended.value.code or 0), out, err


def test_the_readme_states_the_rule() -> None:
    assert UNREADABLE == ["no such file", "no answer", "an HTTP error", "over the size cap"]
    assert set(NOT_A_CARD) == set(NOT_A_CARD_BYTES)
    assert NEED_A_CARD is not None
    assert "Both exit with code 2" in RULE


@pytest.mark.parametrize("command", ["validate", "commands", "dispatch", "conform"])
@pytest.mark.parametrize("kind", UNREADABLE)
def test_input_that_cannot_be_read_is_one_line_on_stderr(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, server: CardServer, command: str, kind: str
) -> None:
    code, out, err = _run(capsys, command, *_unreadable(kind, tmp_path, server))
    assert (code, out) == (2, "")
    assert err.startswith("th-ext: error: ")
    assert err.count("\n") == 1


@pytest.mark.parametrize("kind", UNREADABLE)
def test_concise_gives_input_that_cannot_be_read_as_a_problem(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, server: CardServer, kind: str
) -> None:
    assert "`validate --format concise` prints it as a problem on standard output" in RULE
    args = _unreadable(kind, tmp_path, server)
    code, out, err = _run(capsys, "validate", *args, "-f", "concise")
    assert (code, err) == (2, "")
    assert re.match(r"\S+: error [a-z-]+ ", out.splitlines()[0])


@pytest.mark.parametrize("kind", UNREADABLE)
def test_json_carries_the_error_of_input_that_cannot_be_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, server: CardServer, kind: str
) -> None:
    code, out, err = _run(capsys, "validate", *_unreadable(kind, tmp_path, server), "-f", "json")
    assert (code, err) == (2, "")
    assert json.loads(out)["card_read"] is False


@pytest.mark.parametrize("kind", NOT_A_CARD)
def test_validate_reports_input_that_is_not_a_card(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str
) -> None:
    path = tmp_path / "card.json"
    path.write_bytes(NOT_A_CARD_BYTES[kind])
    code, out, err = _run(capsys, "validate", str(path))
    assert (code, err) == (2, "")
    assert out.rstrip("\n").splitlines()[-1].startswith("no card could be read (1 error")
    if kind == "not JSON":
        assert "line 1 column 10" in out
        assert '      {"name": "x\n               ^\n' in out
        assert "hint: " in out


@pytest.mark.parametrize("command", NEED_A_CARD.groups() if NEED_A_CARD else ())
@pytest.mark.parametrize("kind", NOT_A_CARD)
def test_the_commands_that_need_a_card_say_it_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str, kind: str
) -> None:
    path = tmp_path / "card.json"
    path.write_bytes(NOT_A_CARD_BYTES[kind])
    code, out, err = _run(capsys, command, str(path))
    assert (code, out) == (2, "")
    assert err.startswith(f"th-ext: error: {path}: ")
    assert err.count("\n") == 1
