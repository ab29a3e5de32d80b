"""``--retries``, ``--rate`` and ``--origin-failures`` as a user runs them: a real process,
real loopback origins (silent, busy), card files behind a slow origin."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.support.card_origins import Origin, serve_origins
from th_ext.cli import app

REPO = Path(__file__).resolve().parents[3]
CARD = REPO / "extensions" / "commands" / "v1" / "examples" / "card.json"
SCRIPT = Path(sys.executable).parent / "th-ext"
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "th_ext"]


def timed_lines(*args: str, cwd: Path) -> tuple[int, list[tuple[float, dict[str, object]]], str]:
    """``th-ext args`` in a process of its own: its exit code, each JSON line of its output
    with the seconds from the start when it came, and its standard error."""
    started = time.monotonic()
    with subprocess.Popen(
        [*COMMAND, *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "NO_COLOR": "1"},
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        stderr = process.stderr
        errors: list[bytes] = []
        drain = threading.Thread(target=lambda: errors.append(stderr.read()))
        drain.start()
        got = [(time.monotonic() - started, json.loads(line)) for line in process.stdout]
        code = process.wait(60)
        drain.join()
    return code, got, errors[0].decode()


def th_ext_here(*args: str) -> tuple[int, str]:
    """``th-ext args`` in this process: its exit code and standard error."""
    done = CliRunner(env={"NO_COLOR": "1"}).invoke(app, list(args), catch_exceptions=False)
    return done.exit_code, done.stderr


def test_files_behind_a_silent_origin_go_on_and_the_origin_is_given_up(tmp_path: Path) -> None:
    silent = Origin(mode="silent")
    files = []
    for i in range(30):
        (tmp_path / f"{i}.json").write_bytes(CARD.read_bytes())
        files.append(f"{i}.json")
    with serve_origins([silent]):
        urls = [f"{silent.url}/s{i}.json" for i in range(12)]
        (tmp_path / "list.txt").write_text("\n".join(urls + files) + "\n")
        args = ["validate", "--from", "list.txt", "-f", "jsonl", "--jobs", "4", "--per-origin", "2"]
        code, got, stderr = timed_lines(
            *args, "--timeout", "4", "--origin-failures", "2", cwd=tmp_path
        )
    assert code == 2, stderr
    assert len(got) == 42
    file_lines = [at for at, line in got if line["source"] in files]
    silent_lines = [(at, line) for at, line in got if line["source"] in urls]
    assert max(file_lines) < min(at for at, _ in silent_lines)  # none waited behind the origin
    codes = [line["problems"][0]["code"] for _, line in silent_lines]  # type: ignore[index]
    tried = silent.requests
    assert tried <= 4  # two rounds of at most two, then no more requests
    # in the order they ended: one started before the count was reached may end after the
    # sources refused at once
    assert sorted(codes) == ["origin-failed"] * (12 - tried) + ["timeout"] * tried
    refused = [line for _, line in silent_lines if "failed" in str(line)]
    said = refused[0]["problems"][0]["message"]  # type: ignore[index]
    assert f"{silent.url} failed" in said and "no complete answer within 4 s" in said
    assert got[-1][0] < 2 * 4 + 6  # two timeouts, and start-up on a loaded machine


def test_each_retry_is_in_the_sources_line(tmp_path: Path) -> None:
    busy = Origin(body=CARD.read_bytes(), busy=2)
    with serve_origins([busy]):
        url = f"{busy.url}/card.json"
        code, got, stderr = timed_lines(
            "validate", url, "-f", "jsonl", "--retries", "3", cwd=tmp_path
        )
    assert code == 0, stderr
    retries = got[0][1]["retries"]
    assert isinstance(retries, list) and len(retries) == 2
    assert retries[0]["url"] == url and retries[0]["reason"] == f"{url}: HTTP 503 Busy"


@pytest.mark.parametrize(
    ("retry_after", "ends"),
    [
        ("31536000", "HTTP 503 Busy (its Retry-After (31536000 s) ends after the timeout)"),
        ("", "HTTP 503 Busy (no time to retry, after "),
        ("soon", "HTTP 503 Busy (no time to retry, after "),
    ],
    ids=["a-year", "none", "garbage"],
)
def test_an_origin_answering_503_for_ever_is_one_line_within_the_timeout(
    retry_after: str, ends: str
) -> None:
    busy = Origin(body=CARD.read_bytes(), busy=10**9, retry_after=retry_after)
    with serve_origins([busy]):
        url = f"{busy.url}/card.json"
        started = time.monotonic()
        code, stderr = th_ext_here("validate", url, "--retries", "10", "--timeout", "2")
        took = time.monotonic() - started
    assert code == 2
    assert stderr.startswith(f"th-ext: error: {url}: {ends}") and stderr.count("\n") == 1
    assert took < 2.5
    assert (busy.requests == 1) == bool(retry_after.isdigit())


@pytest.mark.parametrize("command", ["validate", "conform"])
@pytest.mark.parametrize(
    ("option", "said"),
    [
        (["--retries", "-1"], "--retries must be a whole number from 0 to 10, not -1"),
        (["--retries", "11"], "--retries must be a whole number from 0 to 10, not 11"),
        (["--rate", "0"], "--rate must be a number of requests a second, more than 0 and at "),
        (["--rate", "nan"], "most 10000, not nan"),
        (["--rate", "-2.5"], "not -2.5"),
        (["--origin-failures", "-1"], "--origin-failures must be a whole number from 0 to "),
    ],
)
def test_a_value_out_of_range_is_one_line(
    tmp_path: Path, command: str, option: list[str], said: str
) -> None:
    with contextlib.chdir(tmp_path):
        code, stderr = th_ext_here(command, str(CARD), *option)
    assert code == 2
    assert stderr.startswith("th-ext: error: ") and said in stderr
    assert stderr.count("\n") == 1
