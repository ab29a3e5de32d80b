"""The model not invoked (CMD-1): nothing beside or after the reply, no artifact gained, the
reply still the task's status message."""

from __future__ import annotations

from typing import Any

from tests.unit.checks.answers import agent_message, done, reply, stream, task, the
from th_ext.checks import command_checks

ARTIFACT = {"artifactId": "a-1", "parts": [{"text": "an answer"}]}


def cmd_1(*events: dict[str, Any], **reads: Any) -> tuple[str, str]:
    return the(command_checks(stream({"task": task()}, *events, **reads), "model"), "CMD-1")


def test_an_artifact_beside_the_reply_fails_cmd_1() -> None:
    answer = reply()
    artifact = {"artifactUpdate": {"taskId": "t", "contextId": "c", "artifact": ARTIFACT}}
    assert cmd_1({"statusUpdate": answer}, artifact, after=done(answer)) == (
        "fail",
        "the answer holds artifactUpdate beside the reply",
    )


def test_a_message_beside_the_reply_fails_cmd_1() -> None:
    answer = reply()
    assert cmd_1({"statusUpdate": answer}, {"message": agent_message()}, after=done(answer)) == (
        "fail",
        "the answer holds message beside the reply",
    )


def test_a_model_message_after_the_reply_fails_cmd_1() -> None:
    answer = reply()
    later = {
        "taskId": "t",
        "contextId": "c",
        "status": {"state": "TASK_STATE_WORKING", "message": agent_message("hi")},
    }
    assert cmd_1({"statusUpdate": answer}, {"statusUpdate": later}, after=done(answer)) == (
        "fail",
        "1 message followed the reply: the model answered",
    )


def test_an_update_without_a_message_after_the_reply_is_not_a_model_answer() -> None:
    answer = reply()
    later = {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_INPUT_REQUIRED"}}
    assert cmd_1({"statusUpdate": answer}, {"statusUpdate": later}, after=done(answer)) == (
        "pass",
        "no model answer, no artifact",
    )


def test_a_task_that_gained_an_artifact_fails_cmd_1() -> None:
    answer = reply()
    assert cmd_1({"statusUpdate": answer}, after=done(answer, artifacts=[ARTIFACT])) == (
        "fail",
        "the task gained an artifact",
    )
    new = stream(
        {"task": task("TASK_STATE_SUBMITTED")},
        {"statusUpdate": answer},
        after=done(answer, artifacts=[ARTIFACT]),
        new=True,
    )
    assert the(command_checks(new, "model"), "CMD-1") == ("fail", "the task gained an artifact")


def test_an_artifact_the_task_had_before_is_not_gained() -> None:
    answer = reply()
    before = task(artifacts=[ARTIFACT])
    assert cmd_1(
        {"statusUpdate": answer}, before=before, after=done(answer, artifacts=[ARTIFACT])
    ) == ("pass", "no model answer, no artifact")


def test_another_status_message_on_the_task_after_the_reply_fails_cmd_1() -> None:
    answer = reply()
    after = done(answer)
    after["status"]["message"]["messageId"] = "m-2"
    assert cmd_1({"statusUpdate": answer}, after=after) == (
        "fail",
        "after the reply the task's status message is another one: the model answered",
    )


def test_a_reply_without_a_message_id_is_not_compared_with_the_task() -> None:
    answer = reply()
    del answer["status"]["message"]["messageId"]
    assert cmd_1({"statusUpdate": answer}, after=task()) == ("pass", "no model answer, no artifact")


def test_without_a_task_after_the_reply_cmd_1_judges_the_answer_alone() -> None:
    checks = command_checks(stream({"task": task()}, {"statusUpdate": reply()}), "model")
    assert the(checks, "CMD-1") == ("pass", "no model answer, no artifact")
    assert the(checks, "CMD-5") == (
        "fail",
        "GetTask after the message failed, so the state cannot be compared",
    )


def test_everything_beside_the_reply_is_named() -> None:
    answer = reply()
    artifact = {"artifactUpdate": {"taskId": "t", "contextId": "c", "artifact": ARTIFACT}}
    events = ({"statusUpdate": answer}, artifact, {"message": agent_message()})
    assert cmd_1(*events, after=done(answer)) == (
        "fail",
        "the answer holds artifactUpdate, message beside the reply",
    )
