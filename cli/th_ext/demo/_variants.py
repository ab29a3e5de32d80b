"""The demo agent's variants: the correct agent, and deliberately broken ones for tests."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["DemoVariant"]


class DemoVariant(StrEnum):
    """How the demo agent behaves. Each broken variant breaks exactly one requirement
    (``requirement``), whose check a run against it must fail; conform's tests rely on it."""

    CORRECT = "correct"
    """Implements the extension as the spec says."""
    NO_STREAMING = "no-streaming"
    """Correct, but the card does not offer streaming, so clients use ``SendMessage``."""
    MESSAGE_ONLY = "message-only"
    """Correct, with the command metadata on the reply message only (as tiny-harness does);
    only the SHOULD of both places warns."""
    EVENT_ONLY = "event-only"
    """Correct, with the command metadata on the status update only; only the SHOULD of both
    places warns."""
    NO_METADATA = "no-metadata"
    """Broken: neither the reply message nor the status update carries the command metadata."""
    CHANGED_STATE = "changed-state"
    """Broken: a command's reply moves the task to ``TASK_STATE_COMPLETED``."""
    MISSING_TASK_REF = "missing-task-ref"
    """Broken: ``/review`` answers with a ``task_ref`` that names no task."""
    REPLY_AS_ARTIFACT = "reply-as-artifact"
    """Broken: a command's reply is sent as an artifact instead of a status update."""
    WORKING_FIRST = "working-first"
    """Broken: a ``TASK_STATE_WORKING`` update precedes the command's reply on a stream."""
    REPLY_AS_MESSAGE = "reply-as-message"
    """Broken: a command's reply is a bare Message instead of a status update."""
    UNREGISTERED_AS_COMMAND = "unregistered-as-command"
    """Broken: an unregistered ``/name`` is answered as a command."""
    USER_ROLE = "user-role"
    """Broken: the reply message has role ``ROLE_USER``."""
    SLASHED_COMMAND = "slashed-command"
    """Broken: ``metadata.command`` holds the name with its slash (``/model``)."""
    REACHES_MODEL = "reaches-model"
    """Broken: after the command's reply, the message also reaches the model."""
    UNNAMED_TASK = "unnamed-task"
    """Broken on a SHOULD: the reply message leaves out ``taskId`` and ``contextId``."""

    @property
    def broken(self) -> bool:
        return self not in _CONFORMANT

    @property
    def streaming(self) -> bool:
        """Whether the card offers streaming."""
        return self is not DemoVariant.NO_STREAMING

    @property
    def requirement(self) -> str | None:
        """The requirement this variant breaks (None for the correct ones)."""
        return _BREAKS.get(self)


_CONFORMANT = frozenset(
    {
        DemoVariant.CORRECT,
        DemoVariant.NO_STREAMING,
        DemoVariant.MESSAGE_ONLY,
        DemoVariant.EVENT_ONLY,
    }
)
_BREAKS = {
    DemoVariant.NO_METADATA: "CMD-3",
    DemoVariant.CHANGED_STATE: "CMD-5",
    DemoVariant.MISSING_TASK_REF: "CMD-4",
    DemoVariant.REPLY_AS_ARTIFACT: "CMD-2",
    DemoVariant.WORKING_FIRST: "CMD-14",
    DemoVariant.REPLY_AS_MESSAGE: "CMD-2",
    DemoVariant.UNREGISTERED_AS_COMMAND: "CMD-6",
    DemoVariant.USER_ROLE: "CMD-9",
    DemoVariant.SLASHED_COMMAND: "CMD-3",
    DemoVariant.REACHES_MODEL: "CMD-1",
    DemoVariant.UNNAMED_TASK: "CMD-11",
}
