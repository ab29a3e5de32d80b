"""Politeness towards each server: at most so many requests at once to one origin.

A run over thousands of sources has many in flight, and a list often names one host many
times. ``OriginLimiter`` keeps one ``asyncio.Semaphore`` per origin (scheme, host, port), made
when the origin is first asked for and dropped when nobody holds or waits for it, so that a
run over a million origins keeps only those in use. ``PoliteTransport`` applies it to every
request an ``httpx.AsyncClient`` sends (a redirect's and a fallback's included): the slot is
held from the request until its response is closed, so a slow body holds its own origin's slot
and no other.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import httpx

from th_ext.net import origin_of

__all__ = ["OriginLimiter", "OriginPools", "PoliteTransport"]


class OriginLimiter:
    """At most ``per_origin`` holders of one origin's slot at once."""

    def __init__(self, per_origin: int) -> None:
        if per_origin < 1:
            raise ValueError("per_origin must be at least 1")
        self.per_origin = per_origin
        self._slots: dict[Any, tuple[asyncio.Semaphore, list[int]]] = {}

    @asynccontextmanager
    async def slot(self, url: str) -> AsyncIterator[None]:
        """Hold one of the slots of ``url``'s origin for the body of the ``async with``."""
        key = _key(url)
        semaphore, users = self._slots.setdefault(key, (asyncio.Semaphore(self.per_origin), [0]))
        users[0] += 1
        try:
            async with semaphore:
                yield
        finally:
            users[0] -= 1
            if not users[0]:
                del self._slots[key]

    def in_use(self, url: str) -> bool:
        """Whether a request to ``url``'s origin holds or waits for a slot now."""
        return _key(url) in self._slots

    def origins_in_use(self) -> int:
        """How many origins hold a semaphore now (for tests and benchmarks)."""
        return len(self._slots)


def _key(url: str) -> Any:
    return origin_of(url) or url


class PoliteTransport(httpx.AsyncBaseTransport):
    """An httpx transport that sends through ``inner`` under ``limiter``'s per-origin slots.

    Closing it does not close ``inner``: several clients (one per agent in a conformance run)
    share one pool, which the run closes once at its end.
    """

    def __init__(self, inner: httpx.AsyncBaseTransport, limiter: OriginLimiter) -> None:
        self.inner = inner
        self.limiter = limiter

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        held = self.limiter.slot(str(request.url))
        await held.__aenter__()
        try:
            response = await self.inner.handle_async_request(request)
        except BaseException:
            await held.__aexit__(None, None, None)
            raise
        assert isinstance(response.stream, httpx.AsyncByteStream)
        return httpx.Response(
            response.status_code,
            headers=response.headers,
            stream=_Releasing(response.stream, held),
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        """Nothing: the shared pool is closed by its owner."""


class OriginPools(httpx.AsyncBaseTransport):
    """One connection pool per origin, each made by ``make`` when its origin is first asked for.

    One pool for every origin would be searched whole for each request (httpcore matches each
    waiting request against each connection), a cost that grows with the square of the
    requests in flight; a pool per origin holds only that origin's few. At most ``keep`` pools
    are kept: past that, the least recently used one whose origin has nothing in flight is
    closed (its kept-alive connections with it).
    """

    def __init__(
        self,
        make: Callable[[], httpx.AsyncBaseTransport],
        limiter: OriginLimiter,
        keep: int,
    ) -> None:
        self.make = make
        self.limiter = limiter
        self.keep = keep
        self._pools: OrderedDict[Any, tuple[str, httpx.AsyncBaseTransport]] = OrderedDict()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        url = str(request.url)
        key = _key(url)
        if key in self._pools:
            self._pools.move_to_end(key)
            pool = self._pools[key][1]
        else:
            pool = self.make()
            self._pools[key] = (url, pool)
            await self._trim()
        return await pool.handle_async_request(request)

    async def _trim(self) -> None:
        for key, (url, pool) in list(self._pools.items())[: max(len(self._pools) - self.keep, 0)]:
            if not self.limiter.in_use(url):
                del self._pools[key]
                await pool.aclose()

    async def aclose(self) -> None:
        pools = [pool for _, pool in self._pools.values()]
        self._pools.clear()
        for pool in pools:
            await pool.aclose()


class _Releasing(httpx.AsyncByteStream):
    """A response body that gives its origin's slot back when it is closed."""

    def __init__(self, inner: httpx.AsyncByteStream, held: Any) -> None:
        self.inner = inner
        self.held = held
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
                await self.held.__aexit__(None, None, None)
