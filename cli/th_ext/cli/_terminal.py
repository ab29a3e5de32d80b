"""The terminal: exit codes, one-line errors, colour, the progress line, and one sanitiser in
front of standard output and standard error."""

from __future__ import annotations

import os
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from enum import IntEnum
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn, TextIO

import typer

from th_ext.net import redact
from th_ext.problems import escape_unsafe, os_reason

if TYPE_CHECKING:
    from rich.progress import Progress

    from th_ext.batch import BatchCounts, Summary

__all__ = [
    "ExitCode",
    "FleetProgress",
    "OutputFailedError",
    "RecentRate",
    "StepProgress",
    "error_line",
    "fail",
    "install_sanitiser",
    "progress_line",
    "sanitised_streams",
    "shown_source",
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
    return redact(source) if "@" in source else source


def use_color(stream: TextIO) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set (https://no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def write(text: str, *, err: bool = False) -> None:
    stream = sys.stderr if err else sys.stdout
    stream.write(text if text.endswith("\n") else text + "\n")


def error_line(message: str, prog: str = "th-ext") -> None:
    """Print ``th-ext: error: <message>`` (``prog`` for ``th-ext``) on one line to stderr
    (``error`` in red on a terminal). Standard error closed too is not an error: the exit code
    still tells."""
    label = "\x1b[31;1merror\x1b[0m" if use_color(sys.stderr) else "error"
    with suppress(BrokenPipeError):
        write(f"{prog}: {label}: {' '.join(message.split())}", err=True)


def fail(message: str, code: ExitCode = ExitCode.UNUSABLE) -> NoReturn:
    """Print ``th-ext: error: <message>`` on one line to stderr and exit with ``code``."""
    error_line(message)
    raise typer.Exit(int(code))


class OutputFailedError(Exception):
    """Standard output cannot be written, other than by its reader going away (a full disk):
    ``reason`` in the system's words."""

    def __init__(self, cause: OSError) -> None:
        super().__init__(f"standard output: {os_reason(cause)}")


@contextmanager
def _writing(stdout: bool) -> Iterator[None]:
    """A write to standard output (``stdout``) that fails is an ``OutputFailedError``; a closed
    pipe stays a ``BrokenPipeError``."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as exc:
        if not stdout:
            raise
        raise OutputFailedError(exc) from exc


class _CheckedBuffer:
    """Standard output's byte stream, its failed writes an ``OutputFailedError``."""

    def __init__(self, raw: IO[bytes]) -> None:
        self.raw = raw

    def write(self, data: bytes) -> int:
        with _writing(True):
            return self.raw.write(data)

    def flush(self) -> None:
        with _writing(True):
            self.raw.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


class SanitisingStream:
    """A text stream that writes through ``escape_unsafe`` to ``raw``: standard output and
    standard error while a command runs, since untrusted bytes reach them by many paths."""

    def __init__(self, raw: TextIO, *, stdout: bool = False) -> None:
        self.raw = raw
        self.keep_sgr = use_color(raw)
        self.stdout = stdout

    def write(self, text: str) -> int:
        with _writing(self.stdout):
            self.raw.write(escape_unsafe(text, keep_sgr=self.keep_sgr))
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        with _writing(self.stdout):
            self.raw.flush()

    def isatty(self) -> bool:
        return self.raw.isatty()

    def fileno(self) -> int:
        return self.raw.fileno()

    @property
    def buffer(self) -> IO[bytes]:
        if self.stdout:
            return _CheckedBuffer(self.raw.buffer)  # type: ignore[return-value]
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
        sys.stdout = SanitisingStream(sys.stdout, stdout=True)
    if not isinstance(sys.stderr, SanitisingStream):
        sys.stderr = SanitisingStream(sys.stderr)


class RecentRate:
    """Items a second over the last ``window`` seconds; ``None`` until a second of samples."""

    def __init__(self, window: float = 5.0) -> None:
        self.window = window
        self.samples: deque[tuple[float, int]] = deque()

    def add(self, done: int, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        self.samples.append((now, done))
        while len(self.samples) > 2 and now - self.samples[1][0] >= self.window:
            self.samples.popleft()

    def rate(self) -> float | None:
        if len(self.samples) < 2:
            return None
        (first, done_first), (last, done_last) = self.samples[0], self.samples[-1]
        return (done_last - done_first) / (last - first) if last - first >= 1.0 else None


def progress_line(done: int, total: int | None, what: str, rate: float | None) -> str:
    """``12/100 checked · 3.5/s · 0:25 left``: only what is known (no total while the list
    is read, no rate before a second of samples)."""
    line = f"{done}/{total} {what}" if total is not None else f"{done} {what}"
    if rate:
        line += f" · {rate:,.1f}/s"
        if total is not None and total > done:
            minutes, seconds = divmod(round((total - done) / rate), 60)
            line += f" · {minutes}:{seconds:02d} left"
    return line


def _progress(describe: Callable[[], str], *, transient: bool) -> Progress:
    # rich.progress adds about 20 ms of imports (measured with -X importtime): it loads only
    # for a progress line on a terminal.
    from rich.console import Console
    from rich.progress import BarColumn, Progress, ProgressColumn, Task
    from rich.text import Text

    class Described(ProgressColumn):
        """The line as ``describe`` says it at each refresh."""

        def render(self, task: Task) -> Text:
            return Text(describe())

    return Progress(
        BarColumn(bar_width=24),
        Described(),
        console=Console(file=unwrap(sys.stderr)),  # its cursor moves are not sanitised away
        transient=transient,
        refresh_per_second=8,
    )


class FleetProgress:
    """The progress line of a batch (when ``shown``): updated with each outcome."""

    def __init__(
        self, counts: BatchCounts, summary: Summary, *, transient: bool, shown: bool
    ) -> None:
        self.counts = counts
        self.summary = summary
        self.rate = RecentRate()
        self.progress = _progress(self.describe, transient=transient) if shown else None
        if self.progress is not None:
            self.task = self.progress.add_task("sources", total=None)

    def __enter__(self) -> FleetProgress:
        if self.progress is not None:
            self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.advance()
            self.progress.stop()

    def advance(self) -> None:
        if self.progress is None:
            return
        done = self.summary.checked + self.summary.duplicates
        self.rate.add(done)
        total = self._total()
        self.progress.update(self.task, completed=done, total=total)

    def _total(self) -> int | None:
        return self.counts.listed - self.counts.resumed if self.counts.finished else None

    def describe(self) -> str:
        done = self.summary.checked + self.summary.duplicates
        line = progress_line(done, self._total(), "checked", self.rate.rate())
        errors = self.summary.failed + self.summary.unreadable
        return line + (f" · {errors} failing" if errors else "")


class StepProgress:
    """The progress of one long run made of steps (a conformance run's messages): give it as
    the run's progress callback."""

    def __init__(self) -> None:
        self.done, self.total = 0, 0
        self.rate = RecentRate()
        self.progress = _progress(self.describe, transient=False)
        self.task = self.progress.add_task("steps", total=None)

    def __enter__(self) -> StepProgress:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def __call__(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        self.rate.add(done)
        self.progress.update(self.task, completed=done, total=total or None)

    def describe(self) -> str:
        return progress_line(self.done, self.total or None, "messages sent", self.rate.rate())
