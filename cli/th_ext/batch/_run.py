"""The batch: many sources checked at once on one event loop, each result yielded when ready, for
``th-ext validate`` (``check_cards``) and ``th-ext conform`` (``check_agents``)."""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from th_ext._deadline import Deadline
from th_ext._exceptions import DeadlineError, SourceArgumentError, SourceError, ThExtError
from th_ext._sync import run_sync
from th_ext.batch._jsonl import exit_code_of
from th_ext.batch._list import ListEntry
from th_ext.batch._origins import OriginGate, OriginLimiter
from th_ext.batch._revalidate import FETCHED_WHOLE, Revalidation, carried_over, validators
from th_ext.batch._seen import SeenSources, shown
from th_ext.net import HarRecorder, origin_of
from th_ext.problems import error_record
from th_ext.sources import SourceBytes, SourceLimits, check_limits, is_url, read_source
from th_ext.validate import Problem, ValidateOptions, report_for_source_error, validate_bytes

if TYPE_CHECKING:
    from th_ext.batch._fetch import CardReader
    from th_ext.conform import ConformOptions, ConformReport
    from th_ext.net._fetch import Retry
    from th_ext.validate import Report

__all__ = [
    "DEFAULT_GIVE_UP",
    "DEFAULT_JOBS",
    "DEFAULT_PER_ORIGIN",
    "MAX_JOBS",
    "MAX_RATE",
    "BatchCounts",
    "Outcome",
    "check_agents",
    "check_cards",
    "validate_source",
]

DEFAULT_JOBS = 16
DEFAULT_PER_ORIGIN = 4
MAX_JOBS = 10_000
"""The most sources in flight: past a few hundred a machine's sockets, not the run, set the pace."""
DEFAULT_GIVE_UP = 5
"""Failures in a row (no connection, or no answer in time) after which an origin's remaining
sources fail at once: with the default ``per_origin``, two rounds of its slots."""
MAX_RATE = 10_000.0
"""The highest ``rate`` (requests a second to one origin) accepted."""
WAITING = 1024
"""Sources taken from the list beyond the ``jobs`` being checked: those waiting for their
origin's slot, and outcomes the caller has not taken yet. Past that, the list is read no further
until one is done."""
LOOP_VALIDATION_BYTES = 64 * 1024
"""A card up to this size is validated on the event loop (about a millisecond for a real card:
a hop to a thread would cost a tenth of that again, for nothing, since the work holds the GIL).
A larger one goes to one of ``VALIDATION_THREADS`` threads, so that a card of megabytes does not
stop the loop, and with it the other sources' requests and deadlines, for seconds."""
VALIDATION_THREADS = 2


@dataclass(frozen=True, slots=True)
class Outcome:
    """One listed source, checked (or found listed before).

    ``document`` is the source's JSON object, the line of ``--format jsonl``: the report's
    ``to_dict()`` (for an agent, with its ``source``), or the error document of a source that
    could not be read. ``index`` is the source's place in the list (from 0). A source listed a
    second time is an outcome with ``duplicate`` set and no document. A card found unchanged
    (``check_cards`` with a ``Revalidation``) has the earlier ``document`` and no ``report``.
    """

    source: str
    index: int
    exit_code: int
    seconds: float
    document: dict[str, Any] | None
    report: Report | ConformReport | None = None
    error: ThExtError | None = None
    duplicate: bool = False
    etag: str | None = None
    """The card response's entity tag, when it sent one well-formed tag (to ask with later)."""
    last_modified: str | None = None
    """The card response's ``Last-Modified``, when it is an HTTP date."""


@dataclass(slots=True)
class BatchCounts:
    """How far the run has read its list; updated as it goes, for a progress display.

    ``listed`` counts the entries read (sources, duplicates and bad lines), ``resumed`` the
    sources skipped because ``skip`` held them, ``finished`` becomes true when the list has
    been read to its end.
    """

    listed: int = 0
    resumed: int = 0
    duplicates: int = 0
    finished: bool = False


def check_cards(
    sources: Iterable[ListEntry] | AsyncIterable[ListEntry],
    *,
    options: ValidateOptions | Callable[[str | None, float], ValidateOptions] | None = None,
    limits: SourceLimits | None = None,
    jobs: int = DEFAULT_JOBS,
    per_origin: int = DEFAULT_PER_ORIGIN,
    rate: float | None = None,
    give_up: int = DEFAULT_GIVE_UP,
    skip: SeenSources | None = None,
    counts: BatchCounts | None = None,
    notices: Sequence[Problem] = (),
    revalidation: Revalidation | None = None,
) -> AsyncIterator[Outcome]:
    """Validate the card at each source, ``jobs`` at once, yielding each outcome when ready.

    Each source is read under ``limits`` (its own ``timeout`` covers its fetch, its retries
    and its checking, never its wait for a slot) and checked with ``options``, as
    ``th-ext validate SOURCE`` would; its document lists its ``retries``, when it had any.
    ``options`` may also be a function of the card's URL (``None`` for a file) and the
    ``time.monotonic()`` its check began, giving each source its own (for a check bound to
    the card's origin, such as its signatures' keys). At most ``per_origin`` sources of one
    origin are checked at once, and at most ``per_origin`` requests (``rate`` a second, when
    given) go to one origin at once. After ``give_up`` failures in a row of an origin's
    sources (no connection, or no answer in time; ``0``: never), its remaining sources fail at
    once with ``OriginFailedError`` (``origin-failed``). Sources in ``skip`` are passed over;
    one listed twice is checked once. ``notices`` are problems of the run itself (what was
    found reading the family's schemas), reported with every card, as ``th-ext validate
    SOURCE`` reports them with its one card.
    With ``revalidation`` (what an earlier run of the same th-ext and options recorded), a
    card URL is asked for with the tag recorded for it, and an unchanged card carries the
    earlier line over (``th_ext.batch._revalidate``); each line then says which, in ``fetch``.
    Raises ``SourceArgumentError`` for limits out of range.
    """
    limits = limits or SourceLimits()
    check_limits(limits)
    _check_counts(jobs, per_origin, rate, give_up)
    given = options or ValidateOptions()

    def options_for(card_url: str | None, started: float) -> ValidateOptions:
        return given if isinstance(given, ValidateOptions) else given(card_url, started)

    strict = options_for(None, time.monotonic()).strict
    limiter = OriginLimiter(per_origin, rate)
    gate = OriginGate(per_origin, give_up)

    async def check_each() -> AsyncIterator[Outcome]:
        validating = asyncio.Semaphore(VALIDATION_THREADS)
        opened: list[CardReader] = []

        def card_reader() -> CardReader:
            """The run's reader of card URLs, opened at its first URL: httpx and the run's
            transport (about 100 ms of imports, measured with -X importtime) load only then,
            so a run over card files never pays for them."""
            if not opened:
                from th_ext.batch._fetch import CardReader

                opened.append(CardReader(limiter, limits, jobs))
            return opened[0]

        try:

            async def check(index: int, source: str, leave: Leave) -> Outcome:
                return await _check_card(
                    index,
                    source,
                    card_reader,
                    limits,
                    options_for,
                    leave,
                    validating=validating,
                    run_notices=notices,
                    revalidation=revalidation,
                )

            def failed(index: int, source: str, error: SourceError) -> Outcome:
                report = report_for_source_error(source, error, strict=strict)
                document = report.to_dict()
                return Outcome(report.source, index, 2, 0.0, document, report, error)

            async for outcome in _schedule(
                sources, check, failed, gate, jobs=jobs, skip=skip, counts=counts
            ):
                yield outcome
        finally:
            if opened:
                await opened[0].aclose()

    return check_each()


def check_agents(
    sources: Iterable[ListEntry] | AsyncIterable[ListEntry],
    *,
    options: ConformOptions | None = None,
    jobs: int = DEFAULT_JOBS,
    per_origin: int = DEFAULT_PER_ORIGIN,
    rate: float | None = None,
    give_up: int = DEFAULT_GIVE_UP,
    skip: SeenSources | None = None,
    counts: BatchCounts | None = None,
    recorder: HarRecorder | None = None,
) -> AsyncIterator[Outcome]:
    """Run ``run_conform_async`` on each agent, ``jobs`` at once, yielding each outcome when
    ready; at most ``per_origin`` agents of one card origin are checked at once, and at most
    ``per_origin`` requests (``rate`` a second, when given) go to one origin at once, across
    all the agents. ``give_up`` is ``check_cards``'s; each retry of an agent's card fetch is
    listed in its document.
    With a ``recorder``, every exchange of every run is recorded in it (HAR).

    A source whose run cannot start (its card unreadable, the extension not declared, no
    interface reached) is an outcome with exit code 2 and its error document.
    """
    # The conformance kit and its HTTP client (about 150 ms of imports, measured with
    # -X importtime) load only for a run over agents.
    from th_ext.batch._fetch import PoliteTransport, origin_pools
    from th_ext.conform import ConformOptions, run_conform_async

    options = options or ConformOptions()
    check_limits(options.limits)
    _check_counts(jobs, per_origin, rate, give_up)
    limiter = OriginLimiter(per_origin, rate)
    gate = OriginGate(per_origin, give_up)

    async def conform_each() -> AsyncIterator[Outcome]:
        pools = origin_pools(per_origin, jobs)
        try:

            async def check_agent(index: int, source: str, leave: Leave) -> Outcome:
                started = time.monotonic()
                retried: list[Retry] = []
                try:
                    async with pools.lease(source) as pool:
                        report = await run_conform_async(
                            source,
                            options,
                            transport=PoliteTransport(pool, limiter),
                            retried=retried,
                            recorder=recorder,
                        )
                except ThExtError as exc:
                    return _failed(index, source, exc, "conform", started, retried=retried)
                document = _with_retries({"source": shown(source), **report.to_dict()}, retried)
                code = 0 if report.passed else 1
                return Outcome(shown(source), index, code, _since(started), document, report)

            def failed(index: int, source: str, error: SourceError) -> Outcome:
                return _failed(index, source, error, "conform", time.monotonic())

            async for outcome in _schedule(
                sources, check_agent, failed, gate, jobs=jobs, skip=skip, counts=counts
            ):
                yield outcome
        finally:
            await pools.aclose()

    return conform_each()


def _check_counts(jobs: int, per_origin: int, rate: float | None, give_up: int) -> None:
    if not (isinstance(jobs, int) and 1 <= jobs <= MAX_JOBS):
        raise SourceArgumentError(
            f"jobs must be a whole number from 1 to {MAX_JOBS}, not {jobs}", code="bad-jobs"
        )
    if not (isinstance(per_origin, int) and 1 <= per_origin <= MAX_JOBS):
        raise SourceArgumentError(
            f"per-origin must be a whole number from 1 to {MAX_JOBS}, not {per_origin}",
            code="bad-per-origin",
        )
    if rate is not None and not (
        isinstance(rate, int | float) and math.isfinite(rate) and 0 < rate <= MAX_RATE
    ):
        raise SourceArgumentError(
            f"rate must be a number of requests a second, more than 0 and at most "
            f"{MAX_RATE:g}, not {rate:.6g}",
            code="bad-rate",
        )
    if not (isinstance(give_up, int) and 0 <= give_up <= MAX_JOBS):
        raise SourceArgumentError(
            f"origin-failures must be a whole number from 0 to {MAX_JOBS}, not {give_up}",
            code="bad-origin-failures",
        )


async def _check_card(  # noqa: PLR0917 (one private step of check_cards)
    index: int,
    source: str,
    reader: Callable[[], CardReader],
    limits: SourceLimits,
    options_for: Callable[[str | None, float], ValidateOptions],
    leave: Leave,
    *,
    validating: asyncio.Semaphore,
    run_notices: Sequence[Problem],
    revalidation: Revalidation | None = None,
) -> Outcome:
    urls = reader() if is_url(source) else None  # opened before the source's time starts
    started = time.monotonic()
    # One deadline over the fetch and the checking, each saying what did not finish in time.
    deadline = Deadline.after(limits.timeout, f"no complete answer within {limits.timeout:g} s")
    asked = revalidation.etag_of(source) if revalidation and is_url(source) else None
    retried: list[Retry] = []
    try:
        if urls is not None:
            raw = await urls.read(source, deadline, retried, if_none_match=asked)
            if raw.status == 304:
                assert revalidation is not None and asked is not None
                unchanged = _unchanged(index, revalidation.document_of(source), raw, asked)
                if unchanged is not None:
                    return replace(unchanged, seconds=_since(started))
                raw = await urls.read(source, deadline, retried)  # it cannot stand for it
        else:
            raw = read_source(source, limits)
    except SourceError as exc:
        leave(exc)
        strict = options_for(None, started).strict
        report = report_for_source_error(source, exc, strict=strict)
        document = _with_retries(report.to_dict(), retried)
        return Outcome(report.source, index, 2, _since(started), document, report, error=exc)
    leave(None)  # read: the next source of its origin may go while this one is checked
    location, notices = raw.location, (*raw.notices, *run_notices)
    etag, last_modified = validators(raw.headers)
    options = options_for(location if is_url(source) else None, started)
    body = [raw.data]
    del raw

    checking = Deadline(
        max(deadline.expires_at, time.monotonic() + 0.1),
        f"the validation did not finish within the timeout ({limits.timeout:g} s)",
    )

    def validate_body() -> Report:  # the bytes handed over without another reference (see above)
        return validate_bytes(
            body.pop(),
            source=source,
            location=location,
            notices=notices,
            options=options,
            deadline=checking,
        )

    try:
        if len(body[0]) > LOOP_VALIDATION_BYTES:
            async with validating:
                report = await asyncio.to_thread(validate_body)
        elif options.card_checks:
            # A card check may wait on the network (a signature's jku, with --fetch-keys): it
            # runs off the loop, so that the other sources' requests and deadlines go on.
            report = await asyncio.to_thread(validate_body)
        else:
            report = validate_body()
    except DeadlineError as exc:  # what --format json gives for it: the error document
        return _failed(index, source, exc, "validate", started, retried=retried)
    document = _with_retries(report.to_dict(), retried)
    if revalidation is not None and is_url(source):  # a file is read, never fetched
        document["fetch"] = FETCHED_WHOLE
    return Outcome(
        report.source,
        index,
        report.exit_code,
        _since(started),
        document,
        report,
        etag=etag,
        last_modified=last_modified,
    )


def _with_retries(document: dict[str, Any], retried: Sequence[Retry]) -> dict[str, Any]:
    """``document`` with the source's retries, when it had any."""
    if retried:
        document["retries"] = [retry.to_dict() for retry in retried]
    return document


def _unchanged(
    index: int, earlier: dict[str, Any] | None, raw: SourceBytes, asked: str
) -> Outcome | None:
    """The outcome of a card the server said is unchanged: the earlier line carried over, or
    ``None`` when the 304 cannot stand for it (``carried_over``)."""
    carried = carried_over(earlier, raw, asked)
    if carried is None:
        return None
    code = exit_code_of(carried, "validate")
    assert code is not None  # carried_over takes only a validate line
    _, last_modified = validators(raw.headers)
    return Outcome(
        str(carried["source"]), index, code, 0.0, carried, etag=asked, last_modified=last_modified
    )


def _failed(
    index: int,
    source: str,
    exc: ThExtError,
    command: str,
    started: float,
    *,
    retried: Sequence[Retry] = (),
) -> Outcome:
    document = _with_retries(error_record(exc, command, source), retried)
    return Outcome(shown(source), index, 2, _since(started), document, error=exc)


def _since(started: float) -> float:
    return round(time.monotonic() - started, 3)


_END = object()

Leave = Callable[[ThExtError | None], None]
"""Given to a source's check: it calls it once its requests are done (with their error, or
``None``), so that its origin's slot goes to the next source while it is still being checked."""


def _stay(error: ThExtError | None) -> None:
    """The ``Leave`` of a source with no origin: nothing to give back."""


async def _schedule(
    sources: Iterable[ListEntry] | AsyncIterable[ListEntry],
    check: Callable[[int, str, Leave], Awaitable[Outcome]],
    failed: Callable[[int, str, SourceError], Outcome],
    gate: OriginGate,
    *,
    jobs: int,
    skip: SeenSources | None,
    counts: BatchCounts | None,
) -> AsyncIterator[Outcome]:
    """The outcomes of ``sources``, one task each, ``jobs`` checked at once, each yielded when
    ready. Nothing of a source is kept once its outcome is yielded (only its digest, in
    ``seen``); closing the iterator cancels every source in flight and their requests."""
    counts = counts if counts is not None else BatchCounts()
    seen = SeenSources()
    checking = asyncio.Semaphore(jobs)
    taken = asyncio.Semaphore(jobs + WAITING)  # from the list, and not yet yielded
    finished: asyncio.Queue[Any] = asyncio.Queue()
    tasks: set[asyncio.Task[None]] = set()

    async def check_in_turn(index: int, source: str) -> Outcome:
        if origin_of(source) is None:  # a file: the list's reader took its job (see there)
            try:
                return await check(index, source, _stay)
            finally:
                checking.release()
        await gate.enter(source)  # first the origin, holding no job
        left = False

        def leave_origin(error: ThExtError | None, *, counted: bool = True) -> None:
            nonlocal left
            if not left:
                left = True
                gate.leave(source, error, counted=counted)

        try:
            async with checking:
                refusal = gate.refusal(source)
                if refusal is not None:
                    return failed(index, source, refusal)
                outcome = await check(index, source, leave_origin)
                leave_origin(outcome.error)
                return outcome
        finally:
            leave_origin(None, counted=False)

    async def check_to_queue(index: int, source: str) -> None:
        try:
            outcome = await check_in_turn(index, source)
        except asyncio.CancelledError:
            raise
        except BaseException as exc:
            finished.put_nowait(exc)
            return
        finished.put_nowait(outcome)

    async def read_list_to_queue() -> int:
        try:
            return await read_list()
        except asyncio.CancelledError:
            raise
        except BaseException as exc:
            finished.put_nowait(exc)
            return 0

    async def read_list() -> int:
        index = 0
        entries = _entries(sources)
        try:
            async for entry in entries:
                counts.listed += 1
                if (
                    skip is not None
                    and (entry if isinstance(entry, str) else _label(entry)) in skip
                ):
                    counts.resumed += 1
                    continue
                await taken.acquire()
                if isinstance(entry, SourceError):
                    finished.put_nowait(failed(index, _label(entry), entry))
                elif not seen.add(entry):
                    counts.duplicates += 1
                    finished.put_nowait(Outcome(shown(entry), index, 0, 0.0, None, duplicate=True))
                else:
                    if origin_of(entry) is None:
                        # A file waits for its job here, so that no more than ``jobs`` are
                        # taken from the list; a URL waits in its own task, for its origin
                        # first, so that the list goes on past a slow origin.
                        await checking.acquire()
                    task = asyncio.create_task(check_to_queue(index, entry))
                    tasks.add(task)
                    task.add_done_callback(tasks.discard)
                index += 1
        finally:
            aclose = getattr(entries, "aclose", None)
            if aclose is not None:
                await aclose()
        counts.finished = True
        finished.put_nowait(_END)
        return index

    feeder = asyncio.create_task(read_list_to_queue())
    yielded = 0
    total: int | None = None
    try:
        while total is None or yielded < total:
            item = await finished.get()
            if item is _END:
                total = feeder.result()
                continue
            if isinstance(item, BaseException):
                raise item
            taken.release()
            yielded += 1
            yield item
    finally:
        feeder.cancel()
        for task in list(tasks):
            task.cancel()
        await asyncio.gather(feeder, *tasks, return_exceptions=True)


def _label(error: SourceError) -> str:
    """The source a bad list line is reported as: the list and the line (``list.txt line 3``)."""
    return str(error).split(":", 1)[0]


async def _entries(
    sources: Iterable[ListEntry] | AsyncIterable[ListEntry],
) -> AsyncIterator[ListEntry]:
    if isinstance(sources, AsyncIterable):
        async for entry in sources:
            yield entry
    else:
        for entry in sources:
            yield entry


def validate_source(
    source: str,
    *,
    options: ValidateOptions | Callable[[str | None, float], ValidateOptions] | None = None,
    limits: SourceLimits | None = None,
    notices: Sequence[Problem] = (),
) -> Outcome:
    """Validate the card at one source, from synchronous code: ``check_cards`` of that source
    alone (read under ``limits``, its ``timeout`` over the fetch and the checking), its
    outcome. A source that cannot be read is an outcome with exit code 2 and its report."""

    async def check_alone() -> Outcome:
        outcomes = check_cards([source], options=options, limits=limits, notices=notices)
        (outcome,) = [outcome async for outcome in outcomes]
        return outcome

    return run_sync(check_alone)
