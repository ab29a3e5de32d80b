"""The checks of a command's answer: pure functions from an ``Observation`` to ``Check``\\ s.

On a stream the reply is the status update that carries ``metadata.command`` (else the last
one with a message); to ``SendMessage`` it is the returned task's ``status.message``, judged by
its own metadata only, never by ``task.metadata``. Each check names the requirement it guards,
and a requirement whose premise is missing (no reply found) is not judged twice.
"""

from __future__ import annotations

from typing import Any

from th_ext.checks._observe import (
    Check,
    CheckStatus,
    Observation,
    artifacts,
    event_kind,
    message_of,
    metadata,
    state,
    task_of,
)

__all__ = ["check", "command_checks", "command_ran", "find_reply"]


def check(obs: Observation, requirement: str, ok: bool | None, detail: str) -> Check:
    status: CheckStatus = "skip" if ok is None else "pass" if ok else "fail"
    return Check(requirement, status, obs.binding, obs.scenario, obs.mode, detail)


def find_reply(obs: Observation, name: str) -> dict[str, Any] | None:
    """The event (stream) or task (SendMessage) that carries the command's reply.

    On a stream, only a status update whose message or own metadata holds ``command`` is a
    reply: an answer without it is the model's. To ``SendMessage`` the returned task's
    ``status.message`` is the reply of the command sent, with or without metadata.
    """
    if not obs.stream:
        task = task_of(obs)
        return task if message_of(task) is not None else None
    updates = [r["statusUpdate"] for r in obs.results if event_kind(r) == "statusUpdate"]
    tagged = [
        u for u in updates if "command" in metadata(u) or "command" in metadata(message_of(u))
    ]
    return tagged[-1] if tagged else None


def command_ran(obs: Observation, name: str) -> bool:
    """Whether any answer names the command in ``metadata.command``, wherever it is (a status
    update or its message, a Message, an artifact update or its artifact); never the task's
    own metadata, where an earlier command's stays, nor a Task on a stream, whose status
    message may be an earlier reply."""
    for result in obs.results:
        kind = event_kind(result)
        if kind == "unknown" or (obs.stream and kind == "task"):
            continue
        event = result[kind]
        inner = [message_of(event)]
        if kind != "task":
            inner += [event, event.get("artifact")]
        if any(metadata(value).get("command") == name for value in inner):
            return True
    return False


def command_checks(obs: Observation, name: str) -> list[Check]:
    """Every check of the answer to ``/name`` (the ``task_ref`` read comes separately)."""
    if not obs.exchange.ok or not obs.results:
        problem = obs.exchange.problem() or "the agent sent nothing"
        return [check(obs, "CMD-2", False, f"no reply: {problem}")]
    kinds = [event_kind(r) for r in obs.results]
    reply = find_reply(obs, name)
    checks: list[Check] = []
    if obs.stream:
        checks.append(_stream_order(obs, kinds, reply))
    if reply is None and obs.stream and not command_ran(obs, name):
        detail = (
            f"the command did not run on {obs.binding}: no answer names /{name} in its command "
            "metadata, so a client takes it for the model's"
        )
        return [
            *checks,
            check(obs, "CMD-1", False, detail),
            check(obs, "CMD-2", None, "no command reply to judge: the command did not run"),
            check(obs, "CMD-3", False, "no answer holds command metadata in either place"),
        ]
    if reply is None:
        return [*checks, check(obs, "CMD-2", False, _no_reply(obs, kinds))]
    message = message_of(reply) or {}
    checks.append(
        check(
            obs, "CMD-2", True, f"status.message of a {'status update' if obs.stream else 'task'}"
        )
    )
    checks.append(_event_metadata(obs, reply, message, name))
    checks.append(_message_metadata(obs, reply, message))
    role = message.get("role")
    checks.append(check(obs, "CMD-9", role == "ROLE_AGENT", f"role {role!r}"))
    checks.append(_names_task(obs, reply, message))
    checks.append(_state_unchanged(obs, reply))
    if obs.stream:
        checks.append(_no_other_update(obs, reply))
    checks.append(_model_not_invoked(obs, reply, message))
    return checks


def _no_reply(obs: Observation, kinds: list[str]) -> str:
    if obs.stream:
        return f"no status update carries a status.message; the stream held {', '.join(kinds)}"
    if kinds and kinds[0] == "message":
        return "SendMessage answered with a Message, not a task whose status.message is the reply"
    return "the task SendMessage returned has no status.message"


def _stream_order(obs: Observation, kinds: list[str], reply: dict[str, Any] | None) -> Check:
    if not kinds or kinds[0] != "task":
        return check(
            obs,
            "CMD-13",
            False,
            f"the stream began with {kinds[0] if kinds else 'nothing'}, not the Task",
        )
    first = obs.results[0]["task"]
    if obs.existing and obs.before is not None and first.get("id") != obs.before.get("id"):
        return check(obs, "CMD-13", False, "the stream's Task is not the task the message went to")
    if (
        reply is not None
        and event_kind(obs.results[1] if len(obs.results) > 1 else None) != "statusUpdate"
    ):
        return check(
            obs,
            "CMD-13",
            False,
            f"the event after the Task is {kinds[1] if len(kinds) > 1 else 'missing'}",
        )
    return check(obs, "CMD-13", True, "the Task, then the reply")


def _event_metadata(
    obs: Observation, reply: dict[str, Any], message: dict[str, Any], name: str
) -> Check:
    if obs.stream:
        found = metadata(reply).get("command")
        where = "the status update's metadata.command"
    else:
        found = metadata(message).get("command")
        where = "status.message.metadata.command"
        if found is None:
            return check(
                obs,
                "CMD-3",
                None,
                "SendMessage shows no event; status.message.metadata has no command (CMD-10)",
            )
    if found is None:
        return check(obs, "CMD-3", False, f"{where} is missing")
    return check(
        obs,
        "CMD-3",
        found == name,
        f"{where} is {found!r}" + ("" if found == name else f", not {name!r}"),
    )


def _message_metadata(obs: Observation, reply: dict[str, Any], message: dict[str, Any]) -> Check:
    own = metadata(message)
    if obs.stream:
        event = metadata(reply)
        if "command" not in event:
            return check(
                obs,
                "CMD-10",
                None,
                "the status update carries no metadata.command to compare with (CMD-3)",
            )
        same = all(own.get(key) == event.get(key) for key in ("command", "task_ref"))
        detail = f"status.message.metadata {_pick(own)} and the event's {_pick(event)}"
        return check(obs, "CMD-10", same, detail)
    if "command" not in own:
        return check(
            obs,
            "CMD-10",
            False,
            "status.message.metadata has no command: a SendMessage client cannot tell this "
            "reply from a model answer",
        )
    return check(obs, "CMD-10", True, f"status.message.metadata {_pick(own)}")


def _pick(meta: dict[str, Any]) -> str:
    return str({key: meta[key] for key in ("command", "task_ref") if key in meta})


def _names_task(obs: Observation, reply: dict[str, Any], message: dict[str, Any]) -> Check:
    task_id = reply.get("taskId") if obs.stream else reply.get("id")
    context_id = reply.get("contextId")
    ok = message.get("taskId") == task_id and message.get("contextId") == context_id
    return check(
        obs,
        "CMD-11",
        ok,
        f"message taskId {message.get('taskId')!r}, contextId {message.get('contextId')!r}",
    )


def _state_unchanged(obs: Observation, reply: dict[str, Any]) -> Check:
    replied = state(reply)
    if obs.existing and obs.before is not None:
        was, source = state(obs.before), "GetTask before"
    elif obs.stream and task_of(obs) is not None:
        was, source = state(task_of(obs)), "the Task that began the stream"
    else:
        was, source = None, ""
    now = state(obs.after) if obs.after is not None else None
    if obs.after is None:
        return check(
            obs, "CMD-5", False, "GetTask after the message failed, so the state cannot be compared"
        )
    if was is None:
        ok = replied == now
        return check(obs, "CMD-5", ok, f"new task: {replied} in the reply, {now} after")
    ok = was == replied == now
    return check(obs, "CMD-5", ok, f"{was} before ({source}), {replied} in the reply, {now} after")


def _no_other_update(obs: Observation, reply: dict[str, Any]) -> Check:
    others = [
        r["statusUpdate"]
        for r in obs.results
        if event_kind(r) == "statusUpdate" and r["statusUpdate"] is not reply
    ]
    if others:
        states = ", ".join(str(state(u)) for u in others)
        return check(obs, "CMD-14", False, f"{len(others)} other status update(s): {states}")
    return check(obs, "CMD-14", True, "the reply is the only status update")


def _model_not_invoked(obs: Observation, reply: dict[str, Any], message: dict[str, Any]) -> Check:
    kinds = [event_kind(r) for r in obs.results]
    extra = [k for k in kinds if k in ("artifactUpdate", "message")]
    index = next(
        (i for i, r in enumerate(obs.results) if r.get("statusUpdate") is reply), len(kinds)
    )
    later = [r for r in obs.results[index + 1 :] if message_of(r.get("statusUpdate")) is not None]
    if extra:
        return check(obs, "CMD-1", False, f"the answer holds {', '.join(extra)} beside the reply")
    if later:
        return check(
            obs, "CMD-1", False, f"{len(later)} message(s) followed the reply: the model answered"
        )
    before_artifacts = artifacts(obs.before) if obs.before is not None else 0
    if obs.after is not None:
        if artifacts(obs.after) > before_artifacts:
            return check(obs, "CMD-1", False, "the task gained an artifact")
        last = message_of(obs.after) or {}
        if message.get("messageId") and last.get("messageId") != message.get("messageId"):
            return check(
                obs,
                "CMD-1",
                False,
                "after the reply the task's status message is another one: the model answered",
            )
    return check(obs, "CMD-1", True, "no model answer, no artifact")
