"""What validate says about a hand-written card with the usual mistakes: each problem at its
line with a caret, in the card's order, a did-you-mean for a misspelt key, the keys allowed, a
value for a missing member, totals that count every problem, and several cards at once."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.acceptance.validate.conftest import good_card, run_validate

COMMANDS = "/capabilities/extensions/0/params/commands"


def _write(folder: Path, card: dict[str, Any], name: str = "card.json") -> str:
    (folder / name).write_text(json.dumps(card, indent=2), encoding="utf-8")
    return name


def _commands(card: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = card["capabilities"]["extensions"][0]["params"]["commands"]
    return found


def _problem(run_json: dict[str, Any], path: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = [p for p in run_json["problems"] if p["path"] == path]
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize(
    ("wrong", "meant"), [("argument_hnit", "argument_hint"), ("argumentHint", "argument_hint")]
)
def test_a_misspelt_params_key_gets_the_name_it_stands_for(
    tmp_path: Path, wrong: str, meant: str
) -> None:
    card = good_card()
    command = _commands(card)[0]
    command[wrong] = command.pop("argument_hint", "")
    run = run_validate(_write(tmp_path, card), "-f", "json", cwd=tmp_path)
    problem = _problem(run.report, f"{COMMANDS}/0/{wrong}")
    assert problem["hint"] == (
        f"did you mean {meant!r}? The keys allowed here are argument_hint, description and name"
    )
    text = (tmp_path / "card.json").read_text().split("\n")
    assert text[problem["line"] - 1][problem["column"] - 1 :].startswith(f'"{wrong}"')


def test_an_unknown_key_with_no_likely_name_lists_the_allowed_keys(tmp_path: Path) -> None:
    card = good_card()
    _commands(card)[0]["aliases"] = ["m"]
    run = run_validate(_write(tmp_path, card), "-f", "json", cwd=tmp_path)
    hint = _problem(run.report, f"{COMMANDS}/0/aliases")["hint"]
    assert (
        hint
        == "remove it or rename it: the keys allowed here are argument_hint, description and name"
    )
    assert "additionalProperties" not in json.dumps(run.report)


def test_a_misspelt_card_field_gets_the_a2a_name(tmp_path: Path) -> None:
    card = good_card()
    card["skils"] = card.pop("skills")
    run = run_validate(_write(tmp_path, card), "-f", "json", cwd=tmp_path)
    assert _problem(run.report, "/skils")["hint"] == "did you mean 'skills'?"
    missing = _problem(run.report, "/skills")
    assert missing["hint"].startswith(
        'add "skills": [{"id": "…", "name": "…", "description": "…", "tags": ["…"]}]; '
    )
    assert "the official A2A SDKs leave an empty list out of the card" in missing["hint"]


def test_a_missing_member_is_shown_at_its_object_with_a_value_that_passes(tmp_path: Path) -> None:
    card = good_card()
    del _commands(card)[1]["name"]
    del card["supportedInterfaces"][0]["protocolVersion"]
    run = run_validate(_write(tmp_path, card), "-f", "json", cwd=tmp_path)
    lines = (tmp_path / "card.json").read_text().split("\n")
    name = _problem(run.report, f"{COMMANDS}/1/name")
    assert name["hint"] == 'add "name": "…"'
    assert lines[name["line"] - 1][name["column"] - 1] == "{"  # the command it belongs in
    version = _problem(run.report, "/supportedInterfaces/0/protocolVersion")
    assert version["hint"] == 'add "protocolVersion": "1.0"'
    # Passing the hint's value makes the problem go away.
    _commands(card)[1]["name"] = "fixed"
    card["supportedInterfaces"][0]["protocolVersion"] = "1.0"
    assert run_validate(_write(tmp_path, card), cwd=tmp_path).code == 0


def test_text_shows_each_problem_at_its_line_with_a_caret_in_the_card_order(
    tmp_path: Path,
) -> None:
    card = good_card()
    _commands(card)[2]["name"] = "Review"
    _commands(card)[0]["argument_hnit"] = _commands(card)[0].pop("argument_hint")
    _commands(card)[1]["name"] = "Help"
    run = run_validate(_write(tmp_path, card), cwd=tmp_path)
    lines = (tmp_path / "card.json").read_text().split("\n")
    output = run.stdout.split("\n")
    places = [
        (int(m.group(1)), int(m.group(2)))
        for line in output
        if (m := re.search(r"\(card\.json:(\d+):(\d+)\)$", line))
    ]
    assert len(places) == 3
    assert places == sorted(places)
    for line, column in places:
        [at] = [i for i, text in enumerate(output) if text.endswith(f"(card.json:{line}:{column})")]
        source, caret = output[at + 2], output[at + 3]
        assert source == f"    {line} | {lines[line - 1]}"
        gutter = len(f"    {line} | ")
        assert caret.index("^") == gutter + column - 1
        assert caret[: gutter - 2].strip() == ""


def test_the_summary_counts_every_problem_not_only_those_listed(tmp_path: Path) -> None:
    card = good_card()
    card["capabilities"]["extensions"][0]["params"]["commands"] = [
        {"name": f"Bad{i}", "description": "d"} for i in range(300)
    ]
    run = run_validate(_write(tmp_path, card), cwd=tmp_path)
    assert run.stdout.rstrip().endswith("invalid (300 errors, 0 warnings)")
    as_json = run_validate("card.json", "-f", "json", cwd=tmp_path).report
    assert as_json["summary"]["errors"] == 300
    assert len(as_json["problems"]) == 101  # 100 listed and one "and 200 more"


def test_several_sources_are_each_reported_and_the_worst_code_wins(tmp_path: Path) -> None:
    good = _write(tmp_path, good_card(), "good.json")
    broken = good_card()
    _commands(broken)[0]["name"] = "Model"
    bad = _write(tmp_path, broken, "bad.json")
    run = run_validate(good, bad, cwd=tmp_path)
    assert run.code == 1
    assert "th-ext validate good.json" in run.stdout and "th-ext validate bad.json" in run.stdout
    assert run.stdout.rstrip().endswith("2 cards: 1 valid, 1 invalid")
    missing = run_validate(good, "missing.json", bad, cwd=tmp_path)
    assert missing.code == 2
    assert "missing.json" in missing.stderr
    assert missing.stdout.rstrip().endswith("3 cards: 1 valid, 1 invalid, 1 could not be read")
    as_json = run_validate(good, bad, "-f", "json", cwd=tmp_path)
    assert [r["exit_code"] for r in json.loads(as_json.stdout)] == [0, 1]
    as_junit = run_validate(good, bad, "-f", "junit", cwd=tmp_path).stdout
    assert as_junit.count("<testsuite ") == 8
    assert re.search(r'<testsuites name="th-ext validate" tests="\d+" failures="1"', as_junit)
