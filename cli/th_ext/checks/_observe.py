"""What one scenario produced, the readers over it, and the core A2A rule every answer shows;
none of the readers raises on a malformed answer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Protocol

__all__ = [
    "CORE_RULES",
    "Check",
    "CheckStatus",
    "CoreRule",
    "Exchange",
    "Observation",
    "artifacts",
    "check",
    "event_kind",
    "message_of",
    "metadata",
    "state",
    "stream_order_check",
    "task_of",
]

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


def check(obs: Observation, requirement: str, ok: bool | None, detail: str) -> Check:
    """A check of ``obs`` that passes (True), fails (False) or does not apply (None)."""
    status: CheckStatus = "skip" if ok is None else "pass" if ok else "fail"
    return Check(requirement, status, obs.binding, obs.scenario, obs.mode, detail)


@dataclass(frozen=True, slots=True)
class CoreRule:
    """A rule of core A2A that conform reports beside the extension's requirements."""

    id: str
    summary: str
    url: str


CORE_RULES = (
    CoreRule(
        id="A2A-3.1.2",
        summary=(
            "A stream for a task begins with the Task object (for an existing task, its current "
            "snapshot) or, for a direct answer, a Message; status and artifact updates follow."
        ),
        url="https://a2a-protocol.org/latest/specification/#312-send-streaming-message",
    ),
)
"""Every core rule the checks may report, in report order."""


def _stream_order(obs: Observation, ok: bool, detail: str) -> Check:
    return check(obs, "A2A-3.1.2", ok, detail)


def stream_order_check(obs: Observation) -> Check:
    """A2A-3.1.2: the stream's first event is the Task of the message's task, or a Message."""
    kinds = [event_kind(r) for r in obs.results]
    if not kinds:
        return _stream_order(obs, False, "the stream held no event")
    first = kinds[0]
    if first == "message":
        return _stream_order(obs, True, "the stream is one Message")
    if first != "task":
        return _stream_order(obs, False, f"the stream began with {first}, not the Task")
    task = obs.results[0]["task"]
    if obs.existing and obs.before is not None and task.get("id") != obs.before.get("id"):
        return _stream_order(obs, False, "the stream's Task is not the task the message went to")
    return _stream_order(obs, True, "the stream began with the Task")
