"""The command reply: the re-emitted status update that answers a command.

The spec fixes its shape: a ``TaskStatusUpdateEvent`` for the message's task whose
``status.state`` is the task's current state, unchanged, whose ``status.message`` is the
command's answer (role ``ROLE_AGENT``), and whose ``metadata`` is ``{"command": <name>}`` plus
``"task_ref": <id>`` when the command created a sub-task. The reply message carries the same
metadata as its own, because a ``SendMessage`` client sees only the task: ``command_reply_of``
reads a reply from a status update event or from a task by that rule, never from
``task.metadata`` (which the SDK servers fill with every earlier update's metadata and never
clear). Everything here is A2A 1.0 JSON.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from th_ext._record import record
from th_ext.commands._entry import is_command_name, name_requirement

__all__ = [
    "TASK_STATES",
    "CommandReply",
    "build_command_reply",
    "command_reply_metadata",
    "command_reply_of",
    "reply_command_name",
]

TASK_STATES = (
    "TASK_STATE_SUBMITTED",
    "TASK_STATE_WORKING",
    "TASK_STATE_INPUT_REQUIRED",
    "TASK_STATE_AUTH_REQUIRED",
    "TASK_STATE_COMPLETED",
    "TASK_STATE_FAILED",
    "TASK_STATE_CANCELED",
    "TASK_STATE_REJECTED",
)
"""The A2A 1.0 task states, as their JSON names."""


def command_reply_metadata(command: str, task_ref: str | None = None) -> dict[str, str]:
    """The reply event's ``metadata``: ``{"command": name}`` plus ``task_ref`` if given."""
    if not is_command_name(command):
        raise ValueError(name_requirement(command))
    metadata = {"command": command}
    if task_ref is not None:
        if not task_ref:
            raise ValueError("task_ref must name a task; it is empty")
        metadata["task_ref"] = task_ref
    return metadata


def build_command_reply(
    *,
    task_id: str,
    context_id: str,
    state: str,
    command: str,
    text: str,
    task_ref: str | None = None,
    message_id: str | None = None,
    timestamp: datetime | None = None,
) -> dict[str, Any]:
    """The ``TaskStatusUpdateEvent`` (A2A 1.0 JSON) that carries a command's reply.

    ``state`` must be the task's current state: the reply re-emits it and never changes it.
    Wrap the result as ``{"statusUpdate": ...}`` for a ``StreamResponse``.
    """
    if state not in TASK_STATES:
        raise ValueError(f"state {state!r} is not an A2A 1.0 task state")
    if not task_id or not context_id:
        raise ValueError("a command reply needs the task's id and context id")
    when = (timestamp or datetime.now(UTC)).astimezone(UTC)
    metadata = command_reply_metadata(command, task_ref)
    return {
        "taskId": task_id,
        "contextId": context_id,
        "status": {
            "state": state,
            "message": {
                "messageId": message_id or str(uuid.uuid4()),
                "role": "ROLE_AGENT",
                "parts": [{"text": text}],
                "contextId": context_id,
                "taskId": task_id,
                "metadata": dict(metadata),
            },
            "timestamp": when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z",
        },
        "metadata": metadata,
    }


def reply_command_name(status_update: Any) -> str | None:
    """The ``metadata.command`` of a status update (A2A 1.0 JSON), or None if it has none."""
    if not isinstance(status_update, Mapping):
        return None
    metadata = status_update.get("metadata")
    if not isinstance(metadata, Mapping):
        return None
    name = metadata.get("command")
    return name if isinstance(name, str) else None


@record
class CommandReply:
    """A command's reply as a client finds it: the command, its ``task_ref``, the message."""

    command: str
    task_ref: str | None
    message: dict[str, Any]


def command_reply_of(value: Any) -> CommandReply | None:
    """The command reply in a Task, a status update event or a ``StreamResponse``, if any.

    The decision reads ``status.message.metadata.command`` only: the reply message's own
    metadata. ``task.metadata`` and the event's ``metadata`` are never consulted, so metadata an
    earlier command left on the task cannot make a later answer look like a command reply.
    Returns None for anything else, malformed input included.
    """
    if isinstance(value, Mapping):
        for key in ("task", "statusUpdate"):
            if isinstance(value.get(key), Mapping):
                value = value[key]
                break
    status = value.get("status") if isinstance(value, Mapping) else None
    message = status.get("message") if isinstance(status, Mapping) else None
    metadata = message.get("metadata") if isinstance(message, Mapping) else None
    if not isinstance(metadata, Mapping) or not isinstance(message, Mapping):
        return None
    command = metadata.get("command")
    if not isinstance(command, str) or not is_command_name(command):
        return None
    task_ref = metadata.get("task_ref")
    return CommandReply(
        command=command,
        task_ref=task_ref if isinstance(task_ref, str) and task_ref else None,
        message=dict(message),
    )
