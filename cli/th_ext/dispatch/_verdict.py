"""The live check's verdicts: pure functions from what the agent sent to pass, fail or skip.

They read only A2A 1.0 JSON (the JSON-RPC results of the send, and the tasks read with
``GetTask``) and never raise on a malformed answer: a missing or mistyped field is a failed or
skipped check with the reason in words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

__all__ = [
    "LiveCheck",
    "answered",
    "check",
    "command_reply",
    "metadata",
    "no_command_reply",
    "reply_message",
    "state",
    "state_unchanged",
    "task_id_of",
]

Status = Literal["pass", "fail", "skip"]


@dataclass(frozen=True, slots=True)
class LiveCheck:
    """One check of the agent's answer."""

    name: str
    status: Status
    detail: str


def check(name: str, ok: bool | None, detail: str) -> LiveCheck:
    """A check that passes (True), fails (False) or does not apply (None)."""
    status: Status = "skip" if ok is None else "pass" if ok else "fail"
    return LiveCheck(name, status, detail)


def answered(results: list[Any]) -> LiveCheck:
    """The agent answered: how many results, and what it said last."""
    said = _last_text(results)
    detail = f"{len(results)} result(s), {len(_status_updates(results))} status update(s)"
    if said:
        detail += f"; last message: {_clip(said)!r}"
    return check("answered", True, detail)


def command_reply(
    name: str, results: list[Any], *, streaming: bool
) -> tuple[dict[str, Any] | None, LiveCheck]:
    """The event that carries the command's reply, and the ``command-reply`` check.

    Streaming, it is the last status update whose ``metadata.command`` is ``name``. Without
    streaming, ``SendMessage`` returns the task, whose metadata the agent's status updates
    were merged into.
    """
    if streaming:
        updates = _status_updates(results)
        replies = [u for u in updates if metadata(u).get("command") == name]
        seen = sorted({str(metadata(u)["command"]) for u in updates if "command" in metadata(u)})
        where = "status update"
    else:
        task = _result_task(results)
        replies = [task] if task is not None and metadata(task).get("command") == name else []
        seen = []
        where = "SendMessage result (task metadata)"
    if not replies:
        other = f" (saw metadata.command {', '.join(seen)})" if seen else ""
        return None, check(
            "command-reply", False, f"no {where} has metadata.command = {name!r}{other}"
        )
    return replies[-1], check("command-reply", True, f"a {where} has metadata.command = {name!r}")


def reply_message(reply: dict[str, Any]) -> LiveCheck:
    """``status.message`` is present, from ``ROLE_AGENT``, with at least one part."""
    status = reply.get("status")
    message = status.get("message") if isinstance(status, dict) else None
    if not isinstance(message, dict):
        return check("reply-message", False, "status.message is missing")
    if message.get("role") != "ROLE_AGENT":
        role = message.get("role")
        return check("reply-message", False, f"status.message has role {role!r}, not ROLE_AGENT")
    parts = message.get("parts")
    if not isinstance(parts, list) or not parts:
        return check("reply-message", False, "status.message has no parts")
    text = " ".join(str(p.get("text")) for p in parts if isinstance(p, dict) and "text" in p)
    return check("reply-message", True, f"status.message (ROLE_AGENT): {_clip(text)!r}")


def state_unchanged(
    reply: dict[str, Any],
    before: dict[str, Any] | None,
    results: list[Any],
    after: dict[str, Any] | None,
    *,
    streaming: bool,
) -> LiveCheck:
    """The task's state before, in the reply, and after is one and the same.

    "Before" is the task read with ``GetTask`` (``--task-id``) or, for a task the message
    created, the task as the stream first showed it.
    """
    replied = state(reply)
    if before is not None:
        was, source = state(before), "GetTask before"
    else:
        first = next(
            (r["task"] for r in results if isinstance(r, dict) and isinstance(r.get("task"), dict)),
            None,
        )
        was, source = (
            (state(first), "the task as first streamed") if first and streaming else (None, "")
        )
    if after is None:
        return check(
            "state-unchanged",
            False,
            "GetTask after the message failed, so the state cannot be compared",
        )
    now = state(after)
    if was is None:
        return check(
            "state-unchanged",
            None,
            f"the message created the task and no earlier state was shown (now {now}); "
            "use --task-id to compare",
        )
    if was == replied == now:
        return check("state-unchanged", True, f"{was} before ({source}), in the reply, and after")
    return check(
        "state-unchanged", False, f"{was} before ({source}), {replied} in the reply, {now} after"
    )


def no_command_reply(
    results: list[Any], before: dict[str, Any] | None, *, streaming: bool
) -> LiveCheck:
    """An ordinary message: no status update carries ``metadata.command``."""
    if streaming:
        updates = _status_updates(results)
        flagged = [u for u in updates if "command" in metadata(u)]
        if flagged:
            names = ", ".join(sorted({str(metadata(u)["command"]) for u in flagged}))
            return check(
                "no-command-reply",
                False,
                f"{len(flagged)} status update(s) carry metadata.command ({names})",
            )
        return check(
            "no-command-reply",
            True,
            f"none of {len(updates)} status update(s) carries metadata.command",
        )
    task = _result_task(results)
    was = metadata(before).get("command") if before else None
    now = metadata(task).get("command") if task else None
    if now is not None and now != was:
        return check("no-command-reply", False, f"the task's metadata.command became {now!r}")
    return check("no-command-reply", True, "the SendMessage result carries no new metadata.command")


def _status_updates(results: list[Any]) -> list[dict[str, Any]]:
    return [
        r["statusUpdate"]
        for r in results
        if isinstance(r, dict) and isinstance(r.get("statusUpdate"), dict)
    ]


def _result_task(results: list[Any]) -> dict[str, Any] | None:
    for result in reversed(results):
        if isinstance(result, dict) and isinstance(result.get("task"), dict):
            task: dict[str, Any] = result["task"]
            return task
    return None


def task_id_of(results: list[Any]) -> str | None:
    for result in results:
        if not isinstance(result, dict):
            continue
        for key, field in (
            ("task", "id"),
            ("statusUpdate", "taskId"),
            ("artifactUpdate", "taskId"),
            ("message", "taskId"),
        ):
            event = result.get(key)
            if isinstance(event, dict) and isinstance(event.get(field), str) and event[field]:
                value: str = event[field]
                return value
    return None


def metadata(event: Any) -> dict[str, Any]:
    metadata = event.get("metadata") if isinstance(event, dict) else None
    return metadata if isinstance(metadata, dict) else {}


def state(event: Any) -> str | None:
    status = event.get("status") if isinstance(event, dict) else None
    state = status.get("state") if isinstance(status, dict) else None
    return state if isinstance(state, str) else None


def _last_text(results: list[Any]) -> str:
    """The text of the last message the agent sent (a status message or a direct message)."""
    for result in reversed(results):
        if not isinstance(result, dict):
            continue
        message = result.get("message")
        for key in ("statusUpdate", "task"):
            event = result.get(key)
            if isinstance(event, dict) and isinstance(event.get("status"), dict):
                message = message or event["status"].get("message")
        if isinstance(message, dict) and isinstance(message.get("parts"), list):
            texts = [
                p["text"]
                for p in message["parts"]
                if isinstance(p, dict) and isinstance(p.get("text"), str)
            ]
            if texts:
                return " ".join(texts)
    return ""


def _clip(text: str, width: int = 100) -> str:
    one_line = " ".join(text.split())
    return one_line if len(one_line) <= width else one_line[: width - 1] + "…"
