"""A card's parsed value is left to the process's end inside ``kept_until_exit()``, and freed
as usual everywhere else, or when problems must still be placed on the text."""

from __future__ import annotations

import json
from typing import Any

from th_ext._exit_kept import keep_until_exit, kept_until_exit
from th_ext.validate import validate_bytes

# ``card`` (the bundled example, fresh for each test) comes from this folder's conftest.


def test_a_valid_card_is_kept_until_the_scope_closes(card: dict[str, Any]) -> None:
    with kept_until_exit() as kept:
        report = validate_bytes(json.dumps(card).encode(), source="card.json")
        assert report.exit_code == 0
        assert kept == [card]
    assert kept == []  # released when the scope closed


def test_nothing_is_kept_outside_the_scope(card: dict[str, Any]) -> None:
    validate_bytes(json.dumps(card).encode(), source="card.json")
    keep_until_exit(card)
    with kept_until_exit() as kept:
        assert kept == []


def test_a_card_whose_problems_are_placed_is_freed_first(card: dict[str, Any]) -> None:
    card["capabilities"]["extensions"][0]["params"]["commands"][0]["name"] = "Model"
    with kept_until_exit() as kept:
        report = validate_bytes(json.dumps(card, indent=2).encode(), source="card.json")
        assert [p.code for p in report.problems] == ["command-name-pattern"]
        assert report.problems[0].line is not None
        assert kept == []


def test_an_unreadable_document_keeps_nothing() -> None:
    with kept_until_exit() as kept:
        report = validate_bytes(b"{ not json", source="card.json")
        assert report.exit_code == 2
        assert kept == []


def test_scopes_nest_and_each_releases_its_own() -> None:
    with kept_until_exit() as outer:
        keep_until_exit("outer")
        with kept_until_exit() as inner:
            keep_until_exit("inner")
            assert inner == ["inner"]
        assert inner == []
        assert outer == ["outer"]
