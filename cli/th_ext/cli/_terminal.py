"""The terminal: exit codes, one-line errors, colour, the spinner, the progress line, and one
sanitiser in front of standard output and standard error.

Cards, agents and servers are untrusted, and their bytes reach the terminal through many
paths: a report, a reason phrase inside an error, a file name click echoes in a usage error.
Rather than trusting each path to clean what it prints, the command line swaps ``sys.stdout``
and ``sys.stderr`` for ``SanitisingStream`` while a command runs, so every character written as
text passes ``escape_unsafe``: no control character except newline and tab, no DEL, no
bidirectional control, no line separator, no lone surrogate, whatever the format. Colour
sequences pass only on a stream th-ext colours itself (a terminal, without ``NO_COLOR``).

The one deliberate exception is ``raw``: the terminal controls th-ext writes itself (the
spinner's carriage return, the progress line's cursor moves), and ``th-ext schema``'s
published bytes, which go out unchanged.

The live progress line on standard error, drawn by ``rich``, is for long runs on a terminal:
``N/M checked``, the errors so far, the rate and the time left. While a list is still being
read, M is what it has listed so far (and grows). Only a terminal gets it, never with
``--quiet``: the callers decide, and rich is imported only then.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from enum import IntEnum
from pathlib import Path
from types import TracebackType
from typing import IO, TYPE_CHECKING, Any, NoReturn, TextIO

import typer

from th_ext.net import redact_url
from th_ext.problems import clean, escape_unsafe

if TYPE_CHECKING:
    from rich.progress import Progress

    from th_ext.batch import BatchCounts, Outcome, Summary

__all__ = [
    "ExitCode",
    "FleetProgress",
    "SanitisingStream",
    "Spinner",
    "StepProgress",
    "error_line",
    "fail",
    "install_sanitiser",
    "sanitised_streams",
    "shown_source",
    "stderr_is_terminal",
    "unwrap",
    "use_color",
    "write",
]


class ExitCode(IntEnum):
    """Exit codes shared by every subcommand."""

    OK = 0
    PROBLEMS = 1  # the input was read and something in it is wrong
    UNUSABLE = 2  # usage error, or the input could not be read at all
    OUTPUT_CLOSED = 141  # standard output's reader went away (128 + SIGPIPE), as `| head` does


def shown_source(source: str) -> str:
    """``source`` (a path or a URL) as it may be printed: without URL credentials."""
    return redact_url(source) if "@" in source else source


def use_color(stream: TextIO) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set (https://no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def write(text: str, *, err: bool = False) -> None:
    stream = sys.stderr if err else sys.stdout
    stream.write(text if text.endswith("\n") else text + "\n")


def error_line(message: str) -> None:
    """Print ``th-ext: error: <message>`` on one line to stderr (``error`` in red on a
    terminal). Standard error closed too is not an error: the exit code still tells."""
    label = "\x1b[31;1merror\x1b[0m" if use_color(sys.stderr) else "error"
    with suppress(BrokenPipeError):
        write(f"th-ext: {label}: {' '.join(message.split())}", err=True)


def fail(message: str, code: ExitCode = ExitCode.UNUSABLE) -> NoReturn:
    """Print ``th-ext: error: <message>`` on one line to stderr and exit with ``code``."""
    error_line(message)
    raise typer.Exit(int(code))


class SanitisingStream:
    """A text stream that writes through ``escape_unsafe`` to ``raw``."""

    def __init__(self, raw: TextIO) -> None:
        self.raw = raw
        self.keep_sgr = use_color(raw)

    def write(self, text: str) -> int:
        self.raw.write(escape_unsafe(text, keep_sgr=self.keep_sgr))
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        self.raw.flush()

    def isatty(self) -> bool:
        return self.raw.isatty()

    def fileno(self) -> int:
        return self.raw.fileno()

    @property
    def buffer(self) -> IO[bytes]:
        return self.raw.buffer

    @property
    def encoding(self) -> str:
        return getattr(self.raw, "encoding", None) or "utf-8"

    @property
    def errors(self) -> str | None:
        return getattr(self.raw, "errors", None)

    def __getattr__(self, name: str) -> Any:  # closed, name, mode, writable, ...
        return getattr(self.raw, name)


def unwrap(stream: TextIO) -> TextIO:
    """The stream under a ``SanitisingStream``, for output th-ext controls byte by byte."""
    return stream.raw if isinstance(stream, SanitisingStream) else stream


@contextmanager
def sanitised_streams() -> Iterator[None]:
    """``sys.stdout`` and ``sys.stderr`` sanitised for the duration; restored after."""
    saved = sys.stdout, sys.stderr
    with ExitStack() as closing:
        if sys.stdout is None:  # started with descriptor 1 closed: output is discarded
            sys.stdout = closing.enter_context(Path(os.devnull).open("w", encoding="utf-8"))
        if sys.stderr is None:
            sys.stderr = closing.enter_context(Path(os.devnull).open("w", encoding="utf-8"))
        install_sanitiser()
        try:
            yield
        finally:
            sys.stdout, sys.stderr = saved


def install_sanitiser() -> None:
    """Put ``sys.stdout`` and ``sys.stderr`` behind the sanitiser (once: never twice)."""
    if not isinstance(sys.stdout, SanitisingStream):
        sys.stdout = SanitisingStream(sys.stdout)
    if not isinstance(sys.stderr, SanitisingStream):
        sys.stderr = SanitisingStream(sys.stderr)


class Spinner:
    """A one-line spinner on ``stream`` while a fetch runs; nothing unless ``enabled``."""

    _FRAMES = "|/-\\"

    def __init__(self, stream: TextIO, message: str, *, enabled: bool) -> None:
        self.stream = stream
        self.message = clean(message)
        self.enabled = enabled
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Spinner:
        if self.enabled:
            self._stop = threading.Event()
            self._thread = threading.Thread(target=self._spin, daemon=True)
            self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            self.stream.write("\r\x1b[2K")
            self.stream.flush()

    def _spin(self) -> None:
        frame = 0
        while not self._stop.wait(0.1 if frame else 0.2):
            self.stream.write(f"\r{self._FRAMES[frame % 4]} {self.message}")
            self.stream.flush()
            frame += 1


def stderr_is_terminal() -> bool:
    isatty = getattr(sys.stderr, "isatty", None)
    return bool(isatty and isatty())


def _progress(what: str, *, errors: bool = True) -> Progress:
    # rich.progress adds about 20 ms of imports (measured with -X importtime): it loads only
    # for a progress line on a terminal.
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

    class Rate(ProgressColumn):
        """Items a second, once rich has measured some."""

        def render(self, task: Task) -> Text:
            speed = task.finished_speed or task.speed
            return Text(f"{speed:,.1f}/s" if speed else "-/s")

    return Progress(
        TextColumn("{task.completed}/{task.total} " + what),
        TextColumn("· {task.fields[errors]} errors" if errors else ""),
        BarColumn(bar_width=24),
        Rate(),
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
