"""Reading a card URL inside a batch: the card reader's rules, on the batch's event loop.

The same rules as ``th_ext.sources.read_source`` for a URL: the well-known path for a base URL,
the pre-0.3 path when the first answers 404 (with its warning), the byte cap, the redirect
rules and the header scope of each request, and one deadline over all of it (the source's own
``--timeout``). Only the waiting differs: many sources wait at once.
"""

from __future__ import annotations

import asyncio

import httpx

from th_ext._deadline import Deadline
from th_ext._exceptions import HTTPStatusCodeError
from th_ext._version import __version__
from th_ext.batch._polite import OriginLimiter
from th_ext.net import HeaderScope, redact_url
from th_ext.net._fetch import FetchResult, fetch_async
from th_ext.problems._problem import Problem
from th_ext.sources._source import (
    DEPRECATED_WELL_KNOWN_CARD,
    MAX_REDIRECTS,
    WELL_KNOWN_CARD,
    SourceBytes,
    SourceLimits,
    header_scope,
    well_known_urls,
)

__all__ = ["CardReader"]


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
        except HTTPStatusCodeError as exc:
            if exc.status != 404 or fallback is None:
                raise
            first = exc
        else:
            return SourceBytes(
                shown, redact_url(found.url), found.body, found.content_type, _notices(scope)
            )
        try:
            found = await self._get(fallback, scope, deadline)
        except HTTPStatusCodeError as exc:
            raise HTTPStatusCodeError(
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
        # every request, a redirect's included, takes its origin's slot in the client's
        # transport (``PoliteTransport``)
        return await fetch_async(
            url,
            client=self.client,
            scope=scope,
            deadline=deadline,
            max_bytes=self.limits.max_bytes,
            max_redirects=MAX_REDIRECTS,
            user_agent=f"th-ext/{__version__}",
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
