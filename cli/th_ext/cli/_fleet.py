"""The command line's side of ``th-ext validate`` and ``conform``: ``run_fleet`` checks every source
through the library's batch, renders the outcomes as they come and records them (``--db``)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import signal
import sys
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NamedTuple

from th_ext import SourceArgumentError, SourceError, ThExtError, __version__
from th_ext.batch import (
    BatchCounts,
    ListEntry,
    Outcome,
    ResumeState,
    Revalidation,
    Summary,
    read_resume,
    read_source_list,
    run_sync,
)
from th_ext.cli._options import FleetOptions, is_stdout, write_output
from th_ext.cli._terminal import (
    ExitCode,
    FleetProgress,
    error_line,
    fail,
    shown_source,
    use_color,
    write,
)
from th_ext.problems import counted, escape_unsafe, os_reason
from th_ext.report import (
    RenderOptions,
    render,
    statistics_json,
    statistics_text,
    stream,
    summary_text,
    to_json,
)

if TYPE_CHECKING:
    from th_ext.history import HistoryStore, RunRecorder

__all__ = ["Tally", "run_fleet"]

_SIGNAL_EXIT = {signal.SIGINT: 130, signal.SIGTERM: 143}


class Tally(NamedTuple):
    """How the text summary counts a command's sources: ``noun`` (``card``, ``agent``),
    ``good`` and ``bad`` its words for exit codes 0 and 1."""

    noun: str
    good: str
    bad: str


_WHOLE = ("json", "junit", "concise", "sarif")
"""The formats whose document is made once every source is checked (one JSON array, one JUnit
document, one count line after every problem, one SARIF log)."""

Start = Callable[..., Any]
"""A command's batch, ``check_cards`` or ``check_agents`` with the command's options bound; the
run gives it the entries, ``--jobs``, ``--per-origin``, ``--rate``, ``--origin-failures``, its
counts and the sources to skip (and with ``validate --db --format jsonl``, ``revalidation``)."""


def run_fleet(  # noqa: PLR0917 (each command's parts of the run)
    command: str,
    sources: list[str],
    fleet: FleetOptions,
    output_format: str | None,
    start: Start,
    tally: Tally,
    *,
    junit_file: Path | None = None,
    html: Path | None = None,
    progress: bool = True,
) -> int:
    """Check every source (``sources``, then those of ``--from``) with ``start`` and render
    the outcomes in ``output_format`` (``None``: not given, text or with ``--resume`` jsonl);
    with ``junit_file`` or ``html``, also the document of them all there. The exit code."""
    if fleet.resume is not None:
        if output_format not in (None, "jsonl"):
            fail(
                f"--resume {fleet.resume} keeps the run as JSON Lines; --format "
                f"{output_format} cannot be used with it (leave --format out)"
            )
        if fleet.output is not None and fleet.output != fleet.resume:
            fail("--resume FILE writes to FILE; give -o the same file or leave it out")
    output_format = output_format or ("jsonl" if fleet.resume is not None else "text")
    if fleet.statistics and (fleet.resume is not None or output_format not in ("text", "json")):
        given = "--resume" if fleet.resume is not None else f"--format {output_format}"
        fail(f"--statistics prints text or json; it cannot be used with {given}")
    if fleet.from_file == "-" and "-" in sources:
        fail("standard input cannot be both a source and the --from list")
    if fleet.from_file is None and not sources:
        fail("give a SOURCE, or a list of them with --from FILE")
    single = fleet.from_file is None and len(sources) == 1
    if html is not None and not single:
        fail("--html writes the report of one agent; give one SOURCE without --from")
    state = ResumeState()
    if fleet.resume is not None:
        try:
            strict = bool((fleet.verdict or {}).get("strict")) if command == "validate" else None
            state = read_resume(str(fleet.resume), command, strict=strict)
        except SourceArgumentError as exc:
            fail(str(exc))
    store, recorder = _open_history(command, sources, fleet)
    # Only JSON Lines shows a card found unchanged: its earlier line, carried over.
    revalidating = command == "validate" and output_format == "jsonl"
    if store is not None and recorder is not None and revalidating:
        revalidation = _revalidation(store, recorder.run_id, fleet.verdict or {})
        start = functools.partial(start, revalidation=revalidation)
    out = _open_output(fleet, state)
    keep = (output_format in _WHOLE and not fleet.statistics) or junit_file is not None
    run = _Run(command, output_format, tally, out, fleet, state)
    run.single, run.keep, run.progress = single, keep or html is not None, progress
    run.recorder = recorder
    try:
        code = run_sync(lambda: run.main(sources, start))
    finally:
        if out is not None:
            out.close()
        if store is not None:
            run.end_history("interrupted", None)  # only when the run did not end it
            store.close()
    run.kept.sort(key=lambda outcome: outcome.index)
    if junit_file is not None:
        write_output(junit_file, "--junit-file", render(run.items(), "junit"))
    reports = [outcome.report for outcome in run.kept if outcome.report is not None]
    if html is not None and reports:
        write_output(html, "--html", render(reports[0], "html"))
        if not is_stdout(html):
            write(f"wrote {html}", err=True)
    return code


def _open_history(
    command: str, sources: list[str], fleet: FleetOptions
) -> tuple[HistoryStore | None, RunRecorder | None]:
    """The store of ``--db`` and the run recorded in it (with ``--resume``, the interrupted run
    of the same list going on); ends the command with one line when it cannot be opened."""
    if fleet.db is None:
        return None, None
    # th_ext.history (sqlite3, and pygal for its dashboard) loads only for a run with --db.
    from th_ext.history import HistoryError, HistoryStore

    parts = list(sources)
    if fleet.from_file is not None:
        listed = fleet.from_file if fleet.from_file == "-" else str(Path(fleet.from_file).resolve())
        parts.insert(0, f"--from {listed}")
    try:
        store = HistoryStore.open(fleet.db)
    except HistoryError as exc:
        fail(f"--db {exc}")
    try:
        recorder = store.start_run(
            command, " ".join(parts), fleet.verdict or {}, resume=fleet.resume is not None
        )
    except HistoryError as exc:
        store.close()
        fail(f"--db {exc}")
    return store, recorder


def _revalidation(store: HistoryStore, run_id: int, verdict: dict[str, Any]) -> Revalidation:
    """The tags of the latest other run of the same list, to ask for each card again; none
    (every card fetched whole) unless the same th-ext ran it with the same verdict options."""
    runs = store.runs(command="validate")
    listed = next(r.list for r in runs if r.id == run_id)
    options = json.loads(json.dumps(verdict, sort_keys=True, default=str))
    earlier = [r for r in runs if r.list == listed and r.id != run_id and r.status != "running"]
    if not earlier or earlier[-1].version != __version__ or earlier[-1].options != options:
        return Revalidation(lambda source: None, lambda source: None)
    last = earlier[-1].id
    tags = {source: o.etag for source, o in store.outcomes(last).items() if o.etag is not None}

    def document_of(source: str) -> dict[str, Any] | None:
        return store.documents(last, [source]).get(source)

    return Revalidation(tags.get, document_of)


def _open_output(fleet: FleetOptions, state: ResumeState) -> IO[bytes] | None:
    """The file of ``-o`` or ``--resume``; a resumed file goes on after its last whole report
    (a report cut off by a stopped machine is removed, and said so)."""
    path = fleet.resume or fleet.output
    if path is None or is_stdout(path):
        return None
    try:
        # Unbuffered: each line is one write of its bytes, so an interrupted run leaves whole
        # lines only (unless the machine itself stops in the middle of one).
        if fleet.resume is None:
            return path.open("wb", buffering=0)
        handle = path.open("r+b" if state.cut is not None else "ab", buffering=0)
        if state.cut is not None:
            size = handle.seek(0, 2) - state.whole
            handle.truncate(state.whole)
            handle.seek(state.whole)
            write(
                f"th-ext: --resume {path} line {state.cut}: the start of a report the stopped "
                f"run was writing ({size} bytes) is removed; its source is checked again",
                err=True,
            )
        if state.unended:
            handle.write(b"\n")
        return handle
    except OSError as exc:
        option = "--resume" if fleet.resume is not None else "-o"
        fail(f"{option} {path}: cannot be written ({os_reason(exc)})")


class _Run:
    """One batch run: its outcomes written as they come, its summary, its signals."""

    def __init__(  # noqa: PLR0917 (private; one call)
        self,
        command: str,
        output_format: str,
        tally: Tally,
        out: IO[bytes] | None,
        fleet: FleetOptions,
        state: ResumeState,
    ) -> None:
        self.command = command
        self.format = output_format
        self.tally = tally
        self.out = out
        self.fleet = fleet
        self.state = state
        self.single = False  # one SOURCE, no --from: no summary, json one object
        self.shown = RenderOptions(color=out is None and use_color(sys.stdout), quiet=fleet.quiet)
        self.summary = Summary()
        self.counts = BatchCounts()
        self.keep = False  # json, junit, concise, --junit-file, --html: every outcome kept
        self.progress = True  # the live line on a terminal (conform's one agent has its own)
        self.kept: list[Outcome] = []  # json, junit, concise: one document of every report
        self.signal: int | None = None
        self.written_text = False
        self.recorder: RunRecorder | None = None
        self.history_failed = False

    async def main(self, sources: list[str], start: Start) -> int:
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None
        # Signals reach the main thread only (a caller already running an event loop has the
        # run on a thread of its own, and keeps its signals).
        signals = _SIGNAL_EXIT if threading.current_thread() is threading.main_thread() else {}
        for signum in signals:
            loop.add_signal_handler(signum, self._interrupt, signum, task)
        skip = self.state.seen if self.state.lines else None
        # A live line is drawn with escape sequences: on a terminal, never with NO_COLOR.
        shown = self.progress and not self.fleet.quiet and use_color(sys.stderr)
        progress = FleetProgress(self.counts, self.summary, transient=self.single, shown=shown)
        try:
            with progress:
                outcomes = start(
                    self._entries(sources),
                    jobs=self.fleet.jobs,
                    per_origin=self.fleet.per_origin,
                    rate=self.fleet.rate,
                    give_up=self.fleet.give_up,
                    skip=skip,
                    counts=self.counts,
                )
                async with contextlib.aclosing(outcomes):
                    async for outcome in outcomes:
                        self._show(outcome)
                        progress.advance()
        except asyncio.CancelledError:
            if self.signal is None:
                raise
            self._finish(interrupted=True)
            return _SIGNAL_EXIT[signal.Signals(self.signal)]
        except SourceError as exc:
            error_line(str(exc))
            self.end_history("interrupted", int(ExitCode.UNUSABLE))
            return int(ExitCode.UNUSABLE)
        finally:
            for signum in signals:
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

    def items(self) -> list[Any]:
        """What the kept outcomes show: each one's report, or its error document."""
        return [o.report if o.report is not None else o.document for o in self.kept]

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
        self._record(outcome)
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
            item = outcome.report if outcome.report is not None else outcome.document
            text = "".join(stream([item], self.format, self.shown))
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

    def _record(self, outcome: Outcome) -> None:
        if self.recorder is None or outcome.document is None:
            return
        try:
            self.recorder.add(
                outcome.source,
                outcome.exit_code,
                outcome.seconds,
                outcome.document,
                etag=outcome.etag,
                last_modified=outcome.last_modified,
            )
        except ThExtError as exc:  # th_ext.history's HistoryError
            self._history_error(exc)

    def _history_error(self, exc: ThExtError) -> None:
        self.recorder = None
        self.history_failed = True
        sys.stdout.flush()
        error_line(f"--db {exc}; the run goes on unrecorded, and is not recorded as complete")

    def end_history(self, status: str, code: int | None) -> None:
        """End the run in the store (once): ``complete`` or ``interrupted``."""
        recorder, self.recorder = self.recorder, None
        if recorder is None:
            return
        try:
            recorder.finish("complete" if status == "complete" else "interrupted", code)
        except ThExtError as exc:
            self._history_error(exc)

    def _finish(self, *, interrupted: bool) -> int:
        code = self._finish_output(interrupted=interrupted)
        self.end_history("interrupted" if interrupted else "complete", code)
        return max(code, 2) if self.history_failed else code

    def _finish_output(self, *, interrupted: bool) -> int:
        self.kept.sort(key=lambda outcome: outcome.index)
        if self.fleet.statistics:
            self._write_text(self._statistics(interrupted))
        elif self.format == "json":
            documents = [outcome.document for outcome in self.kept]
            self._write_text(to_json(documents[0] if self.single else documents) + "\n")
        elif self.format in _WHOLE:
            self._write_text(render(self.items(), self.format))
        elif self.format == "text" and (interrupted or not self.single):
            conform = self.command == "conform"
            self._write_text(
                summary_text(self.summary, *self.tally, interrupted=interrupted, conform=conform)
            )
        elif interrupted:
            error_line(f"interrupted; {counted(self.summary.checked, 'source')} checked")
        if self.summary.checked or interrupted:
            return max(self.summary.exit_code, self.state.worst)
        if self.state.lines:
            write(
                f"th-ext: nothing left to check: {self.fleet.resume} holds every listed source "
                f"({counted(self.state.lines, 'line')}; exit code "
                f"{self.state.worst})",
                err=True,
            )
            return self.state.worst
        error_line("the list names no source to check")
        return int(ExitCode.UNUSABLE)

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
