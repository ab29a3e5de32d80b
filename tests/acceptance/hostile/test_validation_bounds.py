"""Validation ends, cleanly and soon, whatever the card or the --schema holds: numbers past the
int-string limit, $ref cycles, catastrophic regex patterns, and millions of faults of a kind."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.acceptance.hostile.conftest import EXAMPLE_CARD, Result
from th_ext.validate import validate_bytes
from th_ext.validate._limits import MAX_PER_CODE, MAX_PER_LAYER

SCHEMA = EXAMPLE_CARD.parents[1] / "schema.json"
COMMANDS_URI = "https://madarauchiha-314.github.io/tiny-harness/a2a/ext/commands/v1"


def _card() -> dict[str, Any]:
    value: dict[str, Any] = json.loads(EXAMPLE_CARD.read_text(encoding="utf-8"))
    return value


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("where", ["version", "skills", "capabilities"])
def test_a_number_past_the_int_string_limit_is_a_document_problem(
    th_ext: Callable[..., Result], tmp_path: Path, where: str
) -> None:
    card = _card()
    card[where] = "HUGE"
    path = _write(tmp_path, "card.json", json.dumps(card).replace('"HUGE"', "7" * 5000))
    result = th_ext("validate", path, "-f", "json")
    assert result.exit_code == 2
    problems = json.loads(result.stdout)["problems"]
    assert [(p["code"], p["path"]) for p in problems] == [("number-too-long", f"/{where}")]
    assert problems[0]["line"] == 1
    assert problems[0]["excerpt"].endswith("^")
    for command in (["commands", path], ["dispatch", path, "/model"]):
        other = th_ext(*command)
        assert other.exit_code == 2
        assert "a number has more than" in other.stderr


def test_a_number_past_the_limit_in_a_schema(th_ext: Callable[..., Result], tmp_path: Path) -> None:
    text = SCHEMA.read_text(encoding="utf-8")
    schema = _write(tmp_path, "s.json", text[:-2] + ', "x": ' + "1" * 5000 + "}")
    result = th_ext("validate", str(EXAMPLE_CARD), "--schema", schema)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert "a number has more than" in result.stderr


@pytest.mark.parametrize(
    "schema",
    [
        {"$ref": "#"},
        {"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"},
        {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}},
         "properties": {"commands": {"$ref": "#/$defs/a"}}},
    ],
)  # fmt: skip
def test_a_ref_cycle_in_schema_is_one_line(
    th_ext: Callable[..., Result], tmp_path: Path, schema: dict[str, Any]
) -> None:
    path = _write(tmp_path, "s.json", json.dumps(schema))
    result = th_ext("validate", str(EXAMPLE_CARD), "--schema", path)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert "refers to itself without end" in result.stderr


#: Patterns that backtrack without end on a long run of "a" followed by another character.
#: The pattern engine (``regex``) answers the first ones at once; the last ones it still
#: explores path by path, and there the deadline ends the run.
ANSWERED = ["^(a+)+$", "^(a*)*b$", "^(\\w+\\s?)*$"]
BACKTRACKING = ["^(a|a)*$", "^(a|aa)+$"]


@pytest.mark.parametrize("pattern", ANSWERED)
def test_a_pattern_catastrophic_for_backtracking_is_answered_soon(
    th_ext: Callable[..., Result], tmp_path: Path, pattern: str
) -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    schema["$defs"]["CommandSpec"]["properties"]["name"]["pattern"] = pattern
    card = _card()
    card["capabilities"]["extensions"][0]["params"]["commands"][0]["name"] = "a" * 64 + "!"
    schema_path = _write(tmp_path, "s.json", json.dumps(schema))
    card_path = _write(tmp_path, "card.json", json.dumps(card))
    start = time.monotonic()
    result = th_ext("validate", card_path, "--schema", schema_path, "--timeout", "0.5")
    assert time.monotonic() - start < 5
    assert result.exit_code == 1
    assert f"'{'a' * 64}!' does not match {pattern!r}" in result.stdout


@pytest.mark.parametrize("pattern", BACKTRACKING)
def test_a_catastrophic_pattern_ends_within_the_timeout(
    th_ext: Callable[..., Result], tmp_path: Path, pattern: str
) -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    schema["$defs"]["CommandSpec"]["properties"]["name"]["pattern"] = pattern
    card = _card()
    card["capabilities"]["extensions"][0]["params"]["commands"][0]["name"] = "a" * 64 + "!"
    schema_path = _write(tmp_path, "s.json", json.dumps(schema))
    card_path = _write(tmp_path, "card.json", json.dumps(card))
    start = time.monotonic()
    result = th_ext("validate", card_path, "--schema", schema_path, "--timeout", "0.5")
    assert time.monotonic() - start < 5
    assert result.exit_code == 2
    assert result.stderr == (
        "th-ext: error: the validation did not finish within the timeout (0.5 s)\n"
    )


def _with_commands(items: list[Any]) -> bytes:
    card = _card()
    card["capabilities"]["extensions"] = [{"uri": COMMANDS_URI, "params": {"commands": items}}]
    return json.dumps(card).encode()


def test_problems_of_one_kind_are_listed_up_to_the_cap() -> None:
    report = validate_bytes(_with_commands([0] * 5000), source="card.json")
    codes = [p.code for p in report.problems]
    assert codes.count("schema-violation") == MAX_PER_CODE
    more = [p for p in report.problems if p.code == "more-problems"]
    assert len(more) == 1
    assert more[0].message == (
        f"and {5000 - MAX_PER_CODE} more 'schema-violation' problems like the ones above, "
        "not listed"
    )
    assert more[0].severity == "error"
    assert report.exit_code == 1


def test_duplicate_names_are_capped_too() -> None:
    report = validate_bytes(_with_commands([{"name": "a", "description": "d"}] * 3000), source="c")
    codes = [p.code for p in report.problems]
    assert codes.count("duplicate-command") == MAX_PER_CODE
    assert "and 2899 more 'duplicate-command'" in report.problems[-1].message


def test_a_layer_with_too_many_problems_stops_and_says_so() -> None:
    card = _card()
    card["skills"] = [0] * (MAX_PER_LAYER * 3)
    report = validate_bytes(json.dumps(card).encode(), source="card.json")
    card_layer = [p for p in report.problems if p.layer == "card"]
    assert len(card_layer) <= MAX_PER_CODE * 3
    assert card_layer[-1].code == "too-many-problems"
    assert f"stopped after {MAX_PER_LAYER} problems" in card_layer[-1].message
    assert any(
        p.message.startswith(f"and {MAX_PER_LAYER - MAX_PER_CODE}+ more") for p in card_layer
    )
    assert report.exit_code == 1


def test_non_finite_numbers_are_capped() -> None:
    card = _card()
    text = json.dumps(card)[:-1] + ', "x": [' + ",".join(["NaN"] * 3000) + "]}"
    report = validate_bytes(text.encode(), source="card.json")
    codes = [p.code for p in report.problems]
    assert codes.count("non-finite-number") == MAX_PER_CODE
    assert "and 2900 more 'non-finite-number'" in " ".join(p.message for p in report.problems)
