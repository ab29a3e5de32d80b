"""A synchronous httpx transport that calls an ASGI application in-process: no port, no network.

th-ext's HTTP clients are synchronous; httpx's own ``ASGITransport`` is asynchronous. This
bridge runs the application on an event loop of its own, in a background thread, for as long
as the transport is open: it sends the application's lifespan startup first and its shutdown
last (when the application has a lifespan), and hands each request to ``ASGITransport`` on that
loop. The response (a Server-Sent Events stream included) is read whole before it is returned,
which suits a check that reads each answer to its end.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import httpx

__all__ = ["ASGIApp", "InProcessTransport"]

ASGIApp = Callable[
    [
        MutableMapping[str, Any],
        Callable[[], Awaitable[MutableMapping[str, Any]]],
        Callable[[MutableMapping[str, Any]], Awaitable[None]],
    ],
    Awaitable[None],
]

_LIFESPAN_TIMEOUT = 10.0


class InProcessTransport(httpx.BaseTransport):
    """Serve httpx requests from ``app`` (an ASGI 3 application) on a private event loop."""

    def __init__(self, app: ASGIApp, *, base_url: str = "http://agent.test") -> None:
        self.base_url = base_url
        self._app = app
        self._asgi = httpx.ASGITransport(app=app)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._lifespan: _Lifespan | None = _Lifespan(app)
        if not self._call(self._lifespan.startup()):
            self._lifespan = None  # the application has no lifespan protocol

    def _call(self, coroutine: Awaitable[Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(_awaited(coroutine), self._loop).result()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        body = request.read()

        async def send() -> tuple[int, list[tuple[bytes, bytes]], bytes]:
            forwarded = httpx.Request(
                request.method, request.url, headers=request.headers, content=body
            )
            response = await self._asgi.handle_async_request(forwarded)
            content = await response.aread()
            return response.status_code, response.headers.raw, content

        status, headers, content = self._call(send())
        return httpx.Response(status, headers=headers, content=content, request=request)

    def close(self) -> None:
        if self._loop.is_closed():
            return
        if self._lifespan is not None:
            self._call(self._lifespan.shutdown())
        self._call(_cancel_pending())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()


async def _awaited(awaitable: Awaitable[Any]) -> Any:
    return await awaitable


async def _cancel_pending() -> None:
    """Cancel what the application left running (stream watchers, timers) before the loop ends."""
    current = asyncio.current_task()
    pending = [task for task in asyncio.all_tasks() if task is not current]
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)


class _Lifespan:
    """The ASGI lifespan protocol, driven from the outside: startup, then later shutdown."""

    def __init__(self, app: ASGIApp) -> None:
        self._app = app
        self._inbox: asyncio.Queue[dict[str, str]] | None = None
        self._outbox: asyncio.Queue[MutableMapping[str, Any]] | None = None
        self._task: asyncio.Task[None] | None = None

    async def startup(self) -> bool:
        """True when the application completed its startup; False when it has no lifespan."""
        self._inbox, self._outbox = asyncio.Queue(), asyncio.Queue()
        inbox, outbox = self._inbox, self._outbox

        async def run() -> None:
            scope = {"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}
            try:
                await self._app(scope, inbox.get, outbox.put)
            except Exception:
                await outbox.put({"type": "lifespan.unsupported"})

        self._task = asyncio.get_running_loop().create_task(run())
        await inbox.put({"type": "lifespan.startup"})
        answer = await asyncio.wait_for(outbox.get(), _LIFESPAN_TIMEOUT)
        if answer["type"] == "lifespan.startup.failed":
            raise RuntimeError(f"the application's startup failed: {answer.get('message', '')}")
        return bool(answer["type"] == "lifespan.startup.complete")

    async def shutdown(self) -> None:
        if self._inbox is None or self._outbox is None or self._task is None:
            return
        await self._inbox.put({"type": "lifespan.shutdown"})
        await asyncio.wait_for(self._outbox.get(), _LIFESPAN_TIMEOUT)
        await asyncio.wait_for(self._task, _LIFESPAN_TIMEOUT)
