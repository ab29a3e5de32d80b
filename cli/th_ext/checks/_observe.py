"""What one scenario produced: the answer to the send and the task before and after it.

Small readers over A2A 1.0 JSON live here too, shared by the checks; none of them raises on a
malformed answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Protocol

CheckStatus = Literal["pass", "fail", "skip"]


class Exchange(Protocol):
    """One request and its answer, as a client recorded it (``RpcExchange`` is one)."""

    results: list[Any]

    @property
    def ok(self) -> bool: ...

    def problem(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Check:
    """One check of one requirement, on one binding, in one scenario."""

    requirement: str
    status: CheckStatus
    binding: str
    """``JSONRPC``, ``HTTP+JSON``, or ``card`` for checks of the card itself."""
    scenario: str
    """What was sent, e.g. ``/model`` or ``leading whitespace``, with the task it went to."""
    mode: str
    """``stream`` (SendStreamingMessage), ``send`` (SendMessage), or ``card``."""
    detail: str
    interface: str = ""
    """The URL of the interface it ran over ("" for the card, or when only one was used)."""
    excerpt: str = ""
    """For a failed check: a short, bounded excerpt of what the agent sent."""


__all__ = [
    "Check",
    "CheckStatus",
    "Exchange",
    "Observation",
    "artifacts",
    "event_kind",
    "message_of",
    "metadata",
    "state",
    "task_of",
]


@dataclass(frozen=True, slots=True)
class Observation:
    """One send and what came back, with the reads around it."""

    binding: str
    stream: bool
    existing: bool
    """True when the message went to an existing task."""
    label: str
    exchange: Exchange
    before: dict[str, Any] | None
    """The task before the send (``GetTask``), for a message to an existing task."""
    after: dict[str, Any] | None
    """The task after the send (``GetTask``), or None when it could not be read."""
    sent: dict[str, Any] | None = None
    """The message sent, when the checker kept it."""

    @property
    def mode(self) -> str:
        return "stream" if self.stream else "send"

    @property
    def scenario(self) -> str:
        return f"{self.label}, {'existing' if self.existing else 'new'} task"

    @property
    def results(self) -> list[Any]:
        return self.exchange.results


def event_kind(result: Any) -> str:
    """``task``, ``message``, ``statusUpdate``, ``artifactUpdate`` or ``unknown``."""
    if isinstance(result, dict):
        for key in ("task", "message", "statusUpdate", "artifactUpdate"):
            if isinstance(result.get(key), dict):
                return key
    return "unknown"


def metadata(value: Any) -> dict[str, Any]:
    found = value.get("metadata") if isinstance(value, dict) else None
    return found if isinstance(found, dict) else {}


def message_of(value: Any) -> dict[str, Any] | None:
    """``status.message`` of a task or a status update."""
    status = value.get("status") if isinstance(value, dict) else None
    message = status.get("message") if isinstance(status, dict) else None
    return message if isinstance(message, dict) else None


def state(value: Any) -> str | None:
    status = value.get("status") if isinstance(value, dict) else None
    found = status.get("state") if isinstance(status, dict) else None
    return found if isinstance(found, str) else None


def artifacts(task: Any) -> int:
    found = task.get("artifacts") if isinstance(task, dict) else None
    return len(found) if isinstance(found, list) else 0


def task_of(observation: Observation) -> dict[str, Any] | None:
    """The first Task the answer holds (the stream's first event, or SendMessage's result)."""
    for result in observation.results:
        if event_kind(result) == "task":
            task: dict[str, Any] = result["task"]
            return task
    return None
