"""The checks of a message that must stay ordinary: it reaches the model, and no command reply."""

from __future__ import annotations

from th_ext.checks._observe import (
    Check,
    Observation,
    artifacts,
    check,
    event_kind,
    message_of,
    metadata,
    task_of,
)
from th_ext.problems._text import quoted

__all__ = ["ordinary_checks", "stale_task_metadata"]


def ordinary_checks(obs: Observation, requirement: str) -> list[Check]:
    """The answer to a message the rule does not make a command. ``task.metadata`` is never read
    for the verdict: the SDK servers keep every earlier update's metadata there."""
    if not obs.exchange.ok or not obs.results:
        problem = obs.exchange.problem() or "the agent sent nothing"
        return [check(obs, requirement, False, f"no answer: {problem}")]
    flagged: list[str] = []
    for result in obs.results:
        kind = event_kind(result)
        if kind == "unknown" or (obs.stream and kind == "task"):
            continue  # a stream's Task shows the task as it was before this message
        event = result[kind]
        if kind == "statusUpdate" and "command" in metadata(event):
            flagged.append(
                f"a status update has metadata.command {quoted(metadata(event)['command'])}"
            )
        message = event if kind == "message" else message_of(event)
        if "command" in metadata(message):
            where = "the task's status.message" if kind == "task" else f"a {kind} message"
            flagged.append(f"{where} has metadata.command {quoted(metadata(message)['command'])}")
    if flagged:
        return [check(obs, requirement, False, "answered as a command: " + "; ".join(flagged))]
    kept, seen = _as_sent(obs)
    detail = (
        f"no command reply ({', '.join(event_kind(r) for r in obs.results)}); {_answer(obs)}; "
        + seen
    )
    return [check(obs, requirement, kept, detail)]


def _answer(obs: Observation) -> str:
    """What the answer shows of the model: an agent message or an artifact, or nothing yet."""
    for result in obs.results[1:] if obs.stream else obs.results:
        kind = event_kind(result)
        event = result.get(kind) if kind != "unknown" else None
        message = event if kind == "message" else message_of(event)
        if message is not None or kind == "artifactUpdate" or artifacts(event):
            return f"an answer came ({kind})"
    return "no answer came yet"


def _as_sent(obs: Observation) -> tuple[bool, str]:
    """Whether the task's history holds the message sent with other parts (False), and what
    was seen of it."""
    sent = obs.sent or {}
    history = obs.after.get("history") if isinstance(obs.after, dict) else None
    messages = history if isinstance(history, list) and sent.get("messageId") else []
    found = next(
        (m for m in messages if isinstance(m, dict) and m.get("messageId") == sent["messageId"]),
        None,
    )
    if found is None:
        return True, "the task's history does not show the message"
    parts, mine = found.get("parts"), sent.get("parts") or []
    same = (
        isinstance(parts, list)
        and len(parts) == len(mine)
        and all(
            isinstance(got, dict) and all(got.get(key) == value for key, value in part.items())
            for got, part in zip(parts, mine, strict=False)
        )
    )
    if same:
        return True, "the task's history holds the message as sent"
    return False, f"the task's history holds the message changed: parts {str(parts)[:120]}"


def stale_task_metadata(obs: Observation) -> str | None:
    """A note when the task's own metadata still names a command after an ordinary answer."""
    task = task_of(obs) if not obs.stream else obs.after
    command = metadata(task).get("command")
    if command is None:
        return None
    return (
        f"{obs.binding}: after an ordinary message the task's metadata still holds command "
        f"{quoted(command)} from an earlier update; conform (like every client) ignores it and "
        "reads status.message.metadata"
    )
