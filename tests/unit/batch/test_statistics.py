"""``th_ext.batch.Statistics``: the counts by code behind ``--statistics`` and the summary."""

from __future__ import annotations

import json
from pathlib import Path

from th_ext import SourceUnreadableError
from th_ext.batch import Statistics, why_failed
from th_ext.problems import Selection
from th_ext.validate import ValidateOptions, report_for_source_error, validate_bytes

CARD = Path(__file__).resolve().parents[3] / "extensions" / "commands" / "v1" / "examples"


def card_with(unknown: int, bad_names: int = 0) -> bytes:
    card = json.loads((CARD / "card.json").read_text(encoding="utf-8"))
    for index in range(unknown):
        card[f"extra{index}"] = index
    for command in card["capabilities"]["extensions"][0]["params"]["commands"][:bad_names]:
        command["name"] = command["name"].upper()
    return json.dumps(card, indent=2).encode()


def test_an_and_m_more_problem_counts_under_the_code_it_stands_for() -> None:
    report = validate_bytes(card_with(150), source="many.json")
    assert [p.code for p in report.problems].count("unknown-field") == 100  # the cap
    statistics = Statistics()
    statistics.add(report)
    assert [(r.code, r.count, r.sources) for r in statistics.problems] == [
        ("unknown-field", 150, 1)
    ]
    ignored = validate_bytes(
        card_with(150),
        source="x",
        options=ValidateOptions(selection=Selection.parse(None, "unknown-field")),
    )
    assert ignored.problems == [] and ignored.exit_code == 0  # its "and 50 more" went with it


def test_most_frequent_first_then_by_code_and_sources_counted_once() -> None:
    statistics = Statistics()
    statistics.add(validate_bytes(card_with(2, bad_names=2), source="a.json"))
    statistics.add(validate_bytes(card_with(0, bad_names=2), source="b.json"))
    missing = SourceUnreadableError("missing.json: no such file")
    statistics.add(report_for_source_error("missing.json", missing))
    statistics.add(error_code="timeout")
    statistics.add(error_code="timeout")
    rows = [(r.code, r.count, r.sources, r.severity) for r in statistics.problems]
    assert rows == [
        ("command-name-pattern", 4, 2, "error"),
        ("unknown-field", 2, 1, "warning"),
    ]
    assert [(r.code, r.count) for r in statistics.errors] == [("timeout", 2), ("unreadable", 1)]
    assert statistics.to_dict()["sources"] == 5


def test_the_first_problem_is_the_first_that_fails_the_card() -> None:
    report = validate_bytes(card_with(1, bad_names=1), source="a.json")
    assert report.problems[0].code == "unknown-field"  # a warning comes first
    why = why_failed(report)
    assert why is not None and why.code == "command-name-pattern"
    assert why_failed(error=("timeout", "no answer\x1b[2J in 5 s")) == (
        "timeout",
        "no answer in 5 s",
    )
    assert why_failed(validate_bytes(card_with(0), source="ok.json")) is None
