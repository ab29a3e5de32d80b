"""A failed check's evidence: a few words for each event the agent sent, cleaned and cut."""

from __future__ import annotations

from typing import Any

from th_ext.conform._runner import MAX_EXCERPT, excerpt
from th_ext.net._exchange import RpcExchange


def answer(*results: Any, failure: str | None = None) -> RpcExchange:
    return RpcExchange("SendStreamingMessage", {}, list(results), failure=failure)


def test_each_event_is_its_kind_state_role_text_and_command_metadata() -> None:
    reply = {
        "status": {
            "state": "TASK_STATE_INPUT_REQUIRED",
            "message": {
                "role": "ROLE_AGENT",
                "parts": [{"data": {}}, {"text": "Model set."}],
                "metadata": {"command": "model"},
            },
        },
        "metadata": {"command": "/model"},
    }
    shown = excerpt(
        answer({"task": {"status": {"state": "TASK_STATE_SUBMITTED"}}}, {"statusUpdate": reply})
    )
    assert shown == (
        "task SUBMITTED -> statusUpdate INPUT_REQUIRED agent 'Model set.' "
        "message metadata.command='model' metadata.command='/model'"
    )


def test_a_message_and_an_artifact_show_their_own_text() -> None:
    message = {"role": "ROLE_AGENT", "parts": [{"text": "hi"}], "metadata": {"command": "help"}}
    artifact = {"artifact": {"parts": [{"text": "report"}]}, "metadata": {"command": "review"}}
    assert excerpt(answer({"message": message}, {"artifactUpdate": artifact})) == (
        "message agent 'hi' message metadata.command='help' -> "
        "artifactUpdate 'report' metadata.command='review'"
    )


def test_an_artifact_update_without_an_artifact_and_an_unknown_event_still_show() -> None:
    assert excerpt(answer({"artifactUpdate": {"artifact": "x"}}, 7)) == (
        "artifactUpdate -> an unknown event"
    )


def test_a_message_whose_parts_are_not_a_list_shows_no_text() -> None:
    assert excerpt(answer({"message": {"role": "ROLE_AGENT", "parts": 5}})) == "message agent"
    assert excerpt(answer({"message": {"parts": [{"text": 5}, "x"]}})) == "message"


def test_a_long_text_is_cut_to_sixty_characters() -> None:
    message = {"role": "", "parts": [{"text": "a" * 200}]}
    assert excerpt(answer({"message": message})) == f"message '{'a' * 59}…'"
    exact = {"parts": [{"text": "b" * 60}]}
    assert excerpt(answer({"message": exact})) == f"message '{'b' * 60}'"


def test_only_the_first_eight_events_are_shown_then_the_count_of_the_rest() -> None:
    events = [{"statusUpdate": {"status": {"state": "TASK_STATE_WORKING"}}}] * 11
    assert excerpt(answer(*events)) == " -> ".join(["statusUpdate WORKING"] * 8 + ["3 more"])
    assert excerpt(answer(*events[:8])) == " -> ".join(["statusUpdate WORKING"] * 8)


def test_a_failure_after_the_events_is_named_last() -> None:
    shown = excerpt(answer({"message": {"parts": []}}, failure="the stream broke off"))
    assert shown == "message -> the stream broke off"


def test_without_events_the_problem_or_nothing_is_shown() -> None:
    assert excerpt(answer(failure="HTTP 500")) == "HTTP 500"
    assert excerpt(answer()) == "nothing"


def test_what_the_agent_sent_is_cleaned_and_cut_to_the_limit() -> None:
    message = {"parts": [{"text": "\x1b[31mred\nline"}]}
    assert excerpt(answer({"message": message})) == "message '\\x1b[31mred\\nline'"
    assert excerpt(answer(failure="\x1b[2Jboom\nnow")) == "boom now"
    long = [{"message": {"parts": [{"text": "c" * 100}]}}] * 8
    shown = excerpt(answer(*long))
    assert len(shown) == MAX_EXCERPT == 300
    assert shown.endswith("…")
    assert excerpt(answer(failure="x" * 300)) == "x" * 300
