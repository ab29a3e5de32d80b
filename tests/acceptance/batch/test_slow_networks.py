"""The batch on networks that are slow, silent or busy: a source's time is its own, one origin
holds only its own sources, an origin that keeps failing is given up, retries and a rate."""

from __future__ import annotations

import asyncio
import re
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.support.card_origins import Origin, serve_origins
from th_ext import SourceArgumentError, SourceLimits
from th_ext.batch import Outcome, check_cards

REPO = Path(__file__).resolve().parents[3]
CARD = (REPO / "extensions" / "commands" / "v1" / "examples" / "card.json").read_bytes()


def run(outcomes: AsyncIterator[Outcome]) -> list[tuple[float, Outcome]]:
    """Each outcome, with the seconds from the start when it came."""

    async def collect() -> list[tuple[float, Outcome]]:
        started = time.monotonic()
        return [(time.monotonic() - started, outcome) async for outcome in outcomes]

    return asyncio.run(collect())


def code_of(outcome: Outcome) -> str:
    assert outcome.document is not None
    problems = outcome.document.get("problems")
    if problems:
        return str(problems[0]["code"])
    return str(outcome.document.get("error", {}).get("code", ""))


def closed_port() -> int:
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port: int = closed.getsockname()[1]
    closed.close()
    return port


def test_the_wait_for_an_origin_is_not_the_sources_time() -> None:
    """Twelve sources on one origin answering in 0.3 s, two at once: the last waits 1.5 s for
    its turn, past its timeout of 1 s, and still has its whole second."""
    origin = Origin(delay=0.3, body=CARD)
    with serve_origins([origin]):
        urls = [f"{origin.url}/card{i}.json" for i in range(12)]
        timed = run(check_cards(urls, limits=SourceLimits(timeout=1.0), jobs=12, per_origin=2))
    assert [outcome.exit_code for _, outcome in timed] == [0] * 12
    assert origin.most_at_once == 2
    assert timed[-1][0] >= 6 * 0.3
    assert all(outcome.seconds < 1.0 for _, outcome in timed)


def test_a_source_waiting_for_its_origin_holds_no_job(tmp_path: Path) -> None:
    """Two jobs; six sources of a silent origin listed first, one slot for them: the files
    behind them are all checked before the first of them times out."""
    silent = Origin(mode="silent")
    files = []
    for i in range(20):
        (tmp_path / f"{i}.json").write_bytes(CARD)
        files.append(str(tmp_path / f"{i}.json"))
    with serve_origins([silent]):
        urls = [f"{silent.url}/s{i}.json" for i in range(6)]
        timed = run(
            check_cards(
                urls + files, limits=SourceLimits(timeout=1.0), jobs=2, per_origin=1, give_up=0
            )
        )
    first_silent = min(at for at, outcome in timed if "/s" in outcome.source)
    last_file = max(at for at, outcome in timed if outcome.source in files)
    assert last_file < first_silent
    assert [code_of(o) for _, o in timed if "/s" in o.source] == ["timeout"] * 6


def test_an_origin_that_keeps_failing_fails_its_other_sources_at_once() -> None:
    silent = Origin(mode="silent")
    with serve_origins([silent]):
        urls = [f"{silent.url}/s{i}.json" for i in range(10)]
        started = time.monotonic()
        timed = run(
            check_cards(urls, limits=SourceLimits(timeout=0.5), jobs=16, per_origin=2, give_up=2)
        )
        took = time.monotonic() - started
    codes = [code_of(outcome) for _, outcome in timed]
    # Two at once: when the first times out, a third may start before the second has failed.
    tried = silent.requests
    assert tried in {2, 3}
    assert sorted(codes) == ["origin-failed"] * (10 - tried) + ["timeout"] * tried
    assert took < 2 * 0.5 + 1.0  # at most two rounds of timeouts, then the rest at once
    # With a third tried, its timeout comes after the refusals: take a refused one, the last.
    refused = [outcome for _, outcome in timed if code_of(outcome) == "origin-failed"][-1]
    assert refused.exit_code == 2 and refused.error is not None
    assert re.fullmatch(
        re.escape(f"{silent.url}/s9.json: not checked: {silent.url} failed 2 times in a row in ")
        + re.escape(f"this run; the first: {silent.url}/s")
        + r"[01]\.json: no complete answer within 0\.5 s",
        str(refused.error),
    )


def test_refused_connections_count_and_zero_never_gives_up() -> None:
    url = f"http://127.0.0.1:{closed_port()}"
    urls = [f"{url}/c{i}.json" for i in range(6)]
    given_up = run(check_cards(urls, jobs=4, per_origin=1, give_up=3))
    assert [code_of(o) for _, o in given_up] == ["network-error"] * 3 + ["origin-failed"] * 3
    assert "the first: " + url + "/c0.json: connection refused" in str(given_up[-1][1].error)
    never = run(check_cards(urls, jobs=4, per_origin=1, give_up=0))
    assert [code_of(o) for _, o in never] == ["network-error"] * 6


def test_a_busy_origin_is_tried_again_and_each_retry_is_in_the_line() -> None:
    busy = Origin(body=CARD, busy=2)
    with serve_origins([busy]):
        timed = run(check_cards([f"{busy.url}/card.json"], limits=SourceLimits(retries=3)))
    outcome = timed[0][1]
    assert outcome.exit_code == 0 and busy.requests == 3
    assert outcome.document is not None
    retries = outcome.document["retries"]
    assert [r["reason"] for r in retries] == [f"{busy.url}/card.json: HTTP 503 Busy"] * 2
    assert all(0 < r["wait"] <= 1.0 for r in retries)


def test_an_origin_busy_for_ever_ends_within_the_timeout() -> None:
    busy = Origin(body=CARD, busy=10_000)
    with serve_origins([busy]):
        started = time.monotonic()
        timed = run(
            check_cards([f"{busy.url}/card.json"], limits=SourceLimits(timeout=2.0, retries=10))
        )
        took = time.monotonic() - started
    outcome = timed[0][1]
    assert took < 2.5
    assert outcome.exit_code == 2 and code_of(outcome) == "http-error"
    assert outcome.document is not None
    assert 1 <= len(outcome.document["retries"]) < 10
    assert "retries)" in outcome.document["problems"][0]["message"]


@pytest.mark.parametrize("value", ["31536000", "soon"])
def test_a_retry_after_of_a_year_or_of_garbage_is_one_record(value: str) -> None:
    busy = Origin(body=CARD, busy=10_000, retry_after=value)
    with serve_origins([busy]):
        timed = run(
            check_cards([f"{busy.url}/card.json"], limits=SourceLimits(timeout=2.0, retries=2))
        )
    outcome = timed[0][1]
    assert outcome.exit_code == 2 and outcome.document is not None
    message = outcome.document["problems"][0]["message"]
    if value == "soon":  # not a wait: the backoff instead
        assert len(outcome.document["retries"]) == 2 and message.endswith("(after 2 retries)")
    else:
        assert "retries" not in outcome.document and busy.requests == 1
        assert message.endswith("(its Retry-After (31536000 s) ends after the timeout)")


def test_no_other_status_is_tried_again() -> None:
    missing = Origin(status=404, body=b"{}")
    with serve_origins([missing]):
        timed = run(check_cards([f"{missing.url}/card.json"], limits=SourceLimits(retries=3)))
    assert missing.requests == 1
    assert timed[0][1].document is not None and "retries" not in timed[0][1].document


def test_the_rate_spaces_the_requests_to_one_origin() -> None:
    origin = Origin(body=CARD)
    other = Origin(body=CARD)
    with serve_origins([origin, other]):
        # A first request in this process loads the connection code: it would reach the
        # server late, and the next one on time, so the gap seen would not be the rate's.
        run(check_cards([f"{origin.url}/first.json"]))
        origin.arrivals.clear()
        urls = [f"{origin.url}/card{i}.json" for i in range(6)]
        urls += [f"{other.url}/card{i}.json" for i in range(6)]
        timed = run(check_cards(urls, jobs=12, per_origin=4, rate=5))
    assert [outcome.exit_code for _, outcome in timed] == [0] * 12
    for server in (origin, other):
        gaps = [b - a for a, b in zip(server.arrivals, server.arrivals[1:], strict=False)]
        assert min(gaps) >= 1 / 5 - 0.05, gaps
    # the two origins are paced apart, each on its own: about 5 x 0.2 s, not 11 x 0.2 s
    assert timed[-1][0] < 11 * 0.2


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        ({"rate": 0}, "rate must be a number of requests a second, more than 0"),
        ({"rate": float("nan")}, "not nan"),
        ({"give_up": -1}, "origin-failures must be a whole number from 0 to 10000, not -1"),
    ],
)
def test_limits_out_of_range_are_refused(arguments: dict[str, float], said: str) -> None:
    with pytest.raises(SourceArgumentError, match=said):
        check_cards(["a.json"], **arguments)  # type: ignore[arg-type]


def test_retries_out_of_range_are_refused() -> None:
    with pytest.raises(SourceArgumentError, match="retries must be a whole number from 0 to 10"):
        check_cards(["a.json"], limits=SourceLimits(retries=-1))
