"""Reading a card URL inside a batch: the card reader's rules, on the batch's event loop.

The card reader's own ``read_url_async`` (the well-known path for a base URL, the pre-0.3 path
when the first answers 404, the byte cap, the redirect rules and the header scope of each
request), under one deadline over all of it (the source's own ``--timeout``), through the
batch's client, whose transport holds each origin's slots. Only the waiting differs: many
sources wait at once.
"""

from __future__ import annotations

import asyncio

import httpx

from th_ext._deadline import Deadline
from th_ext.batch._polite import OriginLimiter
from th_ext.sources._source import SourceBytes, SourceLimits, header_scope, read_url_async

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

    async def read(
        self, source: str, deadline: Deadline, *, if_none_match: str | None = None
    ) -> SourceBytes:
        """The card at the URL ``source``; raises what ``read_source`` raises for a URL. Every
        request, a redirect's included, takes its origin's slot in the client's transport
        (``PoliteTransport``). With ``if_none_match``, an unchanged card is a ``SourceBytes``
        of status 304 and no data."""
        scope = header_scope(source, self.limits)
        return await read_url_async(
            source,
            self.limits,
            scope,
            client=self.client,
            deadline=deadline,
            if_none_match=if_none_match,
        )
