"""The limits a run keeps per origin, alone: the gate's count of failures in a row, the rate's
spacing, the pools' lease."""

from __future__ import annotations

import asyncio
import itertools

import httpx
import pytest

from th_ext import FetchConnectError, FetchTimeoutError, HTTPStatusCodeError
from th_ext.batch import OriginGate, OriginLimiter
from th_ext.batch._fetch import OriginTransports

URL = "http://agent.test/card.json"
TIMEOUT = FetchTimeoutError(f"{URL}: no complete answer within 5 s")
REFUSED = FetchConnectError(f"{URL}: connection refused")


def gate_after(give_up: int, *errors: Exception | None) -> OriginGate:
    """A gate that saw sources of ``URL``'s origin end with ``errors``, in order."""

    async def run() -> OriginGate:
        gate = OriginGate(per_origin=1, give_up=give_up)
        for error in errors:
            await gate.enter(URL)
            gate.leave(URL, error)  # type: ignore[arg-type]
        return gate

    return asyncio.run(run())


def test_failures_in_a_row_give_the_origin_up_naming_the_first() -> None:
    assert gate_after(3, REFUSED, TIMEOUT).refusal(URL) is None
    refusal = gate_after(3, REFUSED, TIMEOUT, TIMEOUT).refusal("http://AGENT.test:80/other")
    assert refusal is not None and refusal.code == "origin-failed"
    assert str(refusal) == (
        "http://AGENT.test:80/other: not checked: http://agent.test failed 3 times in a row in "
        f"this run; the first: {URL}: connection refused"
    )


def test_an_origin_given_up_after_one_failure_says_one_time() -> None:
    refusal = gate_after(1, REFUSED).refusal(URL)
    assert refusal is not None
    assert str(refusal).startswith(
        f"{URL}: not checked: http://agent.test failed 1 time in a row in this run;"
    )


@pytest.mark.parametrize(
    "answer", [None, HTTPStatusCodeError("HTTP 404", status=404, url=URL)], ids=["ok", "404"]
)
def test_an_answer_starts_the_count_again(answer: Exception | None) -> None:
    assert gate_after(2, TIMEOUT, answer, TIMEOUT).refusal(URL) is None
    refusal = gate_after(2, TIMEOUT, answer, REFUSED, TIMEOUT).refusal(URL)
    assert refusal is not None and str(refusal).endswith(f"the first: {URL}: connection refused")


def test_other_origins_are_counted_apart_and_zero_never_gives_up() -> None:
    gate = gate_after(1, TIMEOUT)
    assert gate.refusal("https://agent.test/card.json") is None  # another scheme, another origin
    assert gate.refusal(URL) is not None
    assert gate_after(0, *[TIMEOUT] * 50).refusal(URL) is None


def test_an_uncounted_leave_changes_nothing() -> None:
    async def run() -> OriginGate:
        gate = OriginGate(per_origin=1, give_up=1)
        await gate.enter(URL)
        gate.leave(URL, TIMEOUT, counted=False)
        return gate

    assert asyncio.run(run()).refusal(URL) is None


def test_the_rate_spaces_the_slots_of_one_origin_and_not_of_two() -> None:
    async def run() -> dict[str, list[float]]:
        limiter = OriginLimiter(per_origin=10, rate=10)
        loop = asyncio.get_running_loop()
        given: dict[str, list[float]] = {"a": [], "b": []}

        async def take(name: str) -> None:
            async with limiter.slot(f"http://{name}.test/x"):
                given[name].append(loop.time())

        await asyncio.gather(*(take(name) for name in "ab" for _ in range(4)))
        assert limiter.origins_in_use() == 2  # kept until the next turn has come
        await asyncio.sleep(0.15)
        assert limiter.origins_in_use() == 0
        return given

    given = asyncio.run(run())
    for times in given.values():
        gaps = [b - a for a, b in itertools.pairwise(times)]
        # Each time is read once the slot is held, a moment after the limiter gave it: a
        # loaded machine can make one gap a little shorter than the limiter's own.
        assert all(gap >= 0.1 - 0.01 for gap in gaps), gaps
    assert abs(given["a"][0] - given["b"][0]) < 0.05


@pytest.mark.parametrize(("per_origin", "rate"), [(0, None), (1, 0), (1, -1.0)])
def test_a_limiter_out_of_range_is_refused(per_origin: int, rate: float | None) -> None:
    with pytest.raises(ValueError, match="must be"):
        OriginLimiter(per_origin, rate)


def test_each_origin_leases_its_own_pool_and_idle_ones_past_keep_are_closed() -> None:
    made: list[httpx.AsyncHTTPTransport] = []

    def make() -> httpx.AsyncHTTPTransport:
        made.append(httpx.AsyncHTTPTransport())
        return made[-1]

    async def run() -> None:
        pools = OriginTransports(make, keep=1)
        async with pools.lease("http://a.test/1") as a1, pools.lease("http://a.test/2") as a2:
            assert a1 is a2
        async with pools.lease("http://b.test/1") as b:
            assert b is not a1
        async with pools.lease("http://a.test/3") as again:
            assert again is not a1  # a's pool was closed when b's went idle beside it
        await pools.aclose()

    asyncio.run(run())
    assert len(made) == 3
