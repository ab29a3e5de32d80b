"""The batch's HTTP side: card URLs read on the batch's event loop, under each origin's request
slots (``PoliteTransport``), through a connection pool per origin (``OriginTransports``)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import httpx

from th_ext._deadline import Deadline
from th_ext.batch._origins import OriginLimiter
from th_ext.net import client_options, origin_of, ssl_context
from th_ext.net._fetch import Retry
from th_ext.sources._source import SourceBytes, SourceLimits, header_scope, read_url_async

__all__ = ["CardReader", "OriginTransports", "PoliteTransport", "origin_pools"]


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


class PoliteTransport(httpx.AsyncBaseTransport):
    """An httpx transport that sends through ``inner`` under ``limiter``'s per-origin slots.

    Each request (a redirect's and a fallback's included) holds its origin's slot until its
    response is closed, so a slow body holds its own origin's slot and no other. Closing it
    does not close ``inner``: several clients (one per source) share one pool,
    which its owner closes.
    """

    def __init__(self, inner: httpx.AsyncBaseTransport, limiter: OriginLimiter) -> None:
        self.inner = inner
        self.limiter = limiter

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        url = str(request.url)
        await self.limiter.acquire(url)
        try:
            response = await self.inner.handle_async_request(request)
        except BaseException:
            self.limiter.release(url)
            raise
        assert isinstance(response.stream, httpx.AsyncByteStream)
        return httpx.Response(
            response.status_code,
            headers=response.headers,
            stream=_Releasing(response.stream, lambda: self.limiter.release(url)),
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        """Nothing: the shared pool is closed by its owner."""


class _Releasing(httpx.AsyncByteStream):
    """A response body that gives its origin's slot back when it is closed."""

    def __init__(self, inner: httpx.AsyncByteStream, release: Callable[[], None]) -> None:
        self.inner = inner
        self.release = release
        self.released = False

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self.inner:
            yield chunk

    async def aclose(self) -> None:
        try:
            await self.inner.aclose()
        finally:
            if not self.released:
                self.released = True
                self.release()


class OriginTransports:
    """One httpx transport per origin, made by ``make`` when the origin is first leased.

    One pool for every origin would be searched whole for each request (httpx's pool matches
    each waiting request against each connection), a cost that grows with the square of the
    requests in flight; a pool per origin holds only that origin's few. At most ``keep``
    pools that nobody leases are kept (with their kept-alive connections, for the next source
    of the same origin): past that, the least recently used is closed.
    """

    def __init__(self, make: Callable[[], httpx.AsyncBaseTransport], keep: int) -> None:
        self.make = make
        self.keep = keep
        self._leased: dict[Any, tuple[httpx.AsyncBaseTransport, list[int]]] = {}
        self._idle: OrderedDict[Any, httpx.AsyncBaseTransport] = OrderedDict()

    @asynccontextmanager
    async def lease(self, url: str) -> AsyncIterator[httpx.AsyncBaseTransport]:
        """The transport of ``url``'s origin, for the body of the ``async with`` (one shared by
        every source that is not a URL, such as a card file naming an agent's interfaces)."""
        key = origin_of(url)
        if key in self._leased:
            transport, users = self._leased[key]
        else:
            transport = self._idle.pop(key) if key in self._idle else self.make()
            users = [0]
            self._leased[key] = (transport, users)
        users[0] += 1
        try:
            yield transport
        finally:
            users[0] -= 1
            if not users[0]:
                del self._leased[key]
                self._idle[key] = transport
                while len(self._idle) > self.keep:
                    _, oldest = self._idle.popitem(last=False)
                    await oldest.aclose()

    async def aclose(self) -> None:
        """Close every pool (at the end of the run, when none is leased)."""
        pools = [*self._idle.values(), *(pool for pool, _ in self._leased.values())]
        self._idle.clear()
        self._leased.clear()
        for pool in pools:
            await pool.aclose()
