"""CMD-4: the task a reply's ``task_ref`` names can be read with ``GetTask``.

The one check that sends a request: it asks whatever reads tasks for the binding at hand.
"""

from __future__ import annotations

from typing import Any, Protocol

from th_ext.checks._command_checks import check
from th_ext.checks._observe import Check, Exchange, Observation, message_of, metadata, state

__all__ = ["TaskReader", "task_ref_check"]


class TaskReader(Protocol):
    """Reads a task by id (``GetTask``) on one binding."""

    async def get_task(self, task_id: str) -> Exchange: ...


async def task_ref_check(wire: TaskReader, obs: Observation, reply: dict[str, Any]) -> Check:
    """CMD-4: a ``task_ref`` in the reply names a task ``GetTask`` can read."""
    ref = metadata(reply).get("task_ref") or metadata(message_of(reply)).get("task_ref")
    if ref is None:
        return check(obs, "CMD-4", None, "the command started no sub-task (no task_ref)")
    if not isinstance(ref, str) or not ref:
        return check(obs, "CMD-4", False, f"task_ref {ref!r} is not a task id")
    exchange = await wire.get_task(ref)
    task = exchange.results[0] if exchange.ok and exchange.results else None
    if isinstance(task, dict) and task.get("id") == ref:
        return check(obs, "CMD-4", True, f"GetTask {ref}: {state(task)}")
    return check(obs, "CMD-4", False, f"GetTask {ref}: {exchange.problem() or 'not that task'}")
