"""The batch as a library: real loopback origins, limits held, outcomes streamed."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.support.card_origins import Origin, serve_origins
from th_ext import SourceArgumentError, SourceLimits
from th_ext.batch import (
    BatchCounts,
    Outcome,
    SeenSources,
    Summary,
    check_cards,
    read_resume,
)
from th_ext.batch._run import LOOP_VALIDATION_BYTES
from th_ext.report import render
from th_ext.validate import Problem, validate_bytes

REPO = Path(__file__).resolve().parents[3]
CARD = (REPO / "extensions" / "commands" / "v1" / "examples" / "card.json").read_bytes()


def run(outcomes: AsyncIterator[Outcome]) -> list[Outcome]:
    async def collect() -> list[Outcome]:
        return [outcome async for outcome in outcomes]

    return asyncio.run(collect())


def test_no_origin_gets_more_than_per_origin_requests_at_once() -> None:
    origins = [Origin(delay=0.05, body=CARD) for _ in range(3)]
    with serve_origins(origins):
        urls = [f"{origins[i % 3].url}/card{i}.json" for i in range(60)]
        outcomes = run(check_cards(urls, jobs=40, per_origin=3))
    assert sorted(o.exit_code for o in outcomes) == [0] * 60
    assert [o.most_at_once for o in origins] == [3, 3, 3]
    assert [o.requests for o in origins] == [20, 20, 20]


def test_no_more_than_jobs_sources_are_in_flight() -> None:
    origins = [Origin(delay=0.05, body=CARD) for _ in range(8)]
    with serve_origins(origins):
        urls = [f"{o.url}/card{i}.json" for i in range(5) for o in origins]
        outcomes = run(check_cards(urls, jobs=2, per_origin=4))
    assert len(outcomes) == 40
    assert max(o.most_at_once for o in origins) == 1  # two in flight, spread over the origins
    assert sum(o.requests for o in origins) == 40


def test_the_sources_run_at_once_not_one_after_another() -> None:
    origins = [Origin(delay=0.2, body=CARD) for _ in range(4)]
    with serve_origins(origins):
        urls = [f"{o.url}/card{i}.json" for i in range(4) for o in origins]
        started = time.monotonic()
        outcomes = run(check_cards(urls, jobs=16, per_origin=4))
        took = time.monotonic() - started
    assert len(outcomes) == 16 and all(o.exit_code == 0 for o in outcomes)
    assert took < 16 * 0.2 / 2  # one after another would take 3.2 s


def test_a_silent_origin_costs_its_own_timeout_and_slots_only() -> None:
    silent = Origin(mode="silent")
    trickle = Origin(mode="trickle", body=CARD)
    fast = [Origin(delay=0.01, body=CARD) for _ in range(4)]
    with serve_origins([silent, trickle, *fast]):
        urls = [f"{silent.url}/s{i}.json" for i in range(4)]
        urls += [f"{trickle.url}/t{i}.json" for i in range(2)]
        urls += [f"{o.url}/card{i}.json" for i in range(50) for o in fast]
        started = time.monotonic()
        outcomes = run(check_cards(urls, limits=SourceLimits(timeout=1.0), jobs=16, per_origin=2))
        took = time.monotonic() - started
    slow = [o for o in outcomes if "/s" in o.source or "/t" in o.source]
    assert len(slow) == 6
    assert all(o.exit_code == 2 for o in slow)
    assert all(o.document and o.document["problems"][0]["code"] == "timeout" for o in slow)
    # two waves of two sources on the silent origin, each with its own whole timeout (its wait
    # for the origin is not counted), one on the trickling one
    assert took < 2 * 1.0 + 2.0
    assert [o.exit_code for o in outcomes if o not in slow] == [0] * 200
    # the fast sources were not held behind the slow ones: many finished first
    positions = [i for i, o in enumerate(outcomes) if o in slow]
    assert min(positions) > 50


def test_each_source_is_checked_once_and_the_duplicates_are_said() -> None:
    origin = Origin(body=CARD)
    with serve_origins([origin]):
        url = f"{origin.url}/card.json"
        counts = BatchCounts()
        outcomes = run(check_cards([url, url, url + "#x", url], counts=counts))
    assert origin.requests == 2  # the URL, and the URL with a fragment (another source)
    assert [o.duplicate for o in outcomes].count(True) == 2
    assert counts.duplicates == 2 and counts.listed == 4 and counts.finished


def test_sources_to_skip_are_passed_over(tmp_path: Path) -> None:
    card = tmp_path / "card.json"
    card.write_bytes(CARD)
    skip = SeenSources()
    skip.add(str(card))
    counts = BatchCounts()
    outcomes = run(check_cards([str(card), str(tmp_path / "other.json")], skip=skip, counts=counts))
    assert [o.source for o in outcomes] == [str(tmp_path / "other.json")]
    assert counts.resumed == 1


def test_a_bad_line_is_a_report_of_a_source_that_cannot_be_read() -> None:
    error = SourceArgumentError("list.txt line 3: holds a NUL byte", code="bad-list-line")
    [outcome] = run(check_cards([error]))
    assert outcome.exit_code == 2
    assert outcome.source == "list.txt line 3"
    assert outcome.document is not None
    assert outcome.document["problems"][0]["code"] == "bad-list-line"


def test_closing_the_iterator_cancels_the_requests_in_flight() -> None:
    silent = Origin(mode="silent")
    fast = Origin(body=CARD)
    with serve_origins([silent, fast]):
        urls = [f"{fast.url}/first.json"] + [f"{silent.url}/s{i}.json" for i in range(4)]

        async def first_then_close() -> float:
            outcomes = check_cards(urls, limits=SourceLimits(timeout=30), per_origin=4)
            async for outcome in outcomes:
                assert outcome.exit_code == 0
                break
            started = time.monotonic()
            await outcomes.aclose()  # type: ignore[attr-defined]
            return time.monotonic() - started

        took = asyncio.run(first_then_close())
        assert took < 1.0
        deadline = time.monotonic() + 1
        while silent.in_flight and time.monotonic() < deadline:
            time.sleep(0.05)
        assert silent.requests == 4 and silent.in_flight == 0


def test_bad_limits_are_refused_before_anything_runs() -> None:
    for jobs, per_origin in ((0, 4), (-1, 4), (4, 0)):
        with pytest.raises(SourceArgumentError, match="must be a whole number from 1"):
            check_cards(["a.json"], jobs=jobs, per_origin=per_origin)


def test_a_line_is_the_json_format_of_one_card_and_reads_back(tmp_path: Path) -> None:
    card = tmp_path / "card.json"
    card.write_bytes(CARD)
    [outcome] = run(check_cards([str(card)]))
    line = render(outcome.document or {}, "jsonl")
    assert line.endswith("\n") and line.count("\n") == 1
    assert json.loads(line) == outcome.document
    out = tmp_path / "run.jsonl"
    out.write_text(line)
    state = read_resume(str(out), "validate")
    assert str(card) in state.seen and state.lines == 1 and state.worst == outcome.exit_code


def test_a_resume_state_knows_a_cut_off_last_line_and_a_last_line_without_its_end(
    tmp_path: Path,
) -> None:
    card = tmp_path / "card.json"
    card.write_bytes(CARD)
    [outcome] = run(check_cards([str(card)]))
    line = render(outcome.document or {}, "jsonl").encode()
    out = tmp_path / "run.jsonl"
    out.write_bytes(line + line[:40])  # the machine stopped in the middle of the second line
    state = read_resume(str(out), "validate")
    assert (state.lines, state.whole, state.cut, state.unended) == (1, len(line), 2, False)
    out.write_bytes(line[:-1])  # a whole report, its line end lost
    state = read_resume(str(out), "validate")
    assert (state.lines, state.whole, state.cut, state.unended) == (1, len(line) - 1, None, True)
    assert out.read_bytes() == line[:-1]  # reading changes nothing


def test_a_non_finite_number_is_written_as_strict_json() -> None:
    document = {"source": "x", "value": [float("inf"), {"n": float("nan")}, -float("inf")]}
    line = render(document, "jsonl")
    assert json.loads(line) == {"source": "x", "value": ["Infinity", {"n": "NaN"}, "-Infinity"]}


def test_the_summary_keeps_ten_failing_and_ten_slowest() -> None:
    summary = Summary()
    for i in range(100):
        summary.add(Outcome(f"s{i}", i, i % 3, seconds=i / 10, document={}))
    assert summary.checked == 100
    assert (summary.passed, summary.failed, summary.unreadable) == (34, 33, 33)
    assert len(summary.failing) == 10 and summary.failing[0][:2] == ("s1", 1)
    assert [s for s, _ in summary.slowest] == [f"s{i}" for i in range(99, 89, -1)]
    assert summary.exit_code == 2


def test_a_large_card_is_validated_off_the_loop_with_the_same_report(tmp_path: Path) -> None:
    card = json.loads(CARD)
    commands = card["capabilities"]["extensions"][0]["params"]["commands"]
    commands += [{"name": f"c{i}", "description": "d" * 100} for i in range(1000)]
    commands.append({"name": "Bad Name", "description": "d"})
    large = tmp_path / "large.json"
    large.write_text(json.dumps(card))
    assert large.stat().st_size > LOOP_VALIDATION_BYTES
    small = tmp_path / "small.json"
    small.write_bytes(CARD)
    outcomes = {o.source: o for o in run(check_cards([str(large), str(small)]))}
    alone = validate_bytes(large.read_bytes(), source=str(large))
    assert outcomes[str(large)].document == alone.to_dict()
    assert outcomes[str(large)].exit_code == 1 and outcomes[str(small)].exit_code == 0


def test_an_origin_that_redirects_to_another_listed_source() -> None:
    """Both are checked, each once as a source; the first's card comes from where it points."""
    target = Origin(body=CARD)
    with serve_origins([target]):
        pointing = Origin(redirect=f"{target.url}/card.json")
        with serve_origins([pointing]):
            urls = [f"{pointing.url}/card.json", f"{target.url}/card.json"]
            outcomes = {o.source: o for o in run(check_cards(urls))}
    assert set(outcomes) == set(urls)
    assert all(o.exit_code == 0 for o in outcomes.values())
    first = outcomes[urls[0]].document
    assert first is not None and first["location"] == urls[1]
    assert target.requests == 2 and pointing.requests == 1


def test_the_runs_notices_are_reported_with_every_card(tmp_path: Path) -> None:
    """What reading the family's schemas found belongs to every card's report, as it does to
    the one card of ``th-ext validate SOURCE``; an error among them fails each card."""
    changed = Problem(
        "error",
        "family-schema-changed",
        "https://x.test/ext/v1",
        "the schema changed",
        "",
        "extension",
    )
    paths = []
    for name in ("a.json", "b.json"):
        (tmp_path / name).write_bytes(CARD)
        paths.append(str(tmp_path / name))
    outcomes = run(check_cards(paths, notices=[changed]))
    assert sorted(o.source for o in outcomes) == paths
    for outcome in outcomes:
        assert outcome.document is not None
        assert [p["code"] for p in outcome.document["problems"]] == ["family-schema-changed"]
        assert outcome.exit_code == 1
    assert [o.exit_code for o in run(check_cards(paths))] == [0, 0]
