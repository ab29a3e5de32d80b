"""The store: runs and outcomes recorded and read back, committed as they stream, two writers
at once, migrations, and every file that is not a usable store refused in one line and left
as it was."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from th_ext.history import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    HistoryError,
    HistoryStore,
    read_changes,
)


def doc(source: str, code: int = 0, *problems: str) -> dict[str, Any]:
    """A validate document of ``source`` with these error codes."""
    return {
        "format": 1,
        "valid": code == 0,
        "exit_code": code,
        "source": source,
        "problems": [
            {"severity": "error", "code": p, "layer": "card", "path": "", "message": "m"}
            for p in problems
        ],
    }


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def rows(path: Path, query: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as connection:
        return connection.execute(query).fetchall()


def test_a_run_and_its_outcomes_are_recorded_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    with HistoryStore.open(path) as store:
        recorder = store.start_run("validate", "--from list.txt", {"strict": True})
        recorder.add("a.json", 0, 0.25, doc("a.json"))
        recorder.add("b.json", 1, 0.5, doc("b.json", 1, "missing-field", "missing-field"))
        recorder.finish("complete", 1)
        (run,) = store.runs()
        outcomes = store.outcomes(run.id)
        assert store.last_document("b.json") == doc("b.json", 1, "missing-field", "missing-field")
    assert (run.command, run.list, run.options, run.status) == (
        "validate",
        "--from list.txt",
        {"strict": True},
        "complete",
    )
    assert (run.total, run.passed, run.exit_code) == (2, 1, 1)
    assert run.categories == {"passed": 1, "card-invalid": 1}
    assert (run.p50, run.p90) == (0.25, 0.5)
    assert run.ended is not None and run.ended >= run.started
    assert outcomes["b.json"].problems == {"missing-field": 2}
    assert outcomes["b.json"].category == "card-invalid"
    assert outcomes["a.json"].passed and not outcomes["b.json"].passed
    assert rows(path, "PRAGMA journal_mode") == [("wal",)]
    assert rows(path, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
    assert rows(path, "PRAGMA application_id") == [(APPLICATION_ID,)]


def test_a_document_met_again_is_stored_once(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    with HistoryStore.open(path) as store:
        for _ in range(3):
            recorder = store.start_run("validate", "list")
            recorder.add("a.json", 0, 0.1, doc("a.json"))
            recorder.finish("complete", 0)
    assert rows(path, "SELECT count(*) FROM documents") == [(1,)]
    assert rows(path, "SELECT count(*) FROM outcomes") == [(3,)]


def test_outcomes_are_committed_as_they_stream_and_an_unfinished_run_never_reads_complete(
    tmp_path: Path,
) -> None:
    path = tmp_path / "h.db"
    store = HistoryStore.open(path)
    recorder = store.start_run("validate", "list")
    recorder.add("a.json", 0, 0.1, doc("a.json"))
    recorder.flush()
    for number in range(600):  # past a batch: committed without a flush
        recorder.add(f"s{number}.json", 0, 0.1, doc(f"s{number}.json"))
    # another reader sees them while the run goes on
    assert rows(path, "SELECT count(*) FROM outcomes")[0][0] >= 501
    store.close()  # the process ends without finishing the run
    with HistoryStore.open(path, write=False) as reader:
        (run,) = reader.runs()
        assert run.status == "running"
        changes = read_changes(reader)
    assert changes.latest is None
    assert [r.id for r in changes.unfinished] == [run.id]


def test_an_interrupted_run_keeps_what_it_finished_and_can_go_on(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    with HistoryStore.open(path) as store:
        recorder = store.start_run("validate", "list")
        recorder.add("a.json", 0, 0.1, doc("a.json"))
        recorder.finish("interrupted", 130)
        (run,) = store.runs()
        assert (run.status, run.total) == ("interrupted", 1)
        again = store.start_run("validate", "list", resume=True)
        assert again.run_id == run.id
        again.add("b.json", 0, 0.1, doc("b.json"))
        again.finish("complete", 0)
        (run,) = store.runs()
        assert (run.status, run.total) == ("complete", 2)
        fresh = store.start_run("validate", "list", resume=True)  # the last one completed
        assert fresh.run_id != run.id


def test_two_runs_writing_one_store_at_once_both_land(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    HistoryStore.open(path).close()
    start = threading.Barrier(2)
    failures: list[BaseException] = []

    def run(name: str) -> None:
        try:
            with HistoryStore.open(path) as store:
                recorder = store.start_run("validate", name)
                start.wait()
                for number in range(200):
                    recorder.add(f"{name}-{number}", number % 2, 0.01, doc(f"{name}-{number}"))
                    recorder.flush()  # a commit each, to meet the other writer often
                recorder.finish("complete", 1)
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=run, args=(name,)) for name in ("one", "two")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    with HistoryStore.open(path, write=False) as store:
        runs = store.runs()
    assert sorted((r.list, r.status, r.total) for r in runs) == [
        ("one", "complete", 200),
        ("two", "complete", 200),
    ]


def test_a_store_locked_past_the_busy_timeout_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    HistoryStore.open(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with (
            HistoryStore.open(path, busy_timeout=0.2) as store,
            pytest.raises(HistoryError) as raised,
        ):
            store.start_run("validate", "list")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert raised.value.code == "store-busy"
    assert "locked by another process" in str(raised.value)
    assert "\n" not in str(raised.value)
    with HistoryStore.open(path, write=False) as store:
        assert store.runs() == []  # nothing half-written


V1 = """
CREATE TABLE runs (id INTEGER PRIMARY KEY, command TEXT NOT NULL, list TEXT NOT NULL,
  options TEXT NOT NULL, version TEXT NOT NULL, started REAL NOT NULL, ended REAL,
  status TEXT NOT NULL CHECK (status IN ('running', 'complete', 'interrupted')),
  exit_code INTEGER, total INTEGER, passed INTEGER, categories TEXT, p50 REAL, p90 REAL,
  p99 REAL);
CREATE INDEX runs_by_list ON runs (command, list, started);
CREATE TABLE sources (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE documents (id INTEGER PRIMARY KEY, digest BLOB NOT NULL UNIQUE, body BLOB NOT NULL);
CREATE TABLE outcomes (run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  source_id INTEGER NOT NULL REFERENCES sources (id), exit_code INTEGER NOT NULL,
  seconds REAL NOT NULL, category TEXT NOT NULL, signature TEXT, problems TEXT NOT NULL,
  document_id INTEGER REFERENCES documents (id), PRIMARY KEY (run_id, source_id)) WITHOUT ROWID;
CREATE INDEX outcomes_by_source ON outcomes (source_id, run_id);
INSERT INTO runs VALUES (1, 'validate', 'list', '{}', '0.1.0', 1.0, 2.0, 'complete', 0, 1, 1,
  '{"passed": 1}', 0.1, 0.1, 0.1);
INSERT INTO sources VALUES (1, 'a.json');
INSERT INTO outcomes VALUES (1, 1, 0, 0.1, 'passed', NULL, '{}', NULL);
PRAGMA application_id = 1952998776;
PRAGMA user_version = 1;
"""


def test_a_store_of_schema_1_is_migrated_with_its_runs_kept(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as connection:
        connection.executescript(V1)
    with pytest.raises(HistoryError, match="older th-ext"):
        HistoryStore.open(path, write=False)  # reading never changes it
    assert rows(path, "PRAGMA user_version") == [(1,)]
    with HistoryStore.open(path) as store:
        (run,) = store.runs()
        recorder = store.start_run("validate", "list")
        recorder.add("a.json", 0, 0.1, doc("a.json"), etag='"v2"', last_modified="Sat, 5 Dec")
        recorder.finish("complete", 0)
        assert store.outcomes(recorder.run_id)["a.json"].etag == '"v2"'
        assert store.outcomes(run.id)["a.json"].etag is None
    assert rows(path, "PRAGMA user_version") == [(SCHEMA_VERSION,)]


def test_a_store_of_a_newer_th_ext_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    with sqlite3.connect(path) as connection:
        connection.executescript(
            f"CREATE TABLE later (x); PRAGMA application_id = {APPLICATION_ID}; "
            f"PRAGMA user_version = {SCHEMA_VERSION + 1};"
        )
    before = digest(path)
    for write in (True, False):
        with pytest.raises(HistoryError) as raised:
            HistoryStore.open(path, write=write)
        assert raised.value.code == "newer-store"
        assert f"schema {SCHEMA_VERSION + 1}" in str(raised.value)
    assert digest(path) == before
    assert not (tmp_path / "new.db-wal").exists()


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda p: p.write_text("name,verdict\na,pass\n"), id="a text file"),
        pytest.param(
            lambda p: sqlite3.connect(p).executescript("CREATE TABLE mine (x);"),
            id="another program's database",
        ),
    ],
)
def test_a_file_that_is_not_a_store_is_refused_and_left_as_it_is(tmp_path: Path, make: Any) -> None:
    path = tmp_path / "other.db"
    make(path)
    before = digest(path)
    with pytest.raises(HistoryError) as raised:
        HistoryStore.open(path)
    assert raised.value.code == "not-a-store"
    assert "not a th-ext history store" in str(raised.value)
    assert digest(path) == before
    assert not (tmp_path / "other.db-wal").exists()


def test_a_damaged_store_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    with HistoryStore.open(path) as store:
        recorder = store.start_run("validate", "list")
        for number in range(300):
            recorder.add(f"s{number}", 0, 0.1, doc(f"s{number}", 0, *["x"] * (number % 7)))
        recorder.finish("complete", 0)
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    page = 4096
    for offset in range(page, len(data), page):  # every page but the first, overwritten
        data[offset : offset + 64] = b"\xff" * 64
    path.write_bytes(bytes(data))
    with pytest.raises(HistoryError) as raised, HistoryStore.open(path, write=False) as store:
        read_changes(store)
    assert "damaged" in str(raised.value) or "malformed" in str(raised.value)
    assert "\n" not in str(raised.value)


def test_a_directory_a_missing_store_and_a_read_only_one_are_one_line(tmp_path: Path) -> None:
    with pytest.raises(HistoryError, match="is a directory"):
        HistoryStore.open(tmp_path)
    with pytest.raises(HistoryError, match="no such history store"):
        HistoryStore.open(tmp_path / "none.db", write=False)
    with pytest.raises(HistoryError, match="directory does not exist"):
        HistoryStore.open(tmp_path / "no" / "h.db")
    path = tmp_path / "h.db"
    HistoryStore.open(path).close()
    with HistoryStore.open(path, write=False) as store:
        with pytest.raises(HistoryError, match="readonly"):
            store.start_run("validate", "list")
        assert store.runs() == []


def test_source_names_are_kept_as_they_were_given(tmp_path: Path) -> None:
    name = "<script>alert(1)</script>\x1b[31m\x00 é.json"
    with HistoryStore.open(tmp_path / "h.db") as store:
        recorder = store.start_run("validate", "list")
        recorder.add(name, 0, 0.1, doc(name))
        recorder.finish("complete", 0)
        assert list(store.outcomes(recorder.run_id)) == [name]
        assert store.last_document(name) == json.loads(json.dumps(doc(name)))


def test_a_write_that_fails_mid_run_leaves_the_run_unfinished_not_complete(
    tmp_path: Path,
) -> None:
    """A store that stops taking writes during a run (locked past the timeout here; a full
    disk alike): the failing batch is one line, what was committed stays, and the run ends
    as interrupted, never complete."""
    path = tmp_path / "h.db"
    with HistoryStore.open(path, busy_timeout=0.2) as store:
        recorder = store.start_run("validate", "list")
        recorder.add("a.json", 0, 0.1, doc("a.json"))
        recorder.flush()
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        recorder.add("b.json", 0, 0.1, doc("b.json"))
        with pytest.raises(HistoryError) as raised:
            recorder.flush()
        assert "\n" not in str(raised.value)
        with HistoryStore.open(path, write=False) as reader:
            (run,) = reader.runs()
            assert run.status == "running"
        holder.execute("ROLLBACK")
        holder.close()
        recorder.finish("interrupted")
        (run,) = store.runs()
    assert (run.status, run.total) == ("interrupted", 1)
