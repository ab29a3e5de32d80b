"""``closest_name``: the "did you mean" of the dispatch rule's reason."""

from __future__ import annotations

import pytest

from th_ext.commands import closest_name, decide

NAMES = ["model", "help", "review"]


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("models", "model"),  # a letter added
        ("mode", "model"),  # a letter dropped
        ("mdoel", "model"),  # two letters swapped
        ("Model", "model"),  # another case
        ("mod", "model"),  # a short prefix
        ("reveiw", "review"),
        ("hlp", "help"),
    ],
)
def test_a_typo_suggests_the_name(typed: str, meant: str) -> None:
    assert closest_name(typed, NAMES) == meant


@pytest.mark.parametrize("typed", ["deploy", "m", "x", "", "summarise"])
def test_nothing_close_suggests_nothing(typed: str) -> None:
    assert closest_name(typed, NAMES) is None


def test_no_names_suggest_nothing() -> None:
    assert closest_name("model", []) is None


def test_the_name_itself_is_never_suggested() -> None:
    assert closest_name("model", ["model"]) is None


def test_names_that_are_not_strings_are_skipped() -> None:
    assert closest_name("models", [1, None, "model"]) == "model"  # type: ignore[list-item]


def test_of_names_equally_close_the_first_registered_wins() -> None:
    assert closest_name("mode", ["model", "modes"]) == "model"
    assert closest_name("mode", ["modes", "model"]) == "modes"


def test_the_closest_of_several_wins() -> None:
    assert closest_name("reviews", ["review", "reviewer", "rev"]) == "review"


def test_the_reason_names_the_suggestion() -> None:
    message = {"role": "ROLE_USER", "parts": [{"text": "/models fast"}]}
    decision = decide(message, NAMES)
    assert decision.call is None
    assert decision.reason == (
        "'models' is not registered (did you mean /model?); "
        "the registered commands are /model, /help, /review"
    )


def test_no_suggestion_without_a_close_name() -> None:
    decision = decide({"parts": [{"text": "/deploy"}]}, NAMES)
    assert decision.reason == (
        "'deploy' is not registered; the registered commands are /model, /help, /review"
    )


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("protocol_binding", "protocolBinding"),  # snake case
        ("PROTOCOL-BINDING", "protocolBinding"),  # another case and a hyphen
        ("\uff55\uff52\uff4c", "url"),  # full-width letters (NFKC)
    ],
)
def test_a_name_that_differs_only_in_its_form_is_the_closest(typed: str, meant: str) -> None:
    # "protocolVersion" is as close by letters; the same name written another way wins.
    assert closest_name(typed, ["protocolVersion", "protocolBinding", "url"]) == meant


def test_the_same_question_asked_again_gets_the_same_answer() -> None:
    names = ["modes", "model"]
    assert [closest_name("mode", names) for _ in range(3)] == ["modes"] * 3
    assert closest_name("mode", list(reversed(names))) == "model"
