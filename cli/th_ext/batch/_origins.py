"""The limits a run keeps per origin (scheme, host, port), on asyncio alone: ``OriginLimiter``'s
request slots, and ``OriginGate``'s source slots and origins given up."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from th_ext._exceptions import (
    AgentUnreachableError,
    FetchConnectError,
    FetchTimeoutError,
    OriginFailedError,
    ThExtError,
)
from th_ext.net import origin_of, redact
from th_ext.problems import counted

__all__ = ["OriginGate", "OriginLimiter"]


@dataclass(slots=True)
class _Origin:
    semaphore: asyncio.Semaphore
    users: int = 0
    pacing: asyncio.Lock = field(default_factory=asyncio.Lock)
    next_turn: float = 0.0
    """With a rate: the ``loop.time()`` before which no other slot is given."""


class OriginLimiter:
    """At most ``per_origin`` holders of one origin's slot at once; with ``rate``, at most
    ``rate`` slots given a second to one origin (evenly spaced, ``1 / rate`` s apart). An
    origin's semaphore is made when it is first asked for and dropped when nobody holds or
    waits for it, so a run over a million origins keeps only those in use."""

    def __init__(self, per_origin: int, rate: float | None = None) -> None:
        if per_origin < 1:
            raise ValueError("per_origin must be at least 1")
        if rate is not None and not rate > 0:
            raise ValueError("rate must be more than 0")
        self.per_origin = per_origin
        self.rate = rate
        self._origins: dict[Any, _Origin] = {}

    async def acquire(self, url: str) -> None:
        """Take one of the slots of ``url``'s origin (waiting for it, and with a rate for its
        turn); give it back with ``release``."""
        key = _key(url)
        origin = self._origins.get(key)
        if origin is None:
            origin = self._origins[key] = _Origin(asyncio.Semaphore(self.per_origin))
        origin.users += 1
        try:
            await origin.semaphore.acquire()
        except BaseException:
            origin.users -= 1
            self._forget(key, origin)
            raise
        if self.rate is not None:
            try:
                await self._turn(origin, self.rate)
            except BaseException:
                self.release(url)
                raise

    def release(self, url: str) -> None:
        """Give back a slot of ``url``'s origin taken by ``acquire``."""
        key = _key(url)
        origin = self._origins[key]
        origin.semaphore.release()
        origin.users -= 1
        self._forget(key, origin)

    @asynccontextmanager
    async def slot(self, url: str) -> AsyncIterator[None]:
        """Hold one of the slots of ``url``'s origin for the body of the ``async with``."""
        await self.acquire(url)
        try:
            yield
        finally:
            self.release(url)

    async def _turn(self, origin: _Origin, rate: float) -> None:
        """Wait until ``1 / rate`` s have passed since the origin's last slot was given."""
        async with origin.pacing:  # one at a time, so that each is spaced from the last
            loop = asyncio.get_running_loop()
            wait = origin.next_turn - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            origin.next_turn = loop.time() + 1 / rate

    def _forget(self, key: Any, origin: _Origin) -> None:
        """Drop an origin nobody holds, once its next turn has come (so that a rate holds
        across a moment when no request is in flight)."""
        if self._origins.get(key) is not origin or origin.users:
            return
        loop = asyncio.get_running_loop()
        if origin.next_turn > loop.time():
            loop.call_at(origin.next_turn, self._forget, key, origin)
        else:
            del self._origins[key]

    def origins_in_use(self) -> int:
        """How many origins hold a semaphore now (for tests and benchmarks)."""
        return len(self._origins)


def _key(url: str) -> Any:
    return origin_of(url) or url


@dataclass(slots=True)
class _Failures:
    count: int = 0
    first: str = ""


class OriginGate:
    """The sources of one origin checked at once (at most ``per_origin``), and the origins
    given up: one whose sources failed ``give_up`` times in a row with no connection or no
    answer in time (``0``: never given up). Any other outcome of a source starts the count
    again."""

    def __init__(self, per_origin: int, give_up: int) -> None:
        self.give_up = give_up
        self._limiter = OriginLimiter(per_origin)
        self._failures: dict[Any, _Failures] = {}

    async def enter(self, source: str) -> None:
        """Wait for one of the source slots of ``source``'s origin; ``leave`` gives it back."""
        await self._limiter.acquire(source)

    def leave(self, source: str, error: ThExtError | None, *, counted: bool = True) -> None:
        """Give back the slot ``enter`` took, and unless not ``counted``, count how the
        source's requests ended: ``error``, a failure to connect or to answer in time, or
        anything else (``None``: the origin answered)."""
        self._limiter.release(source)
        if counted:
            self._record(source, error)

    def refusal(self, source: str) -> OriginFailedError | None:
        """The error of a source whose origin was given up, or ``None`` to check it."""
        failures = self._failures.get(_key(source))
        if failures is None or not self.give_up or failures.count < self.give_up:
            return None
        return OriginFailedError(
            f"{redact(source)}: not checked: {_key(source)} failed "
            f"{counted(failures.count, 'time')} in "
            f"a row in this run; the first: {failures.first}"
        )

    def _record(self, source: str, error: ThExtError | None) -> None:
        key = _key(source)
        if isinstance(error, FetchTimeoutError | FetchConnectError | AgentUnreachableError):
            failures = self._failures.setdefault(key, _Failures())
            failures.count += 1
            failures.first = failures.first or str(error)
        else:
            self._failures.pop(key, None)
