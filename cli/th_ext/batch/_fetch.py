"""Reading a card URL inside a batch: the card reader's rules, on the batch's event loop.

The same rules as ``th_ext.sources.read_source`` for a URL: the well-known path for a base URL,
the pre-0.3 path when the first answers 404 (with its warning), the byte cap, the redirect
rules and the header scope of each request, and one deadline over all of it (the source's own
``--timeout``). Only the waiting differs: many sources wait at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import TypeVar

import httpx

from th_ext._deadline import Deadline
from th_ext._exceptions import HTTPStatusError
from th_ext._version import __version__
from th_ext.batch._polite import OriginLimiter
from th_ext.net import HeaderScope, redact_url
from th_ext.net._fetch import FetchResult, fetch
from th_ext.problems._problem import Problem
from th_ext.sources._limits import SourceLimits, header_scope
from th_ext.sources._source import (
    DEPRECATED_WELL_KNOWN_CARD,
    MAX_REDIRECTS,
    WELL_KNOWN_CARD,
    SourceBytes,
    well_known_urls,
)

__all__ = ["CardReader"]

_T = TypeVar("_T")


class CardReader:
    """Reads card URLs through one client, under one limiter of requests per origin."""

    def __init__(
        self,
        client: httpx.AsyncClient,
        limiter: OriginLimiter,
        limits: SourceLimits,
        validation_threads: int = 2,
    ) -> None:
        self.client = client
        self.limiter = limiter
        self.limits = limits
        self.validating = asyncio.Semaphore(validation_threads)
        """The threads that validate the large cards, whatever the number of jobs."""

    async def read(self, source: str, deadline: Deadline) -> SourceBytes:
        """The card at the URL ``source``; raises what ``read_source`` raises for a URL."""
        scope = header_scope(source, self.limits)
        url, fallback = well_known_urls(source)
        shown = redact_url(source)
        try:
            found = await self._get(url, scope, deadline)
        except HTTPStatusError as exc:
            if exc.status != 404 or fallback is None:
                raise
            first = exc
        else:
            return SourceBytes(
                shown, redact_url(found.url), found.body, found.content_type, _notices(scope)
            )
        try:
            found = await self._get(fallback, scope, deadline)
        except HTTPStatusError as exc:
            raise HTTPStatusError(
                f"{first} (and {exc.status} at the deprecated {DEPRECATED_WELL_KNOWN_CARD})",
                status=first.status,
                url=first.url,
            ) from None
        notice = Problem(
            "warning",
            "deprecated-well-known-path",
            "",
            f"{redact_url(url)} answered 404; the card was read from the pre-0.3 path "
            f"{redact_url(found.url)}",
            f"serve the card at {WELL_KNOWN_CARD} (A2A 0.3 and later)",
            "source",
        )
        return SourceBytes(
            shown,
            redact_url(found.url),
            found.body,
            found.content_type,
            (notice, *_notices(scope)),
        )

    async def _get(self, url: str, scope: HeaderScope, deadline: Deadline) -> FetchResult:
        # Until the fetch runs on the event loop, each request waits in a thread of its own,
        # under its origin's slot.
        async with self.limiter.slot(url):
            return await _in_thread(
                lambda: fetch(
                    url,
                    scope=scope,
                    timeout=max(deadline.remaining(), 0.001),
                    max_bytes=self.limits.max_bytes,
                    max_redirects=MAX_REDIRECTS,
                    user_agent=f"th-ext/{__version__}",
                )
            )


def _notices(scope: HeaderScope) -> tuple[Problem, ...]:
    return tuple(
        Problem(
            "warning",
            "header-withheld",
            "",
            text,
            "the card is served from another origin than the URL given; check where it redirects",
            "source",
        )
        for text in scope.notices()
    )


async def _in_thread(work: Callable[[], _T]) -> _T:
    """``work()`` in a daemon thread: a cancelled wait leaves it to end at its own deadline
    without holding the process open."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[_T] = loop.create_future()

    def settle(result: _T | None, error: BaseException | None) -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)  # type: ignore[arg-type]

    def run() -> None:
        try:
            result = work()
        except BaseException as exc:
            outcome: tuple[_T | None, BaseException | None] = (None, exc)
        else:
            outcome = (result, None)
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
            loop.call_soon_threadsafe(settle, *outcome)

    threading.Thread(target=run, name="th-ext fetch", daemon=True).start()
    return await future
