"""``th_ext.testing.check_card``: the card check an agent's own tests call."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.unit.validate.conftest import example_card
from th_ext.testing import CardCheckFailed, check_card


def _broken() -> dict[str, Any]:
    card = example_card()
    card["capabilities"]["extensions"][0]["params"]["commands"][0]["name"] = "Model"
    return card


def test_a_valid_card_returns_its_report_from_every_kind_of_input(tmp_path: Path) -> None:
    card = example_card()
    path = tmp_path / "agent-card.json"
    path.write_text(json.dumps(card), encoding="utf-8")
    for given in (card, path, str(path), path.read_bytes()):
        report = check_card(given)
        assert report.valid
        assert report.exit_code == 0


def test_an_invalid_card_raises_an_assertion_with_every_problem_and_its_line(
    tmp_path: Path,
) -> None:
    path = tmp_path / "agent-card.json"
    path.write_text(json.dumps(_broken(), indent=2), encoding="utf-8")
    with pytest.raises(CardCheckFailed) as raised:
        check_card(path)
    assert isinstance(raised.value, AssertionError)
    message = str(raised.value)
    first, second = message.splitlines()[:2]
    assert first == (
        "command name 'Model' does not match ^[a-z][a-z0-9-]*$ (command-name-pattern at "
        f"/capabilities/extensions/0/params/commands/0/name); agent card {path} is not valid:"
        " 1 problem"
    )
    assert second.startswith(
        "  error command-name-pattern at /capabilities/extensions/0/params/commands/0/name"
        f" ({path}:"
    )
    assert "command name 'Model' does not match ^[a-z][a-z0-9-]*$" in second
    assert raised.value.report.exit_code == 1


def test_strict_fails_on_warnings_and_extensions_are_required() -> None:
    card = example_card()
    card["homepage"] = "https://agent.example"
    assert check_card(card).valid
    with pytest.raises(CardCheckFailed, match="unknown-field"):
        check_card(card, strict=True)
    del card["capabilities"]["extensions"]
    with pytest.raises(CardCheckFailed):
        check_card(card, extensions=("commands/v1",))


def test_a_missing_file_fails_with_the_report_th_ext_validate_gives(tmp_path: Path) -> None:
    with pytest.raises(CardCheckFailed) as failed:
        check_card(tmp_path / "nope.json")
    report = failed.value.report
    assert report.exit_code == 2 and not report.card_read
    assert [p.code for p in report.problems] == ["unreadable"]
    assert "no such file" in str(failed.value).splitlines()[0]
