"""The reply builder: the re-emitted status update the spec describes, and nothing else."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from th_ext.commands import (
    TASK_STATES,
    build_command_reply,
    command_reply_metadata,
    reply_command_name,
)

WHEN = datetime(2026, 12, 2, 10, 15, 30, tzinfo=UTC)


def test_the_reply_reproduces_the_spec_example(extensions_dir: Path) -> None:
    example = json.loads((extensions_dir / "commands/v1/examples/command-reply.json").read_text())
    reply = build_command_reply(
        task_id="task-42",
        context_id="ctx-7d1e",
        state="TASK_STATE_INPUT_REQUIRED",
        command="model",
        text="Model for this task: fast (was: balanced).",
        message_id="9f1c2d3e-0002-4a5b-8c7d-000000000002",
        timestamp=WHEN,
    )
    example["status"]["timestamp"] = "2026-12-02T10:15:30.000Z"
    assert reply == example


def test_a_sub_task_adds_task_ref(extensions_dir: Path) -> None:
    example = json.loads(
        (extensions_dir / "commands/v1/examples/command-reply-task-ref.json").read_text()
    )
    reply = build_command_reply(
        task_id="task-42",
        context_id="ctx-7d1e",
        state="TASK_STATE_INPUT_REQUIRED",
        command="review",
        text="Started a review of this conversation as task task-43.",
        task_ref="task-43",
    )
    assert reply["metadata"] == example["metadata"] == {"command": "review", "task_ref": "task-43"}


@pytest.mark.parametrize("state", TASK_STATES)
def test_the_state_is_the_one_given(state: str) -> None:
    reply = build_command_reply(
        task_id="t", context_id="c", state=state, command="help", text="Commands: /help"
    )
    assert reply["status"]["state"] == state
    assert reply["status"]["message"]["role"] == "ROLE_AGENT"
    assert reply["status"]["message"]["parts"] == [{"text": "Commands: /help"}]
    assert reply["status"]["timestamp"].endswith("Z")
    assert reply_command_name(reply) == "help"


@pytest.mark.parametrize("state", ["working", "TASK_STATE_UNSPECIFIED", "", "TASK_STATE_DONE"])
def test_a_state_outside_a2a_1_0_is_refused(state: str) -> None:
    with pytest.raises(ValueError, match=r"not an A2A 1\.0 task state"):
        build_command_reply(task_id="t", context_id="c", state=state, command="m", text="x")


def test_metadata_refuses_a_bad_name_or_an_empty_task_ref() -> None:
    assert command_reply_metadata("model") == {"command": "model"}
    with pytest.raises(ValueError, match="must match"):
        command_reply_metadata("Model")
    with pytest.raises(ValueError, match="empty"):
        command_reply_metadata("review", "")


def test_reply_command_name_reads_only_a_string_command() -> None:
    assert reply_command_name({"metadata": {"command": "model"}}) == "model"
    assert reply_command_name({"metadata": {"command": 3}}) is None
    assert reply_command_name({"metadata": None}) is None
    assert reply_command_name({}) is None
    assert reply_command_name("x") is None


def test_a_reply_is_found_in_the_message_metadata_only() -> None:
    from th_ext.commands import build_command_reply, command_reply_of

    reply = build_command_reply(
        task_id="t",
        context_id="c",
        state="TASK_STATE_INPUT_REQUIRED",
        command="review",
        text="started",
        task_ref="sub",
    )
    assert reply["status"]["message"]["metadata"] == {"command": "review", "task_ref": "sub"}
    found = command_reply_of({"statusUpdate": reply})
    assert found is not None and (found.command, found.task_ref) == ("review", "sub")
    # A later model answer on a task whose metadata still holds the earlier command:
    message: dict[str, Any] = {"role": "ROLE_AGENT", "parts": [{"text": "hi"}]}
    task: dict[str, Any] = {
        "id": "t",
        "status": {"state": "TASK_STATE_INPUT_REQUIRED", "message": message},
        "metadata": {"command": "review", "task_ref": "sub"},
    }
    assert command_reply_of(task) is None
    assert command_reply_of({"task": task}) is None
    message["metadata"] = {"command": "/review"}
    assert command_reply_of(task) is None
