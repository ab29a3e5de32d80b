"""The demo agent's variants: the correct agent, and deliberately broken ones for tests.

Each broken variant breaks exactly one sentence of the commands extension, so that a checker
run against it must fail exactly the check that guards that sentence.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["DemoVariant"]


class DemoVariant(StrEnum):
    """How the demo agent behaves."""

    CORRECT = "correct"
    """Implements the extension as the spec says."""
    NO_STREAMING = "no-streaming"
    """Correct, but the card does not offer streaming, so clients use ``SendMessage``."""
    NO_METADATA = "no-metadata"
    """Broken: a command's reply carries no ``metadata``."""
    CHANGED_STATE = "changed-state"
    """Broken: a command's reply moves the task to ``TASK_STATE_WORKING``."""
    MISSING_TASK_REF = "missing-task-ref"
    """Broken: ``/review`` answers with a ``task_ref`` that names no task."""

    @property
    def broken(self) -> bool:
        return self not in (DemoVariant.CORRECT, DemoVariant.NO_STREAMING)
