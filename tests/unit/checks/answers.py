"""Answers to a command as plain data, and the verdicts the checks give them.

Each builder makes one event of A2A 1.0 JSON (a task, the command's reply, a model's answer);
``stream`` and ``send`` wrap them in the ``Observation`` a live run records, and ``verdicts``
turns the checks into ``(requirement, status, detail)`` rows, what a report shows of each.
"""

from __future__ import annotations

import copy
from typing import Any

from th_ext.checks import Check, Observation
from th_ext.net._exchange import RpcExchange

STATE = "TASK_STATE_INPUT_REQUIRED"
WORKING = "TASK_STATE_WORKING"
COMPLETED = "TASK_STATE_COMPLETED"
SUBMITTED = "TASK_STATE_SUBMITTED"
REF = {"id": "t", "contextId": "c"}


def task(state: str = STATE, **extra: Any) -> dict[str, Any]:
    return {"id": "t", "contextId": "c", "status": {"state": state}, **extra}


def agent_message(text: str = "ok", **extra: Any) -> dict[str, Any]:
    return {"messageId": "m-1", "role": "ROLE_AGENT", "parts": [{"text": text}], **extra}


def reply(
    command: str = "model", state: str = STATE, *, on_message: bool = True, on_event: bool = True
) -> dict[str, Any]:
    """The command's reply as a status update, its metadata in the places asked for."""
    meta = {"command": command, "task_ref": {"taskId": "t", "contextId": "c"}}
    message = agent_message(taskId="t", contextId="c")
    if on_message:
        message["metadata"] = copy.deepcopy(meta)
    event: dict[str, Any] = {
        "taskId": "t",
        "contextId": "c",
        "status": {"state": state, "message": message},
    }
    if on_event:
        event["metadata"] = copy.deepcopy(meta)
    return event


def unmarked(state: str = STATE) -> dict[str, Any]:
    """An answer of the reply's shape with no command metadata in either place."""
    return reply(state=state, on_message=False, on_event=False)


def done(event: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """The task as GetTask shows it after ``event``: its status, message included."""
    return task(status=copy.deepcopy(event["status"]), **extra)


def working() -> dict[str, Any]:
    return {"taskId": "t", "contextId": "c", "status": {"state": WORKING}}


def stream(
    *events: dict[str, Any],
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    new: bool = False,
    unread: bool = False,
) -> Observation:
    """A SendStreamingMessage to an existing task (or a new one), with GetTask around it;
    ``unread``: to an existing task that GetTask could not read before the send."""
    exchange = RpcExchange(method="SendStreamingMessage", request={}, results=list(events))
    return Observation(
        "JSONRPC",
        True,
        not new,
        "/model",
        exchange,
        None if new or unread else (before or task()),
        after,
    )


def send(answer: dict[str, Any], *, after: dict[str, Any] | None = None) -> Observation:
    """A SendMessage to an existing task that returned ``answer`` (a task or a message)."""
    exchange = RpcExchange(method="SendMessage", request={}, results=[answer])
    return Observation("HTTP+JSON", False, True, "/model", exchange, task(), after)


def verdicts(checks: list[Check]) -> list[tuple[str, str, str]]:
    return [(c.requirement, c.status, c.detail) for c in checks]


def statuses(checks: list[Check]) -> dict[str, str]:
    return {c.requirement: c.status for c in checks}


def the(checks: list[Check], requirement: str) -> tuple[str, str]:
    """The one check of ``requirement``: its status and detail."""
    [found] = [c for c in checks if c.requirement == requirement]
    return found.status, found.detail
