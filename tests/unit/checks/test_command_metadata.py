"""Where the reply names its command (CMD-3, CMD-19), its role (CMD-9) and the task it names
(CMD-11): each check failing on a reply broken in exactly that place."""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.checks.answers import done, reply, send, statuses, stream, task, the
from th_ext.checks import command_checks


def on_stream(answer: dict[str, Any], name: str = "model") -> list[Any]:
    return command_checks(
        stream({"task": task()}, {"statusUpdate": answer}, after=done(answer)), name
    )


def test_metadata_on_the_message_alone_passes_cmd_3_and_fails_the_cmd_19_advice() -> None:
    checks = on_stream(reply(on_event=False))
    assert the(checks, "CMD-3") == ("pass", "status.message.metadata.command name 'model'")
    assert the(checks, "CMD-19") == (
        "fail",
        "only the reply message carries the command metadata; the status update's metadata "
        "has none",
    )


def test_metadata_on_the_event_alone_passes_cmd_3_and_fails_the_cmd_19_advice() -> None:
    checks = on_stream(reply(on_message=False))
    assert the(checks, "CMD-3") == ("pass", "the status update's metadata.command name 'model'")
    assert the(checks, "CMD-19") == (
        "fail",
        "only the status update carries the command metadata; status.message.metadata has "
        "none, so a client reading the message first must fall back to the event",
    )


def test_metadata_in_neither_place_fails_cmd_3_and_leaves_cmd_19_to_it() -> None:
    checks = on_stream(reply(on_message=False, on_event=False))
    assert the(checks, "CMD-3") == (
        "fail",
        "neither the reply message's metadata nor the status update's holds command, so a "
        "client takes this answer for the model's",
    )
    assert the(checks, "CMD-19") == ("skip", "no command metadata in either place (CMD-3)")


def test_another_command_in_one_place_fails_cmd_3_naming_that_place() -> None:
    answer = reply()
    answer["metadata"]["command"] = "help"
    checks = on_stream(answer)
    assert the(checks, "CMD-3") == (
        "fail",
        "the status update's metadata.command is 'help', not 'model'",
    )
    assert statuses(checks)["CMD-19"] == "fail"


@pytest.mark.parametrize(
    ("key", "value"),
    [("task_ref", {"taskId": "t-2", "contextId": "c"}), ("command", "model")],
)
def test_the_two_places_must_hold_the_same_command_and_task_ref(key: str, value: Any) -> None:
    answer = reply()
    answer["metadata"][key] = value
    status, detail = the(on_stream(answer), "CMD-19")
    if key == "command":
        assert status == "pass"
        assert not detail.endswith("they differ")
        return
    assert status == "fail"
    assert detail == (
        "status.message.metadata {'command': 'model', 'task_ref': {'taskId': 't', "
        "'contextId': 'c'}} and the event's {'command': 'model', 'task_ref': {'taskId': 't-2', "
        "'contextId': 'c'}}: they differ"
    )


def test_the_cmd_19_detail_shows_only_the_command_metadata() -> None:
    answer = reply()
    answer["metadata"]["trace"] = "x"
    status, detail = the(on_stream(answer), "CMD-19")
    assert status == "pass"
    assert "trace" not in detail


def test_to_send_message_metadata_only_on_the_task_leaves_cmd_3_and_cmd_19_to_a_stream() -> None:
    answer = reply(on_message=False)
    answered = task(status=answer["status"], metadata={"command": "model"})
    checks = command_checks(send({"task": answered}, after=answered), "model")
    assert the(checks, "CMD-2") == ("pass", "status.message of a task")
    assert the(checks, "CMD-3") == (
        "skip",
        "SendMessage shows no status update, and status.message.metadata has no command: where "
        "the agent put it is judged on a stream",
    )
    assert the(checks, "CMD-19") == (
        "skip",
        "status.message.metadata has no command; the event is judged on a stream",
    )


def test_a_reply_in_the_user_s_role_fails_cmd_9() -> None:
    answer = reply()
    answer["status"]["message"]["role"] = "ROLE_USER"
    assert the(on_stream(answer), "CMD-9") == ("fail", "role 'ROLE_USER'")


@pytest.mark.parametrize(("key", "value"), [("taskId", "t-2"), ("contextId", "c-2")])
def test_a_reply_naming_another_task_or_context_fails_cmd_11(key: str, value: str) -> None:
    answer = reply()
    answer["status"]["message"][key] = value
    shown = {"taskId": "taskId 't'", "contextId": "contextId 'c'"}
    shown[key] = f"{key} {value!r}, not the task's {key[0]!r}"
    assert the(on_stream(answer), "CMD-11") == (
        "fail",
        f"the reply message has {shown['taskId']}, {shown['contextId']}",
    )


def test_a_reply_without_its_ids_says_so_in_words() -> None:
    answer = reply()
    del answer["status"]["message"]["taskId"], answer["status"]["message"]["contextId"]
    assert the(on_stream(answer), "CMD-11") == (
        "fail",
        "the reply message has no taskId and no contextId",
    )
    answer = reply()
    del answer["status"]["message"]["contextId"]
    assert the(on_stream(answer), "CMD-11") == (
        "fail",
        "the reply message has taskId 't', no contextId",
    )
    answer = reply()
    del answer["status"]["message"]["taskId"]
    assert the(on_stream(answer), "CMD-11") == (
        "fail",
        "the reply message has no taskId, contextId 'c'",
    )


def test_to_send_message_the_reply_must_name_the_returned_task() -> None:
    answer = reply()
    answered = {**task(status=answer["status"]), "id": "t-2"}
    checks = command_checks(send({"task": answered}, after=answered), "model")
    assert the(checks, "CMD-11") == (
        "fail",
        "the reply message has taskId 't', not the task's 't-2', contextId 'c'",
    )


def test_a_reply_with_a_context_the_task_has_not_says_so() -> None:
    answer = reply()
    answered = task(status=answer["status"])
    del answered["contextId"]
    checks = command_checks(send({"task": answered}, after=answered), "model")
    assert the(checks, "CMD-11")[1] == (
        "the reply message has taskId 't', contextId 'c', where the task has none"
    )
