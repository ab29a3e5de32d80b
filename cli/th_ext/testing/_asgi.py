"""An ASGI application as th-ext's agent: its lifespan run around the checks, no port used.

httpx's ``ASGITransport`` hands requests to the application in-process but does not run its
lifespan, which an application built on the official SDK may need (a task store opened at
startup, a request handler drained at shutdown). ``app_lifespan`` runs the ASGI lifespan
protocol around a block: startup before, shutdown after, and nothing at all for an
application that does not speak it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from typing import Any

__all__ = ["ASGIApp", "app_lifespan"]

ASGIApp = Callable[
    [
        MutableMapping[str, Any],
        Callable[[], Awaitable[MutableMapping[str, Any]]],
        Callable[[MutableMapping[str, Any]], Awaitable[None]],
    ],
    Awaitable[None],
]

LIFESPAN_TIMEOUT = 10.0


class LifespanError(RuntimeError):
    """The application reported that its startup or shutdown failed."""


@asynccontextmanager
async def app_lifespan(app: ASGIApp) -> AsyncIterator[None]:
    """Run ``app``'s lifespan startup, the block, then its shutdown."""
    inbox: asyncio.Queue[MutableMapping[str, Any]] = asyncio.Queue()
    outbox: asyncio.Queue[MutableMapping[str, Any]] = asyncio.Queue()

    async def run() -> None:
        scope = {"type": "lifespan", "asgi": {"version": "3.0", "spec_version": "2.0"}}
        try:
            await app(scope, inbox.get, outbox.put)
        except Exception:
            await outbox.put({"type": "lifespan.unsupported"})

    task = asyncio.get_running_loop().create_task(run())
    await inbox.put({"type": "lifespan.startup"})
    answer = await asyncio.wait_for(outbox.get(), LIFESPAN_TIMEOUT)
    if answer["type"] == "lifespan.startup.failed":
        raise LifespanError(f"the application's startup failed: {answer.get('message', '')}")
    if answer["type"] != "lifespan.startup.complete":
        await task  # an application without a lifespan has nothing to shut down
        yield
        return
    try:
        yield
    finally:
        await inbox.put({"type": "lifespan.shutdown"})
        answer = await asyncio.wait_for(outbox.get(), LIFESPAN_TIMEOUT)
        await asyncio.wait_for(task, LIFESPAN_TIMEOUT)
        if answer["type"] == "lifespan.shutdown.failed":
            raise LifespanError(f"the application's shutdown failed: {answer.get('message', '')}")
