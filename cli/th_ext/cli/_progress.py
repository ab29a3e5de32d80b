"""The live progress line on standard error, drawn by ``rich``, for long runs on a terminal.

``N/M checked``, the errors so far, the rate and the time left. While a list is still being
read, M is what it has listed so far (and grows). Only a terminal gets it, never with
``--quiet``: the callers decide, and this module (and rich) is imported only then.
"""

from __future__ import annotations

import sys

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from th_ext.batch import BatchCounts, Outcome, Summary
from th_ext.cli._terminal import unwrap

__all__ = ["FleetProgress", "StepProgress"]


class _Rate(ProgressColumn):
    """Items a second, once rich has measured some."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.1f}/s" if speed else "-/s")


def _progress(what: str, *, errors: bool = True) -> Progress:
    return Progress(
        TextColumn("{task.completed}/{task.total} " + what),
        TextColumn("· {task.fields[errors]} errors" if errors else ""),
        BarColumn(bar_width=24),
        _Rate(),
        TextColumn("· left"),
        TimeRemainingColumn(),
        console=Console(file=unwrap(sys.stderr)),  # its cursor moves are not sanitised away
        transient=False,
        refresh_per_second=8,
    )


class FleetProgress:
    """The progress of a batch: updated with each outcome."""

    def __init__(self, counts: BatchCounts, summary: Summary) -> None:
        self.counts = counts
        self.summary = summary
        self.progress = _progress("checked")
        self.task = self.progress.add_task("sources", total=None, errors=0)

    def __enter__(self) -> FleetProgress:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._update()
        self.progress.stop()

    def advance(self, outcome: Outcome) -> None:
        self._update()

    def _update(self) -> None:
        done = self.summary.checked + self.summary.duplicates
        listed = self.counts.listed - self.counts.resumed
        self.progress.update(
            self.task,
            completed=done,
            total=max(listed, done),
            errors=self.summary.failed + self.summary.unreadable,
        )


class StepProgress:
    """The progress of one long run made of steps (a conformance run's messages): give it as
    the run's progress callback."""

    def __init__(self) -> None:
        self.progress = _progress("messages sent", errors=False)
        self.task = self.progress.add_task("steps", total=None, errors=0)

    def __enter__(self) -> StepProgress:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def __call__(self, done: int, total: int) -> None:
        self.progress.update(self.task, completed=done, total=total)
