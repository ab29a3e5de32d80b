"""``th-ext validate --format concise`` (one line per problem) and ``--quiet``."""

from __future__ import annotations

import json
from pathlib import Path

from tests.acceptance.validate.conftest import good_card, run_validate
from th_ext.report import render
from th_ext.validate import Problem, Report


def write_cards(folder: Path) -> None:
    (folder / "card.json").write_text(json.dumps(good_card(), indent=2), encoding="utf-8")
    bad = good_card()
    bad["homepage"] = "https://agent.example"
    bad["capabilities"]["extensions"][0]["params"]["commands"][1]["name"] = "Help"
    (folder / "agent-card.json").write_text(json.dumps(bad, indent=2), encoding="utf-8")


def test_concise_is_one_line_per_problem_then_the_count(tmp_path: Path) -> None:
    write_cards(tmp_path)
    run = run_validate("agent-card.json", "--format", "concise", cwd=tmp_path)
    assert run.code == 1
    assert run.stdout.splitlines() == [
        "agent-card.json:57:3: warning unknown-field 'homepage' is not an A2A 1.0 field here; "
        "clients will ignore it",
        "agent-card.json:27:23: error command-name-pattern command name 'Help' does not match "
        "^[a-z][a-z0-9-]*$",
        "agent-card.json: invalid (1 error, 1 warning)",
    ]
    assert run.stderr == ""


def test_a_valid_card_is_its_count_line_alone(tmp_path: Path) -> None:
    write_cards(tmp_path)
    run = run_validate("card.json", "-f", "concise", cwd=tmp_path)
    assert (run.code, run.stdout) == (0, "card.json: valid (0 errors, 0 warnings)\n")


def test_without_a_line_the_json_pointer_stands_in_its_place() -> None:
    problems = [
        Problem("error", "wrong-type", "/skills/0/id", "'id' must be a string", layer="card"),
        Problem("warning", "deprecated-well-known-path", "", "read from agent.json", "", "source"),
        Problem(
            "error",
            "missing-field",
            "/name",
            "the required field 'name' is missing",
            line=1,
            column=1,
        ),
    ]
    report = Report("http://agent.test", "http://agent.test/card.json", problems)
    assert render(report, "concise").splitlines() == [
        "http://agent.test/card.json: warning deprecated-well-known-path read from agent.json",
        "http://agent.test/card.json:/skills/0/id: error wrong-type 'id' must be a string",
        "http://agent.test/card.json:1:1: error missing-field the required field 'name' is missing",
        "http://agent.test/card.json: invalid (2 errors, 1 warning)",
    ]


def test_several_cards_share_one_count_line(tmp_path: Path) -> None:
    write_cards(tmp_path)
    run = run_validate("card.json", "agent-card.json", "-f", "concise", cwd=tmp_path)
    assert run.code == 1
    lines = run.stdout.splitlines()
    assert [line.split(":")[0] for line in lines[:-1]] == ["agent-card.json"] * 2
    assert lines[-1] == "2 cards: 1 valid, 1 invalid (1 error, 1 warning)"


def test_concise_gives_a_source_that_cannot_be_read_as_its_one_line(tmp_path: Path) -> None:
    run = run_validate("missing.json", "-f", "concise", cwd=tmp_path)
    assert (run.code, run.stderr) == (2, "")
    assert run.stdout.splitlines() == [
        "missing.json: error unreadable missing.json: no such file",
        "missing.json: no card could be read (1 error, 0 warnings)",
    ]


def test_quiet_drops_the_source_and_document_ok_lines(tmp_path: Path) -> None:
    write_cards(tmp_path)
    loud = run_validate("agent-card.json", cwd=tmp_path).stdout.splitlines()
    quiet = run_validate("agent-card.json", "--quiet", cwd=tmp_path).stdout.splitlines()
    assert "source: ok" in loud and "document: ok" in loud
    assert quiet == [line for line in loud if line not in ("source: ok", "document: ok")]
    assert run_validate("card.json", "-q", cwd=tmp_path).stdout.splitlines()[-3:] == [
        "extensions: ok",
        "",
        "valid (0 errors, 0 warnings)",
    ]


def test_a_file_that_is_not_json_is_placed_at_its_line_and_column(tmp_path: Path) -> None:
    (tmp_path / "trunc.json").write_text('{"name":\n  "x', encoding="utf-8")
    run = run_validate("trunc.json", "-f", "concise", cwd=tmp_path)
    assert run.code == 2
    assert run.stdout.splitlines() == [
        "trunc.json:2:3: error invalid-json not JSON: Unterminated string starting at line 2 "
        "column 3",
        "trunc.json: no card could be read (1 error, 0 warnings)",
    ]
