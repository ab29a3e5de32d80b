"""Reading a card URL inside a batch: the card reader's rules, on the batch's event loop.

The card reader's own ``read_url_async`` (the well-known path for a base URL, the pre-0.3 path
when the first answers 404, the byte cap, the redirect rules, the retries and the header scope
of each request), under one deadline over all of it (the source's own ``--timeout``), through
a client on the pool of the source's origin whose transport holds each origin's request slots.
Only the waiting differs: many sources wait at once.
"""

from __future__ import annotations

import asyncio

import httpx

from th_ext._deadline import Deadline
from th_ext.batch._polite import OriginLimiter, OriginTransports, PoliteTransport
from th_ext.net import client_options
from th_ext.net._fetch import Retry
from th_ext.sources._source import SourceBytes, SourceLimits, header_scope, read_url_async

__all__ = ["CardReader"]


class CardReader:
    """Reads card URLs through a pool per origin, under one limiter of requests per origin."""

    def __init__(
        self,
        pools: OriginTransports,
        limiter: OriginLimiter,
        limits: SourceLimits,
        validation_threads: int = 2,
    ) -> None:
        self.pools = pools
        self.limiter = limiter
        self.limits = limits
        self.validating = asyncio.Semaphore(validation_threads)
        """The threads that validate the large cards, whatever the number of jobs."""

    async def read(self, source: str, deadline: Deadline, retried: list[Retry]) -> SourceBytes:
        """The card at the URL ``source``; raises what ``read_source`` raises for a URL. Every
        request, a redirect's included, takes its origin's slot (``PoliteTransport``); each
        retry is appended to ``retried``."""
        scope = header_scope(source, self.limits)
        async with (
            self.pools.lease(source) as pool,
            httpx.AsyncClient(
                timeout=None, **client_options(transport=PoliteTransport(pool, self.limiter))
            ) as client,
        ):
            return await read_url_async(
                source, self.limits, scope, client=client, deadline=deadline, retried=retried
            )
