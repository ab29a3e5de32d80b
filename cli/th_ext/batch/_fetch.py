"""Reading a card URL inside a batch: the card reader's rules, on the batch's event loop.

The card reader's own ``read_url_async`` (the well-known path for a base URL, the pre-0.3 path
when the first answers 404, the byte cap, the redirect rules and the header scope of each
request), under one deadline over all of it (the source's own ``--timeout``), through the
batch's client, whose transport holds each origin's slots. Only the waiting differs: many
sources wait at once.
"""

from __future__ import annotations

import httpx

from th_ext._deadline import Deadline
from th_ext.batch._polite import OriginLimiter, OriginPools, PoliteTransport
from th_ext.net import client_options
from th_ext.sources._source import SourceBytes, SourceLimits, header_scope, read_url_async

__all__ = ["CardReader"]


class CardReader:
    """Reads card URLs through the run's one client, under ``per_origin`` requests at once to
    one origin; ``aclose`` closes the client and its pools."""

    def __init__(self, per_origin: int, limits: SourceLimits, jobs: int) -> None:
        self.limiter = OriginLimiter(per_origin)
        self.limits = limits
        self.client = _client(self.limiter, jobs)

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

    async def aclose(self) -> None:
        await self.client.aclose()


def _client(limiter: OriginLimiter, jobs: int) -> httpx.AsyncClient:
    """The run's one client: the policy's transport, a pool per origin (kept alive for the next
    source of the same origin), under the per-origin slots. No timeout of its own: every fetch
    runs under its source's deadline."""
    pools = OriginPools(
        lambda: client_options(limits=httpx.Limits(max_keepalive_connections=limiter.per_origin))[
            "transport"
        ],
        limiter,
        keep=jobs,
    )
    options = client_options()
    options.pop("transport")
    return httpx.AsyncClient(
        transport=_Owning(PoliteTransport(pools, limiter), pools), timeout=None, **options
    )


class _Owning(httpx.AsyncBaseTransport):
    """The run's transport: polite, and closing the pool under it when the client closes."""

    def __init__(self, polite: PoliteTransport, pool: httpx.AsyncBaseTransport) -> None:
        self.polite = polite
        self.pool = pool

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return await self.polite.handle_async_request(request)

    async def aclose(self) -> None:
        await self.pool.aclose()
