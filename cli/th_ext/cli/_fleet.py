"""The command line's side of a run over many sources (``th-ext validate`` and ``conform``).

The options (``--from``, ``--jobs``, ``--per-origin``, ``-o``, ``--resume``, ``--quiet``), and
``run_fleet``, which renders what the library's batch (``th_ext.batch``) yields: JSON Lines
as each source is checked, or text followed by a summary, or one JSON array, JUnit document or
GitHub annotations. On a terminal a live line on standard error counts the sources checked.

SIGINT and SIGTERM cancel the sources in flight; every line already written is whole, the
summary so far is printed, and the exit code is 130 (SIGINT) or 143 (SIGTERM: 128 plus the
signal's number, as a shell reports it). ``--resume FILE`` then skips the sources FILE holds
and appends the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from th_ext import SourceArgumentError, SourceError
from th_ext.batch import (
    BatchCounts,
    ListEntry,
    Outcome,
    ResumeState,
    SeenSources,
    Summary,
    read_resume,
    read_source_list,
)
from th_ext.cli._options import FleetOptions
from th_ext.cli._terminal import (
    ExitCode,
    FleetProgress,
    error_line,
    fail,
    shown_source,
    stderr_is_terminal,
)
from th_ext.problems import escape_unsafe
from th_ext.report import render, statistics_json, statistics_text, summary_text

__all__ = ["Renderers", "run_fleet"]

_SIGNAL_EXIT = {signal.SIGINT: 130, signal.SIGTERM: 143}


@dataclass(frozen=True, slots=True)
class Renderers:
    """How a command shows its outcomes: ``one`` an outcome in a streamed format (text,
    github), ``many`` the outcomes of a whole run in one document (json, junit), ``noun``
    what the summary counts (``cards``, ``agents``), ``good``/``bad`` its words for exit
    codes 0 and 1."""

    one: Callable[[Outcome, str], str]
    many: Callable[[list[Outcome], str], str]
    noun: str
    good: str
    bad: str


_WHOLE = ("json", "junit", "concise", "sarif")
"""The formats whose document is made once every source is checked (one JSON array, one JUnit
document, one count line after every problem, one SARIF log)."""


def run_fleet(  # noqa: PLR0917 (each command's parts of the run)
    command: str,
    sources: list[str],
    fleet: FleetOptions,
    output_format: str,
    start: Callable[[AsyncIterator[ListEntry], BatchCounts, SeenSources | None], Any],
    renderers: Renderers,
    junit_file: Path | None = None,
) -> int:
    """Check every source (``sources``, then those of ``--from``) with ``start`` and render
    the outcomes (and with ``junit_file``, the JUnit document of them all there); the exit
    code."""
    if fleet.resume is not None:
        if output_format not in ("text", "jsonl"):
            fail(f"--resume writes JSON Lines; it cannot be used with --format {output_format}")
        if fleet.output is not None and fleet.output != fleet.resume:
            fail("--resume FILE writes to FILE; give -o the same file or leave it out")
        output_format = "jsonl"
    if fleet.statistics and (fleet.resume is not None or output_format not in ("text", "json")):
        given = "--resume" if fleet.resume is not None else f"--format {output_format}"
        fail(f"--statistics prints text or json; it cannot be used with {given}")
    if fleet.from_file == "-" and "-" in sources:
        fail("standard input cannot be both a source and the --from list")
    if fleet.from_file is None and not sources:
        fail("give a SOURCE, or a list of them with --from FILE")
    state = ResumeState()
    if fleet.resume is not None:
        try:
            state = read_resume(str(fleet.resume), command)
        except SourceArgumentError as exc:
            fail(str(exc))
    out = _open_output(fleet)
    run = _Run(command, output_format, renderers, out, fleet, state)
    run.keep = (output_format in _WHOLE and not fleet.statistics) or junit_file is not None
    try:
        code = asyncio.run(run.main(sources, start))
    finally:
        if out is not None:
            out.close()
    if junit_file is not None:
        run.kept.sort(key=lambda outcome: outcome.index)
        try:
            junit_file.write_text(renderers.many(run.kept, "junit"), encoding="utf-8")
        except OSError as exc:
            fail(f"--junit-file {junit_file}: {(exc.strerror or str(exc)).lower()}")
    return code


def _open_output(fleet: FleetOptions) -> IO[bytes] | None:
    path = fleet.resume or fleet.output
    if path is None:
        return None
    try:
        # Unbuffered: each line is one write of its bytes, so an interrupted run leaves whole
        # lines only.
        return path.open("ab" if fleet.resume is not None else "wb", buffering=0)
    except OSError as exc:
        option = "--resume" if fleet.resume is not None else "-o"
        fail(f"{option} {path}: cannot be written ({(exc.strerror or str(exc)).lower()})")


class _Run:
    """One batch run: its outcomes written as they come, its summary, its signals."""

    def __init__(  # noqa: PLR0917 (private; one call)
        self,
        command: str,
        output_format: str,
        renderers: Renderers,
        out: IO[bytes] | None,
        fleet: FleetOptions,
        state: ResumeState,
    ) -> None:
        self.command = command
        self.format = output_format
        self.renderers = renderers
        self.out = out
        self.fleet = fleet
        self.state = state
        self.summary = Summary()
        self.counts = BatchCounts()
        self.keep = False
        self.kept: list[Outcome] = []  # json and junit: one document of every report
        self.signal: int | None = None
        self.written_text = False

    async def main(
        self,
        sources: list[str],
        start: Callable[[AsyncIterator[ListEntry], BatchCounts, SeenSources | None], Any],
    ) -> int:
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None
        for signum in _SIGNAL_EXIT:
            loop.add_signal_handler(signum, self._interrupt, signum, task)
        skip = self.state.seen if self.state.lines else None
        progress = _progress(self, self.fleet.quiet)
        try:
            with progress:
                outcomes = start(self._entries(sources), self.counts, skip)
                async with contextlib.aclosing(outcomes):
                    async for outcome in outcomes:
                        self._show(outcome)
                        progress.advance(outcome)
        except asyncio.CancelledError:
            if self.signal is None:
                raise
            self._finish(interrupted=True)
            return _SIGNAL_EXIT[signal.Signals(self.signal)]
        except SourceError as exc:
            error_line(str(exc))
            return int(ExitCode.UNUSABLE)
        finally:
            for signum in _SIGNAL_EXIT:
                loop.remove_signal_handler(signum)
        return self._finish(interrupted=False)

    def _interrupt(self, signum: int, task: asyncio.Task[Any]) -> None:
        if self.signal is None:
            self.signal = signum
            task.cancel()

    async def _entries(self, sources: list[str]) -> AsyncIterator[ListEntry]:
        for source in sources:
            yield source
        if self.fleet.from_file is not None:
            async for entry in read_source_list(self.fleet.from_file):
                yield entry

    def _show(self, outcome: Outcome) -> None:
        self.summary.add(outcome)
        if outcome.duplicate:
            if self.format == "text":
                self._write_text(
                    f"{shown_source(outcome.source)}: listed more than once, checked once\n"
                )
            return
        if self.keep:
            self.kept.append(outcome)
        if self.fleet.statistics:  # the counts alone, once the run is over
            return
        if self.format == "jsonl":
            assert outcome.document is not None
            self._write(render(outcome.document, "jsonl").encode("ascii"))
        elif self.format in _WHOLE:
            return
        elif self.format == "text" and outcome.error is not None:
            sys.stdout.flush()
            error_line(str(outcome.error))
        else:
            text = self.renderers.one(outcome, self.format)
            if self.format == "text" and self.written_text:
                text = "\n" + text
            self._write_text(text)

    def _write_text(self, text: str) -> None:
        self.written_text = True
        if self.out is None:  # through the sanitiser of standard output
            sys.stdout.write(text)
            sys.stdout.flush()
        else:
            self._write(escape_unsafe(text, keep_sgr=False).encode("utf-8", "replace"))

    def _write(self, data: bytes) -> None:
        if self.out is not None:
            view = memoryview(data)
            while view:  # a regular file takes it in one write; a short one is finished
                view = view[self.out.write(view) or 0 :]
            return
        stdout = sys.stdout.buffer
        stdout.write(data)
        stdout.flush()

    def _finish(self, *, interrupted: bool) -> int:
        if self.fleet.statistics:
            self._write_text(self._statistics(interrupted))
        elif self.format in _WHOLE:
            self.kept.sort(key=lambda outcome: outcome.index)
            self._write_text(self.renderers.many(self.kept, self.format))
        elif self.format == "text":
            renderers, conform = self.renderers, self.command == "conform"
            self._write_text(
                summary_text(
                    self.summary,
                    renderers.noun,
                    renderers.good,
                    renderers.bad,
                    interrupted=interrupted,
                    conform=conform,
                )
            )
        elif interrupted:
            error_line(f"interrupted; {self.summary.checked} sources checked")
        if not self.summary.checked and not self.state.lines and not interrupted:
            error_line("the list names no source to check")
            return int(ExitCode.UNUSABLE)
        return max(self.summary.exit_code, self.state.worst)

    def _statistics(self, interrupted: bool) -> str:
        """``--statistics``: the counts by code of the sources checked, in text or JSON."""
        statistics, conform = self.summary.statistics, self.command == "conform"
        if self.format == "json":
            code = max(self.summary.exit_code, self.state.worst)
            return statistics_json(statistics, command=self.command, exit_code=code)
        text = statistics_text(statistics, conform=conform)
        if interrupted:
            text += "interrupted: the sources not counted here were not checked\n"
        return text


class _NoProgress:
    def __enter__(self) -> _NoProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def advance(self, outcome: Outcome) -> None:
        return None


def _progress(run: _Run, quiet: bool) -> Any:
    if quiet or not stderr_is_terminal():
        return _NoProgress()
    return FleetProgress(run.counts, run.summary)
