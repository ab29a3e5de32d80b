"""The dispatch rule's decisions in full: the call, the name and the reason, word for word.

``th-ext dispatch`` prints the reason, so its exact words are part of the rule's output.
"""

from __future__ import annotations

from typing import Any

import pytest

from th_ext.commands import CommandCall, CommandDecision, decide

REGISTERED = ("model", "help")


def text_message(text: Any) -> dict[str, Any]:
    return {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": text}]}


@pytest.mark.parametrize(
    ("message", "decision"),
    [
        (
            text_message("/model fast"),
            CommandDecision(
                CommandCall("model", "fast"), "model", "'model' is a registered command"
            ),
        ),
        (
            text_message("/help"),
            CommandDecision(CommandCall("help", ""), "help", "'help' is a registered command"),
        ),
        (text_message("/"), CommandDecision(None, "", 'the name after "/" is empty')),
        (text_message("/ model"), CommandDecision(None, "", 'the name after "/" is empty')),
        (
            text_message("/models"),
            CommandDecision(
                None,
                "models",
                "'models' is not registered (did you mean /model?); "
                "the registered commands are /model, /help",
            ),
        ),
        (text_message("hello"), CommandDecision(None, None, 'the text does not begin with "/"')),
        (
            text_message(" /model"),
            CommandDecision(
                None, None, 'the text has whitespace before "/"; a command must begin with "/"'
            ),
        ),
        (
            text_message("\u2003/model"),
            CommandDecision(None, None, 'the text does not begin with "/"'),
        ),
        (text_message(5), CommandDecision(None, None, "the message's text is not a string")),
        ("x", CommandDecision(None, None, "the message is not a JSON object")),
        ({"parts": {}}, CommandDecision(None, None, "the message has no parts list")),
        (
            {"parts": []},
            CommandDecision(
                None, None, "the message has 0 parts; a command message has exactly one"
            ),
        ),
        (
            {"parts": ["/model"]},
            CommandDecision(None, None, "the message's part is not a JSON object"),
        ),
        (
            {"parts": [{"raw": "AA=="}]},
            CommandDecision(None, None, "the message's only part is not a text part (it has raw)"),
        ),
        (
            {"parts": [{"metadata": {}}]},
            CommandDecision(
                None, None, "the message's only part is not a text part (it has no content)"
            ),
        ),
        (
            {"parts": [{"text": "/model", "url": "u"}]},
            CommandDecision(
                None, None, "the message's part has url beside text; it is not a text part"
            ),
        ),
    ],
)
def test_the_decision_in_full(message: Any, decision: CommandDecision) -> None:
    assert decide(message, REGISTERED) == decision


def test_with_nothing_registered_the_reason_says_so() -> None:
    assert decide(text_message("/model"), ()) == CommandDecision(
        None, "model", "'model' is not registered; no commands are registered"
    )
