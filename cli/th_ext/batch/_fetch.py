"""Reading a card URL inside a batch: the card reader's rules, on the batch's event loop.

The card reader's own ``read_url_async`` (the well-known path for a base URL, the pre-0.3 path
when the first answers 404, the byte cap, the redirect rules, the retries and the header scope
of each request), under one deadline over all of it (the source's own ``--timeout``), through
a client on the pool of the source's origin whose transport holds each origin's request slots.
Only the waiting differs: many sources wait at once.
"""

from __future__ import annotations

import httpx

from th_ext._deadline import Deadline
from th_ext.batch._origins import OriginLimiter
from th_ext.batch._polite import OriginTransports, PoliteTransport
from th_ext.net import client_options, ssl_context
from th_ext.net._fetch import Retry
from th_ext.sources._source import SourceBytes, SourceLimits, header_scope, read_url_async

__all__ = ["CardReader", "origin_pools"]


class CardReader:
    """Reads card URLs through a pool per origin, under ``limiter``'s requests per origin;
    ``aclose`` closes the pools."""

    def __init__(self, limiter: OriginLimiter, limits: SourceLimits, jobs: int) -> None:
        self.limiter = limiter
        self.limits = limits
        self.pools = origin_pools(limiter.per_origin, jobs)

    async def read(
        self,
        source: str,
        deadline: Deadline,
        retried: list[Retry],
        *,
        if_none_match: str | None = None,
    ) -> SourceBytes:
        """The card at the URL ``source``; raises what ``read_source`` raises for a URL. Every
        request, a redirect's included, takes its origin's slot (``PoliteTransport``); each
        retry is appended to ``retried``. With ``if_none_match``, an unchanged card is a
        ``SourceBytes`` of status 304 and no data."""
        scope = header_scope(source, self.limits)
        async with (
            self.pools.lease(source) as pool,
            httpx.AsyncClient(
                timeout=None, **client_options(transport=PoliteTransport(pool, self.limiter))
            ) as client,
        ):
            return await read_url_async(
                source,
                self.limits,
                scope,
                client=client,
                deadline=deadline,
                retried=retried,
                if_none_match=if_none_match,
            )

    async def aclose(self) -> None:
        await self.pools.aclose()


def origin_pools(per_origin: int, jobs: int) -> OriginTransports:
    """A run's connection pools, one per origin (``jobs`` kept when idle, each keeping alive
    ``per_origin`` connections for the next source of its origin). No pool limit of its own:
    the slots of the run bound what is in flight. The TLS context every pool shares is made
    here, before any source's time starts (loading the system's CA store takes a while)."""
    ssl_context()
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=per_origin)
    return OriginTransports(lambda: client_options(limits=limits)["transport"], keep=jobs)
