"""The command reply: the re-emitted status update that answers a command (A2A 1.0 JSON),
as an agent builds it and a client finds it."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from th_ext.commands._entry import is_command_name, name_requirement

__all__ = [
    "TASK_STATES",
    "CommandReply",
    "MetadataPlace",
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


MetadataPlace = Literal["both", "message", "event"]
"""Where a reply carries the command metadata: both places (recommended), or one of them."""


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
    metadata_on: MetadataPlace = "both",
) -> dict[str, Any]:
    """The ``TaskStatusUpdateEvent`` (A2A 1.0 JSON) that carries a command's reply.

    ``state`` must be the task's current state: the reply re-emits it and never changes it
    (for a task the command itself created, any state that is not terminal). ``metadata_on``
    says where the command metadata goes: ``both`` (the recommended default), ``message`` or
    ``event``. Wrap the result as ``{"statusUpdate": ...}`` for a ``StreamResponse``.
    """
    if metadata_on not in ("both", "message", "event"):
        raise ValueError(f"metadata_on must be both, message or event, not {metadata_on!r}")
    if state not in TASK_STATES:
        raise ValueError(f"state {state!r} is not an A2A 1.0 task state")
    if not task_id or not context_id:
        raise ValueError("a command reply needs the task's id and context id")
    when = (timestamp or datetime.now(UTC)).astimezone(UTC)
    metadata = command_reply_metadata(command, task_ref)
    message: dict[str, Any] = {
        "messageId": message_id or str(uuid.uuid4()),
        "role": "ROLE_AGENT",
        "parts": [{"text": text}],
        "contextId": context_id,
        "taskId": task_id,
    }
    if metadata_on != "event":
        message["metadata"] = dict(metadata)
    event: dict[str, Any] = {
        "taskId": task_id,
        "contextId": context_id,
        "status": {
            "state": state,
            "message": message,
            "timestamp": when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z",
        },
    }
    if metadata_on != "message":
        event["metadata"] = metadata
    return event


def reply_command_name(status_update: Any) -> str | None:
    """The command a status update (A2A 1.0 JSON) answers: ``command`` in its message's
    metadata, else in its own metadata; None if neither names one."""
    if not isinstance(status_update, Mapping):
        return None
    for metadata in (_message_metadata(status_update), status_update.get("metadata")):
        name = metadata.get("command") if isinstance(metadata, Mapping) else None
        if isinstance(name, str):
            return name
    return None


def _message_metadata(value: Mapping[str, Any]) -> Any:
    status = value.get("status")
    message = status.get("message") if isinstance(status, Mapping) else None
    return message.get("metadata") if isinstance(message, Mapping) else None


@dataclass(frozen=True, slots=True)
class CommandReply:
    """A command's reply as a client finds it: the command, its ``task_ref``, the message."""

    command: str
    task_ref: str | None
    message: dict[str, Any]


def command_reply_of(value: Any, *, sent_command: str | None = None) -> CommandReply | None:
    """The command reply in a Task, a status update event or a ``StreamResponse``, if any.

    The command metadata is read where the spec puts it: the reply message's own metadata
    first, then (for a status update) the event's ``metadata``. ``task.metadata`` is never
    consulted, so metadata an earlier command left on the task cannot make a later answer look
    like a command reply. ``sent_command`` is for a ``SendMessage`` client that sent a message
    the rule makes a command: the returned task's ``status.message`` is then that command's
    reply even when it carries no metadata. Returns None for anything else, malformed input
    included.
    """
    event: Mapping[str, Any] | None = None
    if isinstance(value, Mapping):
        if isinstance(value.get("task"), Mapping):
            value = value["task"]
        elif isinstance(value.get("statusUpdate"), Mapping):
            value = event = value["statusUpdate"]
        elif "taskId" in value and "id" not in value:
            event = value
    status = value.get("status") if isinstance(value, Mapping) else None
    message = status.get("message") if isinstance(status, Mapping) else None
    if not isinstance(message, Mapping):
        return None
    for metadata in (message.get("metadata"), event.get("metadata") if event else None):
        if not isinstance(metadata, Mapping):
            continue
        command = metadata.get("command")
        if isinstance(command, str) and is_command_name(command):
            task_ref = metadata.get("task_ref")
            return CommandReply(
                command=command,
                task_ref=task_ref if isinstance(task_ref, str) and task_ref else None,
                message=dict(message),
            )
    if sent_command is not None and event is None and is_command_name(sent_command):
        return CommandReply(command=sent_command, task_ref=None, message=dict(message))
    return None
