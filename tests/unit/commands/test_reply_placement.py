"""Where a reply carries the command metadata, and how a client reads it: the message first,
then the event, never ``task.metadata``; after a ``SendMessage`` command, the task's status
message is the reply even without metadata."""

from __future__ import annotations

from typing import Any

import pytest

from th_ext.commands import MetadataPlace, build_command_reply, command_reply_of, reply_command_name


def reply(place: MetadataPlace, **extra: Any) -> dict[str, Any]:
    return build_command_reply(
        task_id="t",
        context_id="c",
        state="TASK_STATE_WORKING",
        command="review",
        text="ok",
        task_ref="t-2",
        metadata_on=place,
        **extra,
    )


@pytest.mark.parametrize("place", ["both", "message", "event"])
def test_a_client_finds_the_command_wherever_the_agent_put_it(place: MetadataPlace) -> None:
    event = reply(place)
    assert ("metadata" in event) is (place != "message")
    assert ("metadata" in event["status"]["message"]) is (place != "event")
    found = command_reply_of({"statusUpdate": event})
    assert found is not None and (found.command, found.task_ref) == ("review", "t-2")
    assert reply_command_name(event) == "review"


def test_the_message_is_read_before_the_event() -> None:
    event = reply("both")
    event["metadata"] = {"command": "model"}
    found = command_reply_of(event)
    assert found is not None and found.command == "review"


def test_a_task_is_never_judged_by_its_own_metadata() -> None:
    task = {
        "id": "t",
        "status": {"state": "TASK_STATE_WORKING", "message": {"parts": [{"text": "hi"}]}},
        "metadata": {"command": "review", "task_ref": "old"},
    }
    assert command_reply_of({"task": task}) is None
    found = command_reply_of({"task": task}, sent_command="model")
    assert found is not None and (found.command, found.task_ref) == ("model", None)


def test_a_sent_command_does_not_make_a_bare_status_update_a_reply() -> None:
    event = reply("message")
    del event["status"]["message"]["metadata"]
    assert command_reply_of({"statusUpdate": event}, sent_command="review") is None


def test_an_unknown_place_is_refused() -> None:
    with pytest.raises(ValueError, match="metadata_on must be both, message or event"):
        reply("nowhere")  # type: ignore[arg-type]
