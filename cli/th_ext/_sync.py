"""The package's one bridge from synchronous code to async code: ``run_sync``."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

__all__ = ["run_sync"]

T = TypeVar("T")


def run_sync(work: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run the coroutine ``work()`` on an event loop of its own and return its result.

    Called from a thread that already runs an event loop (a synchronous helper inside async
    code, a test under an async framework), it runs in a worker thread, so it neither fails
    nor nests loops.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return _run_loop(work)
    with ThreadPoolExecutor(max_workers=1) as worker:
        return worker.submit(_run_loop, work).result()


def _run_loop(work: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run ``work()`` on a new event loop in this thread."""
    return asyncio.run(work())
