"""The live check's verdicts on answers no correct agent sends: each fails with its reason."""

from __future__ import annotations

from typing import Any

from th_ext.dispatch import _verdict as verdict


def update(state: str = "TASK_STATE_INPUT_REQUIRED", **extra: Any) -> dict[str, Any]:
    event: dict[str, Any] = {
        "taskId": "t",
        "contextId": "c",
        "status": {
            "state": state,
            "message": {"messageId": "r", "role": "ROLE_AGENT", "parts": [{"text": "ok"}]},
        },
    }
    event.update(extra)
    return event


def task(state: str, **extra: Any) -> dict[str, Any]:
    return {"id": "t", "contextId": "c", "status": {"state": state}, **extra}


def test_a_reply_for_another_command_is_not_the_reply() -> None:
    results = [{"statusUpdate": update(metadata={"command": "help"})}]
    reply, found = verdict.command_reply("model", results, streaming=True)
    assert reply is None
    assert found.status == "fail"
    assert (
        found.detail
        == "no status update has metadata.command = 'model' (saw metadata.command help)"
    )


def test_the_last_matching_update_is_the_reply() -> None:
    first = update(metadata={"command": "model"})
    last = update(metadata={"command": "model"}, extra=1)
    reply, found = verdict.command_reply(
        "model", [{"statusUpdate": first}, {"statusUpdate": last}], streaming=True
    )
    assert reply is last and found.status == "pass"


def test_without_streaming_the_task_metadata_is_read() -> None:
    results = [{"task": task("TASK_STATE_INPUT_REQUIRED", metadata={"command": "model"})}]
    reply, found = verdict.command_reply("model", results, streaming=False)
    assert reply is not None and found.status == "pass"
    assert verdict.command_reply("help", results, streaming=False)[1].status == "fail"


def test_reply_message_needs_an_agent_message_with_parts() -> None:
    assert verdict.reply_message(update()).status == "pass"
    no_message = update()
    del no_message["status"]["message"]
    assert verdict.reply_message(no_message).detail == "status.message is missing"
    user = update()
    user["status"]["message"]["role"] = "ROLE_USER"
    assert "not ROLE_AGENT" in verdict.reply_message(user).detail
    empty = update()
    empty["status"]["message"]["parts"] = []
    assert verdict.reply_message(empty).detail == "status.message has no parts"
    assert verdict.reply_message({"status": "x"}).status == "fail"


def test_state_unchanged_compares_before_reply_and_after() -> None:
    before = task("TASK_STATE_INPUT_REQUIRED")
    same = verdict.state_unchanged(update(), before, [], before, streaming=True)
    assert same.status == "pass"
    moved = verdict.state_unchanged(
        update(), before, [], task("TASK_STATE_COMPLETED"), streaming=True
    )
    assert moved.status == "fail"
    assert "TASK_STATE_COMPLETED after" in moved.detail
    lost = verdict.state_unchanged(update(), before, [], None, streaming=True)
    assert lost.status == "fail" and "GetTask after" in lost.detail


def test_a_new_task_is_compared_with_its_first_streamed_state() -> None:
    results = [
        {"task": task("TASK_STATE_SUBMITTED")},
        {"statusUpdate": update("TASK_STATE_WORKING")},
    ]
    after = task("TASK_STATE_WORKING")
    result = verdict.state_unchanged(
        update("TASK_STATE_WORKING"), None, results, after, streaming=True
    )
    assert result.status == "fail"
    skipped = verdict.state_unchanged(update(), None, [], after, streaming=False)
    assert skipped.status == "skip" and "--task-id" in skipped.detail


def test_an_ordinary_message_must_get_no_command_reply() -> None:
    flagged = [{"statusUpdate": update(metadata={"command": "model"})}, {"statusUpdate": update()}]
    result = verdict.no_command_reply(flagged, None, streaming=True)
    assert result.status == "fail"
    assert result.detail == "1 status update(s) carry metadata.command (model)"
    clean = verdict.no_command_reply([{"statusUpdate": update()}], None, streaming=True)
    assert clean.status == "pass"


def test_without_streaming_an_old_command_in_the_task_metadata_is_not_blamed() -> None:
    before = task("TASK_STATE_INPUT_REQUIRED", metadata={"command": "model"})
    results = [{"task": task("TASK_STATE_INPUT_REQUIRED", metadata={"command": "model"})}]
    assert verdict.no_command_reply(results, before, streaming=False).status == "pass"
    changed = [{"task": task("TASK_STATE_INPUT_REQUIRED", metadata={"command": "help"})}]
    assert verdict.no_command_reply(changed, before, streaming=False).status == "fail"


def test_malformed_results_never_raise() -> None:
    junk: list[Any] = [None, 3, "x", {"statusUpdate": "x"}, {"task": []}, {"message": {"parts": 5}}]
    assert verdict.task_id_of(junk) is None
    assert verdict.answered(junk).status == "pass"
    assert verdict.command_reply("model", junk, streaming=True)[0] is None
    assert verdict.no_command_reply(junk, None, streaming=True).status == "pass"
    assert verdict.state(None) is None and verdict.metadata([]) == {}
