"""Every live verdict's status and its words: what ``dispatch --live`` prints for each answer.

The status decides the exit code, so each case asserts it beside the exact detail text.
"""

from __future__ import annotations

from typing import Any

import pytest

from th_ext.dispatch import _verdict as verdict


def message(role: str = "ROLE_AGENT", *texts: str, parts: Any = None) -> dict[str, Any]:
    return {
        "messageId": "m",
        "role": role,
        "parts": parts if parts is not None else [{"text": t} for t in texts or ("ok",)],
    }


def update(
    state: str = "TASK_STATE_INPUT_REQUIRED", reply: Any = None, **extra: Any
) -> dict[str, Any]:
    event: dict[str, Any] = {
        "taskId": "t",
        "contextId": "c",
        "status": {"state": state, "message": reply if reply is not None else message()},
    }
    event.update(extra)
    return event


def task(state: str, **extra: Any) -> dict[str, Any]:
    return {"id": "t", "contextId": "c", "status": {"state": state}, **extra}


def seen(found: verdict.LiveCheck) -> tuple[str, str, str]:
    return found.name, found.status, found.detail


@pytest.mark.parametrize(("ok", "status"), [(True, "pass"), (False, "fail"), (None, "skip")])
def test_check_maps_the_answer_to_a_status(ok: bool | None, status: str) -> None:
    assert seen(verdict.check("x", ok, "why")) == ("x", status, "why")


def test_answered_counts_and_quotes_the_last_message() -> None:
    results: list[Any] = [
        {"task": task("TASK_STATE_WORKING")},
        {"statusUpdate": update(reply=message("ROLE_AGENT", "first"))},
        {"statusUpdate": update(reply=message("ROLE_AGENT", "last", "words"))},
    ]
    assert seen(verdict.answered(results)) == (
        "answered",
        "pass",
        "3 result(s), 2 status update(s); last message: 'last words'",
    )
    assert seen(verdict.answered([])) == ("answered", "pass", "0 result(s), 0 status update(s)")


def test_the_last_message_prefers_a_direct_message_and_skips_parts_without_text() -> None:
    direct = {"message": message(parts=[{"data": {}}, {"text": "hi"}, {"text": 5}])}
    assert verdict.answered([direct]).detail.endswith("last message: 'hi'")
    in_task = {"task": {**task("TASK_STATE_COMPLETED"), "status": {"message": message("R", "t")}}}
    assert verdict.answered([in_task, {"statusUpdate": "x"}]).detail.endswith("last message: 't'")
    no_text = {"statusUpdate": update(reply=message(parts=[{"url": "u"}]))}
    assert verdict.answered([in_task, no_text]).detail.endswith("last message: 't'")
    assert "last message" not in verdict.answered([no_text, None]).detail


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("a  b\n c", "a b c"),
        ("x" * 100, "x" * 100),
        ("x" * 101, "x" * 99 + "…"),
    ],
)
def test_long_messages_are_clipped_to_one_line(text: str, shown: str) -> None:
    results = [{"statusUpdate": update(reply=message("ROLE_AGENT", text))}]
    assert verdict.answered(results).detail.endswith(f"last message: {shown!r}")


def test_the_command_reply_when_streaming() -> None:
    results = [
        {"statusUpdate": update(metadata={"command": "help"})},
        {"statusUpdate": update(metadata={"command": "model"})},
        {"statusUpdate": update(metadata={"other": 1})},
    ]
    reply, found = verdict.command_reply("model", results, streaming=True)
    assert reply is results[1]["statusUpdate"]
    assert seen(found) == (
        "command-reply",
        "pass",
        "a status update has metadata.command = 'model'",
    )
    reply, found = verdict.command_reply("review", results, streaming=True)
    assert reply is None
    assert seen(found) == (
        "command-reply",
        "fail",
        "no status update has metadata.command = 'review' (saw metadata.command help, model)",
    )
    _, none = verdict.command_reply("review", [], streaming=True)
    assert none.detail == "no status update has metadata.command = 'review'"


def test_the_command_reply_without_streaming() -> None:
    results = [
        {"task": task("TASK_STATE_WORKING", metadata={"command": "help"})},
        {"task": task("TASK_STATE_WORKING", metadata={"command": "model"})},
    ]
    reply, found = verdict.command_reply("model", results, streaming=False)
    assert reply is results[1]["task"]
    assert seen(found) == (
        "command-reply",
        "pass",
        "a SendMessage result (task metadata) has metadata.command = 'model'",
    )
    reply, found = verdict.command_reply("help", results, streaming=False)
    assert reply is None
    assert seen(found) == (
        "command-reply",
        "fail",
        "no SendMessage result (task metadata) has metadata.command = 'help'",
    )


@pytest.mark.parametrize(
    ("reply", "status", "detail"),
    [
        (update(), "pass", "status.message (ROLE_AGENT): 'ok'"),
        (
            update(reply=message("ROLE_AGENT", parts=[{"text": "a"}, {"data": 1}, {"text": "b"}])),
            "pass",
            "status.message (ROLE_AGENT): 'a b'",
        ),
        (
            update(reply=message("ROLE_USER")),
            "fail",
            "status.message has role 'ROLE_USER', not ROLE_AGENT",
        ),
        (update(reply=message(parts=[])), "fail", "status.message has no parts"),
        (update(reply=message(parts={"text": "x"})), "fail", "status.message has no parts"),
        ({"status": {"state": "TASK_STATE_WORKING"}}, "fail", "status.message is missing"),
        ({"status": "x"}, "fail", "status.message is missing"),
        ({}, "fail", "status.message is missing"),
    ],
)
def test_the_reply_message(reply: dict[str, Any], status: str, detail: str) -> None:
    assert seen(verdict.reply_message(reply)) == ("reply-message", status, detail)


def test_a_reply_without_role_fails() -> None:
    reply = update()
    del reply["status"]["message"]["role"]
    assert seen(verdict.reply_message(reply)) == (
        "reply-message",
        "fail",
        "status.message has role None, not ROLE_AGENT",
    )


WAITING = "TASK_STATE_INPUT_REQUIRED"


def test_state_unchanged_against_get_task_before() -> None:
    before = task(WAITING)
    assert seen(verdict.state_unchanged(update(), before, [], task(WAITING), streaming=True)) == (
        "state-unchanged",
        "pass",
        f"{WAITING} before (GetTask before), in the reply, and after",
    )
    moved = verdict.state_unchanged(
        update("TASK_STATE_WORKING"), before, [], task("TASK_STATE_COMPLETED"), streaming=False
    )
    assert seen(moved) == (
        "state-unchanged",
        "fail",
        f"{WAITING} before (GetTask before), TASK_STATE_WORKING in the reply, "
        "TASK_STATE_COMPLETED after",
    )
    only_reply = verdict.state_unchanged(
        update("TASK_STATE_WORKING"), before, [], task(WAITING), streaming=True
    )
    assert only_reply.status == "fail"


def test_state_unchanged_without_get_task_after() -> None:
    assert seen(verdict.state_unchanged(update(), task(WAITING), [], None, streaming=True)) == (
        "state-unchanged",
        "fail",
        "GetTask after the message failed, so the state cannot be compared",
    )


def test_a_new_task_compares_with_its_first_streamed_state() -> None:
    results: list[Any] = [
        None,
        {"task": "x"},
        {"task": task("TASK_STATE_WORKING")},
        {"task": task("TASK_STATE_SUBMITTED")},
    ]
    same = verdict.state_unchanged(
        update("TASK_STATE_WORKING"), None, results, task("TASK_STATE_WORKING"), streaming=True
    )
    assert seen(same) == (
        "state-unchanged",
        "pass",
        "TASK_STATE_WORKING before (the task as first streamed), in the reply, and after",
    )


def test_without_an_earlier_state_the_check_is_skipped() -> None:
    results = [{"task": task("TASK_STATE_WORKING")}]
    after = task("TASK_STATE_WORKING")
    for streaming, given in ((False, results), (True, [])):
        skipped = verdict.state_unchanged(update(), None, given, after, streaming=streaming)
        assert seen(skipped) == (
            "state-unchanged",
            "skip",
            "the message created the task and no earlier state was shown "
            "(now TASK_STATE_WORKING); use --task-id to compare",
        )


def test_no_command_reply_when_streaming() -> None:
    flagged = [
        {"statusUpdate": update(metadata={"command": "model"})},
        {"statusUpdate": update(metadata={"command": "help"})},
        {"statusUpdate": update(metadata={"command": "model"})},
        {"statusUpdate": update()},
    ]
    assert seen(verdict.no_command_reply(flagged, None, streaming=True)) == (
        "no-command-reply",
        "fail",
        "3 status update(s) carry metadata.command (help, model)",
    )
    clean = [{"statusUpdate": update()}, {"statusUpdate": update(metadata={})}]
    assert seen(verdict.no_command_reply(clean, None, streaming=True)) == (
        "no-command-reply",
        "pass",
        "none of 2 status update(s) carries metadata.command",
    )


def test_no_command_reply_without_streaming() -> None:
    became = [{"task": task(WAITING, metadata={"command": "model"})}]
    assert seen(verdict.no_command_reply(became, None, streaming=False)) == (
        "no-command-reply",
        "fail",
        "the task's metadata.command became 'model'",
    )
    before = task(WAITING, metadata={"command": "model"})
    assert seen(verdict.no_command_reply(became, before, streaming=False)) == (
        "no-command-reply",
        "pass",
        "the SendMessage result carries no new metadata.command",
    )
    assert verdict.no_command_reply([{"task": task(WAITING)}], None, streaming=False).status == (
        "pass"
    )
    assert verdict.no_command_reply([], before, streaming=False).status == "pass"


@pytest.mark.parametrize(
    ("results", "found"),
    [
        ([{"task": {"id": "t1"}}], "t1"),
        ([{"statusUpdate": {"taskId": "t2"}}], "t2"),
        ([{"artifactUpdate": {"taskId": "t3"}}], "t3"),
        ([{"message": {"taskId": "t4"}}], "t4"),
        ([None, {"task": {"id": ""}}, {"message": {"taskId": 5}}, {"task": {"id": "t5"}}], "t5"),
        ([{"message": {"taskId": "first"}}, {"task": {"id": "second"}}], "first"),
        ([{"task": {"taskId": "wrong-field"}}], None),
        ([], None),
    ],
)
def test_task_id_of(results: list[Any], found: str | None) -> None:
    assert verdict.task_id_of(results) == found


def test_metadata_and_state_read_only_what_has_the_right_type() -> None:
    assert verdict.metadata({"metadata": {"a": 1}}) == {"a": 1}
    assert verdict.metadata({"metadata": [1]}) == {}
    assert verdict.metadata("x") == {}
    assert verdict.state({"status": {"state": "S"}}) == "S"
    assert verdict.state({"status": {"state": 1}}) is None
    assert verdict.state({"status": []}) is None


def test_the_last_message_looks_past_results_that_are_not_objects() -> None:
    results: list[Any] = [{"statusUpdate": update(reply=message("ROLE_AGENT", "said"))}, None, 3]
    assert verdict.answered(results).detail == (
        "3 result(s), 1 status update(s); last message: 'said'"
    )


def test_without_streaming_the_task_is_the_last_result_that_is_a_task() -> None:
    results: list[Any] = [
        {"task": task(WAITING, metadata={"command": "model"})},
        {"statusUpdate": update()},
        None,
    ]
    assert verdict.no_command_reply(results, None, streaming=False).status == "fail"
    reply, found = verdict.command_reply("model", results, streaming=False)
    assert reply is results[0]["task"] and found.status == "pass"
