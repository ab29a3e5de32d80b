"""The checks of a command's answer: pure functions from an ``Observation`` to ``Check``\\ s."""

from __future__ import annotations

from typing import Any, Protocol

from th_ext.checks._observe import (
    Check,
    Exchange,
    Observation,
    artifacts,
    check,
    event_kind,
    message_of,
    metadata,
    state,
    stream_order_check,
    task_of,
)
from th_ext.problems import counted, cut, quoted

_TERMINAL = frozenset(
    {"TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_REJECTED"}
)
_KEYS = ("command", "task_ref")

__all__ = [
    "TaskReader",
    "command_checks",
    "command_ran",
    "find_reply",
    "task_ref_check",
    "unmarked_reply",
]


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


def unmarked_reply(obs: Observation) -> dict[str, Any] | None:
    """On a stream, an answer with the reply's shape but no command metadata: the one status
    update, with a message, in the state the task had (a new task: any state but working or
    terminal), and no artifact or Message beside it. It is judged as the command's reply, so
    that the missing metadata fails CMD-3 alone; any other unmarked answer is the model's."""
    if any(event_kind(r) in ("artifactUpdate", "message") for r in obs.results):
        return None
    updates = [r["statusUpdate"] for r in obs.results if event_kind(r) == "statusUpdate"]
    if len(updates) != 1 or message_of(updates[0]) is None:
        return None
    replied = state(updates[0])
    if obs.existing and obs.before is not None:
        return updates[0] if replied == state(obs.before) else None
    return None if replied in _TERMINAL or replied == "TASK_STATE_WORKING" else updates[0]


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
    """Every check of the answer to ``/name`` (the ``task_ref`` read comes separately); a
    requirement whose premise is missing (no reply found) is skipped, not failed twice."""
    if not obs.exchange.ok or not obs.results:
        problem = obs.exchange.problem() or "the agent sent nothing"
        return [check(obs, "CMD-2", False, f"no reply: {problem}")]
    kinds = [event_kind(r) for r in obs.results]
    reply = find_reply(obs, name)
    checks: list[Check] = []
    if obs.stream:
        checks.append(stream_order_check(obs))
    if reply is None and obs.stream and not command_ran(obs, name):
        reply = unmarked_reply(obs)
        if reply is None:
            detail = (
                f"the command did not run on {obs.binding}: no answer names "
                f"{cut('/' + name, 80)} in its command metadata, so a client takes it for the "
                "model's"
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
    checks.append(_placement(obs, reply, message, name))
    checks.append(_both_places(obs, reply, message))
    role = message.get("role")
    checks.append(check(obs, "CMD-9", role == "ROLE_AGENT", f"role {quoted(role)}"))
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


def _placement(
    obs: Observation, reply: dict[str, Any], message: dict[str, Any], name: str
) -> Check:
    """CMD-3: the command metadata is on the message, the event, or both, and names ``name``."""
    places = _places(obs, reply, message)
    if not places:
        if not obs.stream:
            return check(
                obs,
                "CMD-3",
                None,
                "SendMessage shows no status update, and status.message.metadata has no "
                "command: where the agent put it is judged on a stream",
            )
        return check(
            obs,
            "CMD-3",
            False,
            "neither the reply message's metadata nor the status update's holds command, so "
            "a client takes this answer for the model's",
        )
    wrong = [f"{where} is {quoted(found)}" for where, found in places.items() if found != name]
    if wrong:
        return check(obs, "CMD-3", False, "; ".join(wrong) + f", not {quoted(name)}")
    return check(obs, "CMD-3", True, f"{' and '.join(places)} name {quoted(name)}")


def _places(obs: Observation, reply: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
    """Where the command metadata was seen, and the command each place names."""
    places: dict[str, Any] = {}
    if "command" in metadata(message):
        places["status.message.metadata.command"] = metadata(message)["command"]
    if obs.stream and "command" in metadata(reply):
        places["the status update's metadata.command"] = metadata(reply)["command"]
    return places


def _both_places(obs: Observation, reply: dict[str, Any], message: dict[str, Any]) -> Check:
    """CMD-19 (SHOULD): the same command metadata on the message and on the event."""
    own = metadata(message)
    if not obs.stream:
        if "command" in own:
            return check(obs, "CMD-19", None, "SendMessage shows only the message's metadata")
        return check(
            obs,
            "CMD-19",
            None,
            "status.message.metadata has no command; the event is judged on a stream",
        )
    event = metadata(reply)
    if "command" not in own and "command" not in event:
        return check(obs, "CMD-19", None, "no command metadata in either place (CMD-3)")
    if "command" not in own:
        return check(
            obs,
            "CMD-19",
            False,
            "only the status update carries the command metadata; status.message.metadata "
            "has none, so a client reading the message first must fall back to the event",
        )
    if "command" not in event:
        return check(
            obs,
            "CMD-19",
            False,
            "only the reply message carries the command metadata; the status update's "
            "metadata has none",
        )
    same = all(own.get(key) == event.get(key) for key in _KEYS)
    detail = f"status.message.metadata {_pick(own)} and the event's {_pick(event)}"
    return check(obs, "CMD-19", same, detail + ("" if same else ": they differ"))


def _pick(meta: dict[str, Any]) -> str:
    return str({key: meta[key] for key in _KEYS if key in meta})


def _names_task(obs: Observation, reply: dict[str, Any], message: dict[str, Any]) -> Check:
    task_id = reply.get("taskId") if obs.stream else reply.get("id")
    context_id = reply.get("contextId")
    ok = message.get("taskId") == task_id and message.get("contextId") == context_id
    return check(obs, "CMD-11", ok, _ids_detail(message, task_id, context_id))


def _ids_detail(message: dict[str, Any], task_id: Any, context_id: Any) -> str:
    """The reply message's ids in words: the ones it lacks, and each wrong one beside the id of
    the task it answers."""
    ids = {"taskId": task_id, "contextId": context_id}
    missing = [key for key in ids if message.get(key) is None]
    if len(missing) == len(ids):
        return "the reply message has no taskId and no contextId"
    words = []
    for key, expected in ids.items():
        if key in missing:
            words.append(f"no {key}")
            continue
        got = f"{key} {quoted(message[key])}"
        if message[key] == expected:
            words.append(got)
        elif expected is None:
            words.append(f"{got}, where the task has none")
        else:
            words.append(f"{got}, not the task's {quoted(expected)}")
    return "the reply message has " + ", ".join(words)


def _state_unchanged(obs: Observation, reply: dict[str, Any]) -> Check:
    """CMD-5: an existing task keeps its state; a new one may rest in any non-terminal state."""
    replied = state(reply)
    if obs.after is None:
        return check(
            obs, "CMD-5", False, "GetTask after the message failed, so the state cannot be compared"
        )
    now = state(obs.after)
    if not (obs.existing and obs.before is not None):
        # The scenario already says "new task"; only a task whose state before is unknown says
        # why it is judged as one.
        judged = (
            "the state before is unknown, so it is judged as a new task: " if obs.existing else ""
        )
        if replied in _TERMINAL:
            return check(
                obs, "CMD-5", False, f"{judged}the reply ended it in {replied}, a terminal state"
            )
        ok = replied == now
        return check(obs, "CMD-5", ok, f"{judged}{replied} in the reply, {now} after")
    was = state(obs.before)
    ok = was == replied == now
    return check(
        obs, "CMD-5", ok, f"{was} before (GetTask before), {replied} in the reply, {now} after"
    )


def _no_other_update(obs: Observation, reply: dict[str, Any]) -> Check:
    """CMD-14: the reply is the only status update; a Task snapshot after it keeps its state."""
    others = [
        r["statusUpdate"]
        for r in obs.results
        if event_kind(r) == "statusUpdate" and r["statusUpdate"] is not reply
    ]
    if others:
        states = ", ".join(str(state(u)) for u in others)
        return check(
            obs, "CMD-14", False, f"{counted(len(others), 'other status update')}: {states}"
        )
    index = next(
        (
            i
            for i, r in enumerate(obs.results)
            if isinstance(r, dict) and r.get("statusUpdate") is reply
        ),
        len(obs.results),
    )
    snapshots = [r["task"] for r in obs.results[index + 1 :] if event_kind(r) == "task"]
    moved = [state(t) for t in snapshots if state(t) != state(reply)]
    if moved:
        return check(
            obs,
            "CMD-14",
            False,
            f"a Task snapshot after the reply is in {moved[0]}, not the reply's {state(reply)}",
        )
    if snapshots:
        return check(
            obs, "CMD-14", True, "the reply is the only status update, then a Task snapshot"
        )
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
            obs,
            "CMD-1",
            False,
            f"{counted(len(later), 'message')} followed the reply: the model answered",
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


class TaskReader(Protocol):
    """Reads a task by id (``GetTask``) on one binding."""

    async def get_task(self, task_id: str) -> Exchange: ...


async def task_ref_check(wire: TaskReader, obs: Observation, reply: dict[str, Any]) -> Check:
    """CMD-4: a ``task_ref`` in the reply names a task ``GetTask`` can read (the one check that
    sends a request)."""
    ref = metadata(reply).get("task_ref") or metadata(message_of(reply)).get("task_ref")
    if ref is None:
        return check(obs, "CMD-4", None, "the command started no sub-task (no task_ref)")
    if not isinstance(ref, str) or not ref:
        return check(obs, "CMD-4", False, f"task_ref {quoted(ref)} is not a task id")
    exchange = await wire.get_task(ref)
    task = exchange.results[0] if exchange.ok and exchange.results else None
    if isinstance(task, dict) and task.get("id") == ref:
        return check(obs, "CMD-4", True, f"GetTask {ref}: {state(task)}")
    return check(obs, "CMD-4", False, f"GetTask {ref}: {exchange.problem() or 'not that task'}")
