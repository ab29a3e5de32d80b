"""``--db`` on validate and ``th-ext history`` as a user runs them: real cards on 127.0.0.1,
real processes for signals and for two runs writing one store at once."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.support.card_origins import Origin, serve_origins
from tests.support.history_fleet import CARD, broken_card
from th_ext.cli import app
from th_ext.history import SCHEMA_VERSION, HistoryStore

SCRIPT = Path(sys.executable).parent / "th-ext"
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "th_ext"]


def here(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``th-ext args`` in this process, through the whole application."""
    with contextlib.chdir(cwd):
        done = CliRunner(env={"NO_COLOR": "1"}).invoke(app, list(args), catch_exceptions=False)
    return subprocess.CompletedProcess(args, done.exit_code, done.stdout, done.stderr)


def process(*args: str, cwd: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [*COMMAND, *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "NO_COLOR": "1"},
    )


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def fleet(tmp_path: Path) -> Path:
    (tmp_path / "good.json").write_bytes(CARD)
    (tmp_path / "other.json").write_bytes(CARD)
    (tmp_path / "list.txt").write_text("good.json\nother.json\nmissing.json\n")
    return tmp_path


def test_db_records_the_run_and_leaves_the_output_as_it_was(fleet: Path) -> None:
    plain = here("validate", "--from", "list.txt", "-f", "jsonl", "--strict", cwd=fleet)
    recorded = here(
        "validate", "--from", "list.txt", "-f", "jsonl", "--strict", "--db", "h.db",
        "-H", "Authorization: Bearer secret", cwd=fleet,
    )  # fmt: skip
    assert recorded.returncode == plain.returncode == 2
    assert sorted(recorded.stdout.splitlines()) == sorted(plain.stdout.splitlines())
    with HistoryStore.open(fleet / "h.db", write=False) as store:
        (run,) = store.runs()
        outcomes = store.outcomes(run.id)
        document = store.last_document("good.json")
    assert (run.command, run.status, run.exit_code, run.total, run.passed) == (
        "validate",
        "complete",
        2,
        3,
        2,
    )
    assert run.list == f"--from {fleet / 'list.txt'}"
    assert run.options["strict"] is True and run.options["header"] == ["Authorization"]
    assert "secret" not in json.dumps(run.options)
    assert outcomes["missing.json"].category == "unreachable"
    assert outcomes["missing.json"].problems == {"unreadable": 1}
    assert document == next(
        json.loads(line) for line in plain.stdout.splitlines() if '"source":"good.json"' in line
    )


def test_one_source_is_recorded_too(fleet: Path) -> None:
    done = here("validate", "good.json", "--db", "h.db", cwd=fleet)
    assert done.returncode == 0, done.stderr
    with HistoryStore.open(fleet / "h.db", write=False) as store:
        (run,) = store.runs()
        assert list(store.outcomes(run.id)) == ["good.json"]
        assert run.list == "good.json"


def test_history_tells_what_changed_and_exits_1_on_new_failures(tmp_path: Path) -> None:
    good, bad = CARD, broken_card()
    origin = Origin(body=good)
    with serve_origins([origin]):
        url = f"{origin.url}/agent-card.json"
        (tmp_path / "list.txt").write_text(f"{url}\ngood.json\n")
        (tmp_path / "good.json").write_bytes(good)
        night = ["validate", "--from", "list.txt", "-f", "jsonl", "--db", "h.db"]
        assert here(*night, cwd=tmp_path).returncode == 0
        assert here("history", "h.db", cwd=tmp_path).returncode == 0
        origin.body = bad
        assert here(*night, cwd=tmp_path).returncode == 1
        text = here("history", "h.db", cwd=tmp_path)
        assert text.returncode == 1
        assert f"new failures (1):\n  {url}  extension-invalid (exit 1), was passed" in text.stdout
        shown = here("history", "h.db", "--format", "json", cwd=tmp_path)
        assert shown.returncode == 1
        document = json.loads(shown.stdout)
        assert [c["source"] for c in document["new_failures"]] == [url]
        assert document["new_failures"][0]["now"]["problems"]["command-name-pattern"] == 1
        narrowed = here("history", "h.db", "--source", "*.json", "--source", "good*", cwd=tmp_path)
        assert narrowed.returncode == 0  # only good.json, which did not change
        assert here(*night, cwd=tmp_path).returncode == 1
        again = here("history", "h.db", "--format", "json", cwd=tmp_path)
        assert again.returncode == 0  # still failing is not new
        assert [c["source"] for c in json.loads(again.stdout)["still_failing"]] == [url]
        future = here("history", "h.db", "--since", "2999-01-01", cwd=tmp_path)
        assert (future.returncode, future.stdout) == (
            0,
            "no complete run started at or after 2999-01-01 00:00 UTC\n",
        )
        page = here("history", "h.db", "--html", "board.html", cwd=tmp_path)
        assert page.returncode == 0 and "wrote board.html" in page.stderr
        assert "<svg" in (tmp_path / "board.html").read_text()


def test_a_db_that_cannot_be_used_ends_the_run_before_any_check(fleet: Path) -> None:
    (fleet / "dir.db").mkdir()
    (fleet / "notes.db").write_text("not a store\n")
    future = fleet / "future.db"
    with sqlite3.connect(future) as connection:
        connection.executescript(
            f"CREATE TABLE t (x); PRAGMA application_id = 1952998776; "
            f"PRAGMA user_version = {SCHEMA_VERSION + 5};"
        )
    for name, says in (
        ("dir.db", "is a directory"),
        ("notes.db", "not a th-ext history store"),
        ("future.db", "written by a newer th-ext"),
    ):
        before = digest(fleet / name) if (fleet / name).is_file() else None
        done = here("validate", "--from", "list.txt", "-f", "jsonl", "--db", name, cwd=fleet)
        assert done.returncode == 2
        assert done.stdout == ""  # nothing was checked
        assert done.stderr.count("\n") == 1 and says in done.stderr, done.stderr
        assert done.stderr.startswith(f"th-ext: error: --db {name}: ")
        if before is not None:
            assert digest(fleet / name) == before


def test_history_of_a_store_it_cannot_read_is_exit_2_in_one_line(fleet: Path) -> None:
    (fleet / "dir.db").mkdir()
    (fleet / "notes.db").write_text("not a store\n")
    (fleet / "empty.db").write_bytes(b"")
    for name in ("dir.db", "notes.db", "none.db", "empty.db"):
        done = here("history", name, cwd=fleet)
        assert done.returncode == 2
        assert done.stderr.startswith("th-ext: error: ") and done.stderr.count("\n") == 1
        assert "older th-ext" not in done.stderr
        shown = here("history", name, "--format", "json", cwd=fleet)
        assert shown.returncode == 2
        assert json.loads(shown.stdout)["exit_code"] == 2
    bad_date = here("history", "none.db", "--since", "soon", cwd=fleet)
    assert bad_date.returncode == 2 and "not a date" in bad_date.stderr
    here("validate", "good.json", "--db", "h.db", cwd=fleet)
    unwritable = here("history", "h.db", "--html", str(fleet), cwd=fleet)
    assert unwritable.returncode == 2 and "--html" in unwritable.stderr


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_records_the_run_as_interrupted_with_what_it_finished(
    tmp_path: Path, signum: int, code: int
) -> None:
    fast = Origin(body=CARD)
    slow = Origin(body=CARD, delay=30.0)
    with serve_origins([fast, slow]):
        urls = [f"{fast.url}/card{i}.json" for i in range(5)] + [f"{slow.url}/slow.json"]
        (tmp_path / "list.txt").write_text("\n".join(urls) + "\n")
        args = ["validate", "--from", "list.txt", "--db", "h.db", "-f", "jsonl", "-o", "run.jsonl"]
        running = process(*args, "--jobs", "8", cwd=tmp_path)
        deadline = time.monotonic() + 30
        out = tmp_path / "run.jsonl"
        while time.monotonic() < deadline and (
            slow.requests < 1 or not out.exists() or out.read_bytes().count(b"\n") < 5
        ):
            time.sleep(0.02)
        running.send_signal(signum)
        _, stderr = running.communicate(timeout=30)
        assert running.returncode == code, stderr
        with HistoryStore.open(tmp_path / "h.db", write=False) as store:
            (run,) = store.runs()
            assert (run.status, run.total) == ("interrupted", 5)
            assert sorted(store.outcomes(run.id)) == sorted(urls[:5])
        # what `history` compares is never an interrupted run
        assert "no complete run recorded yet" in here("history", "h.db", cwd=tmp_path).stdout
        slow.delay = 0.0
        resumed = here(
            "validate", "--from", "list.txt", "--db", "h.db", "--resume", "run.jsonl",
            cwd=tmp_path,
        )  # fmt: skip
        assert resumed.returncode == 0, resumed.stderr
        with HistoryStore.open(tmp_path / "h.db", write=False) as store:
            (run,) = store.runs()  # the same run, gone on
            assert (run.status, run.total) == ("complete", 6)


def test_two_runs_recording_into_one_store_at_once_both_land(tmp_path: Path) -> None:
    origin = Origin(body=CARD, delay=0.01)
    with serve_origins([origin]):
        for name in ("a", "b"):
            urls = [f"{origin.url}/{name}{i}.json" for i in range(40)]
            (tmp_path / f"{name}.txt").write_text("\n".join(urls) + "\n")
        runs = [
            process("validate", "--from", f"{name}.txt", "--db", "h.db", "-q", cwd=tmp_path)
            for name in ("a", "b")
        ]
        for running in runs:
            _, stderr = running.communicate(timeout=60)
            assert running.returncode == 0, stderr
    with HistoryStore.open(tmp_path / "h.db", write=False) as store:
        runs_found = store.runs()
    assert sorted((Path(r.list.split()[-1]).name, r.status, r.total) for r in runs_found) == [
        ("a.txt", "complete", 40),
        ("b.txt", "complete", 40),
    ]
