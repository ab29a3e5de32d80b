"""Many card origins on 127.0.0.1: one port each, on one event loop in a thread of its own.

A batch run is tested (and measured) against many servers at once: some answering late, one
that never answers, one that trickles a byte a second, one busy (503) for its first requests.
Each ``Origin`` counts the requests it is serving at the same moment and keeps the highest
count, which is how a test proves the per-origin cap. The server speaks just enough HTTP/1.1
for a card reader: a GET, a response with ``Content-Length``, the connection kept alive for
the next request.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

__all__ = ["Origin", "Origins", "serve_origins"]


@dataclass
class Origin:
    """One server: how it answers, and what it saw."""

    delay: float = 0.0
    mode: str = "answer"  # "answer", "silent" (never answers), "trickle" (a byte a second)
    body: bytes = b"{}"
    status: int = 200
    redirect: str = ""
    """A URL every request is sent to with a 302, when given."""
    caching: bytes = b'Cache-Control: max-age=60\r\nETag: "card"\r\n'
    """The card response's caching fields: what A2A 1.0 section 8.6.1 asks, so that no
    caching warning joins the problems of a test that is not about it."""
    busy: int = 0
    """The first ``busy`` requests are answered 503 (with ``retry_after``, when given)."""
    retry_after: str = ""
    port: int = 0
    requests: int = 0
    in_flight: int = 0
    most_at_once: int = 0
    paths: list[str] = field(default_factory=list)
    arrivals: list[float] = field(default_factory=list)
    """When each request came (``time.monotonic()``)."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


class Origins:
    """The running servers, in the order they were asked for."""

    def __init__(self, origins: list[Origin]) -> None:
        self.origins = origins
        self.loop = asyncio.new_event_loop()
        self._servers: list[asyncio.Server] = []
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="card origins", daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._start())
        self._ready.set()
        self.loop.run_forever()

    async def _start(self) -> None:
        for origin in self.origins:
            server = await asyncio.start_server(
                functools.partial(self._serve, origin), "127.0.0.1", 0, backlog=1024
            )
            origin.port = server.sockets[0].getsockname()[1]
            self._servers.append(server)

    async def _serve(
        self, origin: Origin, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                path = head.split(b" ", 2)[1].decode("latin-1")
                origin.requests += 1
                origin.in_flight += 1
                origin.most_at_once = max(origin.most_at_once, origin.in_flight)
                origin.paths.append(path)
                origin.arrivals.append(time.monotonic())
                try:
                    await self._answer(origin, reader, writer)
                finally:
                    origin.in_flight -= 1
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError):
            pass
        except asyncio.CancelledError:  # the servers stop: the connection ends here
            pass
        finally:
            writer.close()

    async def _answer(
        self, origin: Origin, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        if origin.mode == "silent":  # until the client hangs up
            await reader.read()
            raise ConnectionResetError
        await asyncio.sleep(origin.delay)
        if origin.redirect:
            location = origin.redirect.encode("latin-1")
            writer.write(
                b"HTTP/1.1 302 Found\r\nLocation: %s\r\nContent-Length: 0\r\n\r\n" % location
            )
            await writer.drain()
            return
        if origin.requests <= origin.busy:
            after = b"Retry-After: %s\r\n" % origin.retry_after.encode("latin-1")
            after = after if origin.retry_after else b""
            writer.write(b"HTTP/1.1 503 Busy\r\n%sContent-Length: 0\r\n\r\n" % after)
            await writer.drain()
            return
        reason = b"OK" if origin.status == 200 else b"Status"
        head = (
            b"HTTP/1.1 %d %s\r\nContent-Type: application/json\r\n%sContent-Length: %d\r\n\r\n"
            % (
                origin.status,
                reason,
                origin.caching,
                len(origin.body),
            )
        )
        writer.write(head)
        if origin.mode == "trickle":
            for byte in origin.body:
                writer.write(bytes([byte]))
                await writer.drain()
                await asyncio.sleep(1.0)
            return
        writer.write(origin.body)
        await writer.drain()

    def start(self) -> Origins:
        self._thread.start()
        self._ready.wait(10)
        return self

    def stop(self) -> None:
        async def close() -> None:
            for server in self._servers:
                server.close()
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            for server in self._servers:
                await server.wait_closed()

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(close(), self.loop).result(5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(5)
        self.loop.close()


@contextlib.contextmanager
def serve_origins(origins: list[Origin]) -> Iterator[Origins]:
    """The servers of ``origins``, each on a free port of 127.0.0.1, for the ``with`` block."""
    running = Origins(origins).start()
    try:
        yield running
    finally:
        running.stop()
