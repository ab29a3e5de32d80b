"""The checks of a message that must stay ordinary: it reaches the model, and no command reply.

A command reply is recognised as the spec says: ``metadata.command`` on a status update, or on
a message's own metadata. ``task.metadata`` is never read for the decision (the SDK servers keep
the metadata of every earlier update there); finding a command in it only earns a note.
"""

from __future__ import annotations

from th_ext.checks._command_checks import check
from th_ext.checks._observe import Check, Observation, event_kind, message_of, metadata, task_of

__all__ = ["ordinary_checks", "stale_task_metadata"]


def ordinary_checks(obs: Observation, requirement: str) -> list[Check]:
    """The answer to a message the rule does not make a command."""
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
            flagged.append(f"a status update has metadata.command {metadata(event)['command']!r}")
        message = event if kind == "message" else message_of(event)
        if "command" in metadata(message):
            where = "the task's status.message" if kind == "task" else f"a {kind} message"
            flagged.append(f"{where} has metadata.command {metadata(message)['command']!r}")
    if flagged:
        return [check(obs, requirement, False, "answered as a command: " + "; ".join(flagged))]
    return [
        check(
            obs,
            requirement,
            True,
            f"an ordinary answer ({', '.join(event_kind(r) for r in obs.results)})",
        )
    ]


def stale_task_metadata(obs: Observation) -> str | None:
    """A note when the task's own metadata still names a command after an ordinary answer."""
    task = task_of(obs) if not obs.stream else obs.after
    command = metadata(task).get("command")
    if command is None:
        return None
    return (
        f"{obs.binding}: after an ordinary message the task's metadata still holds command "
        f"{command!r} from an earlier update; conform (like every client) ignores it and reads "
        "status.message.metadata"
    )
