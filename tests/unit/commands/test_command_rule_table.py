"""The dispatch rule on every example the spec gives, and on the edges of each clause."""

from __future__ import annotations

from typing import Any

import pytest

from th_ext.commands import CommandCall, decide, parse_command

REGISTERED = ("model", "help", "review", "set-model")


def one_part(text: str) -> dict[str, Any]:
    return {"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": text}]}


COMMANDS = [
    ("/model", CommandCall("model", "")),
    ("/model fast", CommandCall("model", "fast")),
    ("/model   fast  ", CommandCall("model", "fast")),
    ("/model\tfast", CommandCall("model", "fast")),
    ("/model\nfast\n", CommandCall("model", "fast")),
    ("/model\rfast", CommandCall("model", "fast")),
    ("/model\ffast", CommandCall("model", "fast")),
    ("/model\vfast", CommandCall("model", "fast")),
    ("/model fast and thorough", CommandCall("model", "fast and thorough")),
    ("/model  a \n b ", CommandCall("model", "a \n b")),
    ("/model ", CommandCall("model", "")),
    ("/model \t\n", CommandCall("model", "")),
    ("/help", CommandCall("help", "")),
    ("/review the tests", CommandCall("review", "the tests")),
    ("/set-model x", CommandCall("set-model", "x")),
    ("/model /help", CommandCall("model", "/help")),
    # Non-ASCII whitespace is not whitespace for the rule: it stays in the arguments.
    ("/model \u00a0fast\u00a0", CommandCall("model", "\u00a0fast\u00a0")),
]


@pytest.mark.parametrize(("text", "expected"), COMMANDS, ids=[repr(t) for t, _ in COMMANDS])
def test_a_registered_name_runs_the_command(text: str, expected: CommandCall) -> None:
    assert parse_command(one_part(text), REGISTERED) == expected


ORDINARY_TEXTS = [
    ("/Model", "not registered"),
    (" /model", "whitespace before"),
    ("\t/model fast", "whitespace before"),
    ("/model:x", "not registered"),
    ("//model", "not registered"),
    ("/", "empty"),
    ("/ model", "empty"),
    ("/models", "not registered"),
    ("model", "does not begin"),
    ("", "does not begin"),
    ("hello /model", "does not begin"),
    ("/model\u00a0fast", "not registered"),  # NBSP is not ASCII whitespace: the name is longer
    ("/model\u2003fast", "not registered"),
    ("/model\x1cfast", "not registered"),  # str.split() would split here; the rule does not
    ("/MODEL", "not registered"),
    ("/mod", "not registered"),
]


@pytest.mark.parametrize(("text", "why"), ORDINARY_TEXTS, ids=[repr(t) for t, _ in ORDINARY_TEXTS])
def test_every_other_text_is_an_ordinary_message(text: str, why: str) -> None:
    decision = decide(one_part(text), REGISTERED)
    assert decision.call is None
    assert why in decision.reason


def test_not_registered_names_the_registered_commands() -> None:
    decision = decide(one_part("/models"), ("model", "help"))
    assert decision.name == "models"
    assert (
        decision.reason == "'models' is not registered (did you mean /model?); "
        "the registered commands are /model, /help"
    )


def test_with_no_commands_registered_the_reason_says_so() -> None:
    assert decide(one_part("/model"), ()).reason.endswith("no commands are registered")


ORDINARY_MESSAGES = [
    ({"parts": [{"text": "/model"}, {"text": "fast"}]}, "2 parts"),
    ({"parts": [{"text": "/model"}, {"data": {"x": 1}}]}, "2 parts"),
    ({"parts": []}, "0 parts"),
    ({"parts": [{"data": {"text": "/model"}}]}, "not a text part"),
    ({"parts": [{"url": "https://example.com/model"}]}, "not a text part"),
    ({"parts": [{"raw": "L21vZGVs"}]}, "not a text part"),
    ({"parts": [{"text": "/model", "url": "https://x"}]}, "beside text"),
    ({"parts": [{"text": "/model", "raw": "AA=="}]}, "beside text"),
    ({"parts": [{"text": "/model", "data": {}}]}, "beside text"),
    ({"parts": [{}]}, "no content"),
    ({"parts": [{"text": 7}]}, "not a string"),
    ({"parts": [{"text": None}]}, "not a string"),
    ({"parts": ["/model"]}, "not a JSON object"),
    ({"parts": {"text": "/model"}}, "no parts list"),
    ({}, "no parts list"),
    ("/model", "not a JSON object"),
    (None, "not a JSON object"),
    ([{"text": "/model"}], "not a JSON object"),
]


@pytest.mark.parametrize(
    ("message", "why"), ORDINARY_MESSAGES, ids=[w for _, w in ORDINARY_MESSAGES]
)
def test_a_message_that_is_not_one_text_part_is_ordinary(message: Any, why: str) -> None:
    decision = decide(message, REGISTERED)
    assert decision.call is None
    assert why in decision.reason


def test_a_text_part_may_carry_media_type_and_metadata() -> None:
    message = {"parts": [{"text": "/model fast", "mediaType": "text/plain", "metadata": {"a": 1}}]}
    assert parse_command(message, REGISTERED) == CommandCall("model", "fast")


def test_the_spec_examples(extensions_dir: Any) -> None:
    import json

    examples = extensions_dir / "commands" / "v1" / "examples"
    card = json.loads((examples / "card.json").read_text())
    names = [c["name"] for c in card["capabilities"]["extensions"][0]["params"]["commands"]]
    command = json.loads((examples / "command-message.json").read_text())
    unregistered = json.loads((examples / "unregistered-command.json").read_text())
    assert parse_command(command, names) == CommandCall("model", "fast")
    assert parse_command(unregistered, names) is None


def test_a_name_outside_the_pattern_never_matches_even_if_passed_as_registered() -> None:
    assert parse_command(one_part("/Model"), ["Model"]) is None
    assert parse_command(one_part("/model:x"), ["model:x"]) is None


def test_registered_names_may_be_any_collection() -> None:
    assert parse_command(one_part("/help"), {"help"}) == CommandCall("help", "")
    assert parse_command(one_part("/help"), frozenset()) is None
