"""What changed: the latest complete run against the previous one of the same command and
list, sorted into new failures, fixed, still failing, flaky, appeared and went."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from th_ext.history import (
    FLAKY_WINDOW,
    HistoryError,
    HistoryStore,
    changes_text,
    parse_since,
    read_changes,
)

DAY = 86_400.0
START = parse_since("2026-03-01")


def error_doc(source: str, code: int) -> dict[str, object]:
    if code == 0:
        return {"format": 1, "valid": True, "exit_code": 0, "source": source, "problems": []}
    return {"source": source, "exit_code": 2, "error": {"code": "network-error", "message": "m"}}


def record(
    store: HistoryStore,
    verdicts: dict[str, int],
    day: int,
    *,
    list_name: str = "--from nightly.txt",
    status: str = "complete",
) -> int:
    recorder = store.start_run("validate", list_name, started=START + day * DAY)
    for source, code in verdicts.items():
        recorder.add(source, code, 0.1 * (day + 1), error_doc(source, code))
    if status != "running":
        recorder.finish("complete" if status == "complete" else "interrupted", 0)
    return recorder.run_id


@pytest.fixture
def store(tmp_path: Path) -> Iterator[HistoryStore]:
    with HistoryStore.open(tmp_path / "h.db") as opened:
        yield opened


def test_each_source_lands_in_its_list(store: HistoryStore) -> None:
    record(store, {"steady": 0, "breaks": 0, "heals": 2, "stuck": 2, "goes": 0}, 0)
    record(store, {"steady": 0, "breaks": 2, "heals": 0, "stuck": 2, "new": 0}, 1)
    changes = read_changes(store)
    names = {
        key: [c.source for c in getattr(changes, key)]
        for key in ("new_failures", "fixed", "still_failing", "appeared", "went", "flaky")
    }
    assert names == {
        "new_failures": ["breaks"],
        "fixed": ["heals"],
        "still_failing": ["stuck"],
        "appeared": ["new"],
        "went": ["goes"],
        "flaky": [],
    }
    assert changes.exit_code == 1
    assert changes.new_failures[0].before is not None
    assert changes.new_failures[0].before.category == "passed"
    assert changes.new_failures[0].now is not None
    assert changes.new_failures[0].now.category == "unreachable"
    document = changes.to_dict()
    assert json.loads(json.dumps(document)) == document
    assert document["exit_code"] == 1 and document["new_failures"][0]["source"] == "breaks"
    text = changes_text(changes)
    assert "new failures (1):\n  breaks  unreachable (exit 2), was passed" in text
    assert text.rstrip().endswith(
        "1 new failure, 1 fixed, 1 still failing, 0 flaky, 1 appeared, 1 went"
    )


def test_no_new_failure_exits_0_and_the_first_run_lists_what_fails(store: HistoryStore) -> None:
    record(store, {"a": 0, "b": 2}, 0)
    changes = read_changes(store)
    assert changes.previous is None
    assert [c.source for c in changes.still_failing] == ["b"]
    assert changes.appeared == [] and changes.exit_code == 0
    assert "previous: none" in changes_text(changes)


def test_flaky_is_two_changes_of_verdict_in_the_last_runs(store: HistoryStore) -> None:
    pattern = {
        "flips": [0, 0, 0, 2, 0, 0, 0, 0, 0],  # failed once and came back: two changes
        "once": [0, 0, 0, 0, 0, 0, 2, 2, 2],  # one change: a failure, not flakiness
        "old-flips": [0, 2, 2, 0, 0, 0, 0, 0, 0],  # one of its changes is before the window
        "late": [0, 0, 0, 0, 0, 0, 0, 2, 0],  # in and out of the last two runs
    }
    for day in range(9):
        record(store, {name: codes[day] for name, codes in pattern.items()}, day)
    changes = read_changes(store)
    assert FLAKY_WINDOW == 7
    flaky = {c.source: c.verdicts for c in changes.flaky}
    assert set(flaky) == {"flips", "late"}
    # the window is the last seven runs, oldest first
    assert flaky["flips"] == (True, False, True, True, True, True, True)


def test_only_runs_of_the_same_command_and_list_are_compared(store: HistoryStore) -> None:
    record(store, {"a": 2}, 0)
    record(store, {"a": 0, "other": 0}, 1, list_name="--from other.txt")
    record(store, {"a": 0}, 2)
    changes = read_changes(store)
    assert changes.latest is not None and changes.previous is not None
    assert changes.previous.started == START
    assert [c.source for c in changes.fixed] == ["a"]


def test_an_unfinished_latest_run_is_named_not_compared(store: HistoryStore) -> None:
    record(store, {"a": 0}, 0)
    record(store, {"a": 0}, 1)
    late = record(store, {"a": 2}, 2, status="interrupted")
    running = record(store, {"a": 2}, 3, status="running")
    changes = read_changes(store)
    assert changes.exit_code == 0 and changes.new_failures == []
    assert [run.id for run in changes.unfinished] == [late, running]
    assert f"note: run {late} did not complete (interrupted)" in changes_text(changes)


def test_since_and_source_narrow_what_is_read(store: HistoryStore) -> None:
    record(store, {"api.example/a": 2, "web.example/b": 0}, 0)
    record(store, {"api.example/a": 0, "web.example/b": 2}, 1)
    narrowed = read_changes(store, source="api.*")
    assert [c.source for c in narrowed.fixed] == ["api.example/a"]
    assert narrowed.new_failures == [] and narrowed.exit_code == 0
    later = read_changes(store, since=parse_since("2026-03-02"))
    assert later.previous is None  # the run before the date is not read
    assert [c.source for c in later.still_failing] == ["web.example/b"]


def test_since_takes_a_date_or_a_time_and_refuses_anything_else() -> None:
    assert parse_since("2026-03-01") == START
    assert parse_since("2026-03-01T06:00") == START + 6 * 3600
    assert parse_since("2026-03-01T06:00+02:00") == START + 4 * 3600
    with pytest.raises(HistoryError, match="not a date"):
        parse_since("yesterday")


def test_an_empty_store_has_nothing_to_compare(store: HistoryStore) -> None:
    changes = read_changes(store)
    assert changes.latest is None and changes.exit_code == 0
    assert changes_text(changes) == "no complete run recorded yet\n"
