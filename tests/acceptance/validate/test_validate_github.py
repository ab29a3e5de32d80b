"""``--format github`` and ``file:line:col``: problems land on the right line of the card file."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.acceptance.validate.conftest import good_card, run_validate

COMMAND = re.compile(r"^::(error|warning|notice)(?: ([^:]*))?::(.*)$")


def _broken_card(folder: Path, name: str = "agent-card.json") -> tuple[Path, str]:
    card = good_card()
    card["homepage"] = "https://agent.example"
    card["capabilities"]["extensions"][0]["params"]["commands"][1]["name"] = "Help"
    text = json.dumps(card, indent=2)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path, text


def _properties(raw: str) -> dict[str, str]:
    return dict(item.split("=", 1) for item in raw.split(",")) if raw else {}


def test_each_problem_is_an_annotation_on_its_line(tmp_path: Path) -> None:
    _, text = _broken_card(tmp_path)
    run = run_validate("agent-card.json", "--format", "github", cwd=tmp_path)
    assert run.code == 1
    lines = run.stdout.splitlines()
    commands = [COMMAND.match(line) for line in lines[:-1]]
    assert all(commands), lines
    by_title = {
        _properties(m.group(2))["title"]: (m.group(1), _properties(m.group(2)), m.group(3))
        for m in commands
        if m
    }
    level, props, message = by_title["command-name-pattern"]
    assert level == "error"
    assert props["file"] == "agent-card.json"
    source_line = text.split("\n")[int(props["line"]) - 1]
    assert source_line[int(props["col"]) - 1 :].startswith('"Help"')
    assert message.startswith("command name 'Help' does not match ^[a-z][a-z0-9-]*$ at /")
    assert "%0Ahint: use lower-case letters" in message
    assert by_title["unknown-field"][0] == "warning"
    assert lines[-1] == "th-ext validate agent-card.json: invalid (1 error, 1 warning)"


def test_strict_turns_a_failing_warning_into_an_error(tmp_path: Path) -> None:
    card = good_card()
    card["homepage"] = "https://agent.example"
    (tmp_path / "card.json").write_text(json.dumps(card, indent=2), encoding="utf-8")
    run = run_validate("card.json", "--format", "github", "--strict", cwd=tmp_path)
    assert run.code == 1
    assert run.stdout.startswith("::error file=card.json,line=")


def test_properties_and_message_are_escaped(tmp_path: Path) -> None:
    folder = tmp_path / "a,b:c%d"
    folder.mkdir()
    card = good_card()
    card["x\n::error::forged"] = 1
    (folder / "card.json").write_text(json.dumps(card), encoding="utf-8")
    run = run_validate("a,b:c%d/card.json", "--format", "github", cwd=tmp_path)
    first = run.stdout.splitlines()[0]
    assert first.startswith("::warning file=a%2Cb%3Ac%25d/card.json,line=1,col=")
    assert len(run.stdout.splitlines()) == 2  # the card's line break forged no second command


def test_a_card_from_stdin_names_no_file() -> None:
    card = good_card()
    card["homepage"] = "x"
    run = run_validate("-", "--format", "github", stdin=json.dumps(card).encode())
    assert run.stdout.startswith("::warning line=") is False
    assert run.stdout.startswith("::warning title=unknown-field::")


def test_text_output_shows_file_line_and_column(tmp_path: Path) -> None:
    _, text = _broken_card(tmp_path, "card.json")
    run = run_validate("card.json", cwd=tmp_path)
    match = re.search(r"error command-name-pattern at \S+ \(card\.json:(\d+):(\d+)\)", run.stdout)
    assert match, run.stdout
    line, column = int(match.group(1)), int(match.group(2))
    assert text.split("\n")[line - 1][column - 1 :].startswith('"Help"')


def test_json_output_carries_line_and_column(tmp_path: Path) -> None:
    _, text = _broken_card(tmp_path, "card.json")
    run = run_validate("card.json", "--format", "json", cwd=tmp_path)
    problem = next(
        p for p in json.loads(run.stdout)["problems"] if p["code"] == "command-name-pattern"
    )
    line = text.split("\n")[problem["line"] - 1]
    assert line[problem["column"] - 1 :].startswith('"Help"')
