"""``th-ext validate --from`` as a user runs it: a real process, real origins, real signals,
a real terminal for the progress line."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.support.card_origins import Origin, serve_origins
from tests.support.terminal import run_in_terminal
from th_ext.cli import app

REPO = Path(__file__).resolve().parents[3]
CARD = REPO / "extensions" / "commands" / "v1" / "examples" / "card.json"
SCRIPT = Path(sys.executable).parent / "th-ext"
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "th_ext"]


def th_ext(
    *args: str, stdin: bytes | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``th-ext args`` in a process of its own."""
    done = subprocess.run(
        [*COMMAND, *args],
        input=stdin,
        capture_output=True,
        timeout=60,
        env={**os.environ, "NO_COLOR": "1"},
        cwd=cwd,
        check=False,
    )
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode(), done.stderr.decode()
    )


def th_ext_here(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``th-ext args`` in this process, through the whole application (no start-up to pay)."""
    with contextlib.chdir(cwd):
        done = CliRunner(env={"NO_COLOR": "1"}).invoke(app, list(args), catch_exceptions=False)
    return subprocess.CompletedProcess(args, done.exit_code, done.stdout, done.stderr)


def lines(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines()]


@pytest.fixture
def cards(tmp_path: Path) -> Path:
    """A valid card, an invalid one, and a list naming them, a missing file and a duplicate."""
    (tmp_path / "good.json").write_bytes(CARD.read_bytes())
    broken = json.loads(CARD.read_text())
    broken["capabilities"]["extensions"][0]["params"]["commands"][0]["name"] = "Bad Name"
    (tmp_path / "bad.json").write_text(json.dumps(broken))
    (tmp_path / "list.txt").write_text(
        "# the fleet\ngood.json\n\nbad.json\nmissing.json\ngood.json\n"
    )
    return tmp_path


def test_jsonl_is_one_line_per_source_each_the_json_of_one_card(cards: Path) -> None:
    run = th_ext_here("validate", "--from", "list.txt", "-f", "jsonl", cwd=cards)
    assert run.returncode == 2  # the worst: missing.json could not be read
    found = lines(run.stdout)
    assert sorted(str(d["source"]) for d in found) == ["bad.json", "good.json", "missing.json"]
    alone = json.loads(th_ext_here("validate", "good.json", "-f", "json", cwd=cards).stdout)
    assert next(d for d in found if d["source"] == "good.json") == alone
    missing = json.loads(th_ext_here("validate", "missing.json", "-f", "json", cwd=cards).stdout)
    assert next(d for d in found if d["source"] == "missing.json") == missing


def test_the_exit_code_is_the_worst_and_arguments_join_the_list(cards: Path) -> None:
    (cards / "two.txt").write_text("good.json\nbad.json\n")
    assert th_ext_here("validate", "--from", "two.txt", "-f", "jsonl", cwd=cards).returncode == 1
    (cards / "one.txt").write_text("good.json\n")
    run = th_ext_here("validate", "bad.json", "--from", "one.txt", "-f", "jsonl", cwd=cards)
    assert run.returncode == 1 and len(lines(run.stdout)) == 2


def test_the_text_summary_counts_and_names_the_failing_and_slowest(cards: Path) -> None:
    run = th_ext_here("validate", "--from", "list.txt", cwd=cards)
    assert run.returncode == 2
    assert "missing.json: no such file" in run.stderr
    summary = run.stdout[run.stdout.index("\nfailing:") :]
    # each failing source with its first problem, then the slowest, then the counts by code
    assert (
        "\n  bad.json (exit 1): [command-name-pattern] command name 'Bad Name' does not " in summary
    )
    assert "\n  missing.json (exit 2): [unreadable] missing.json: no such file\n" in summary
    assert "good.json (exit" not in summary
    assert "\nslowest:\n" in summary
    assert (
        summary.index("\nslowest:")
        < summary.index("\nproblems by code")
        < summary.index("\ncould not be read, by error code:\n  1  unreadable\n3 cards:")
    )
    assert "\n  1  command-name-pattern (error, in 1 source)\n" in summary
    assert "good.json: listed more than once, checked once" in run.stdout
    assert run.stdout.rstrip().endswith(
        "3 cards: 1 valid, 1 invalid, 1 could not be read, 1 listed more than once"
    )


def test_one_card_listed_twice_is_counted_as_one_card(cards: Path) -> None:
    run = th_ext_here("validate", "good.json", "good.json", cwd=cards)
    assert run.returncode == 0
    assert run.stdout.rstrip().endswith("1 card: 1 valid, 0 invalid, 1 listed more than once")


def test_the_list_from_standard_input(cards: Path) -> None:
    run = th_ext("validate", "--from", "-", "-f", "jsonl", stdin=b"good.json\n-\n", cwd=cards)
    found = lines(run.stdout)
    assert sorted(str(d["source"]) for d in found) == ["good.json", "standard input line 2"]
    assert run.returncode == 2


def test_bad_lines_are_reported_and_the_run_goes_on(cards: Path) -> None:
    listed = b"good.json\nnul\0here\n\xff\xfe\n" + b"x" * 100_000 + b"\n"
    (cards / "bad-list.txt").write_bytes(listed)
    run = th_ext_here("validate", "--from", "bad-list.txt", "-f", "jsonl", cwd=cards)
    found = lines(run.stdout)
    assert sorted(str(d["source"]) for d in found) == [
        "bad-list.txt line 2",
        "bad-list.txt line 3",
        "bad-list.txt line 4",
        "good.json",
    ]
    assert run.returncode == 2 and "Traceback" not in run.stderr


@pytest.mark.parametrize("jobs", ["0", "-3", "many"])
def test_jobs_out_of_range_is_one_clear_error(cards: Path, jobs: str) -> None:
    run = th_ext_here("validate", "--from", "list.txt", "--jobs", jobs, cwd=cards)
    assert run.returncode == 2
    assert "--jobs" in run.stderr and "Traceback" not in run.stderr
    assert run.stdout == ""


def test_a_missing_list_and_no_source_at_all_are_one_line_each(cards: Path) -> None:
    run = th_ext_here("validate", "--from", "nope.txt", cwd=cards)
    assert (run.returncode, run.stderr) == (2, "th-ext: error: --from nope.txt: no such file\n")
    run = th_ext_here("validate", cwd=cards)
    assert run.returncode == 2 and "give a SOURCE" in run.stderr


def test_output_goes_to_the_file(cards: Path) -> None:
    run = th_ext_here("validate", "--from", "list.txt", "-f", "jsonl", "-o", "out.jsonl", cwd=cards)
    assert run.stdout == "" and run.returncode == 2
    assert len(lines((cards / "out.jsonl").read_text())) == 3


@pytest.mark.parametrize(
    "content",
    [
        b"not json\n",
        b'{"source": "a.json"}\n',  # JSON, but not a report of th-ext
        b"[1, 2]\n",
        b"",  # placeholder: replaced by a line of another command below
    ],
)
def test_a_resume_file_that_is_not_th_ext_json_lines_is_left_alone(
    cards: Path, content: bytes
) -> None:
    if not content:
        content = b'{"source":"a","passed":true,"agent":{},"requirements":[]}\n'  # conform's
    target = cards / "other.jsonl"
    target.write_bytes(content)
    run = th_ext_here("validate", "--from", "list.txt", "--resume", "other.jsonl", cwd=cards)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "not JSON Lines written by th-ext validate" in run.stderr
    assert target.read_bytes() == content


def test_a_resume_skips_what_the_file_holds_and_appends_the_rest(cards: Path) -> None:
    (cards / "first.txt").write_text("good.json\n")
    th_ext_here("validate", "--from", "first.txt", "--resume", "run.jsonl", cwd=cards)
    run = th_ext_here("validate", "--from", "list.txt", "--resume", "run.jsonl", cwd=cards)
    found = lines((cards / "run.jsonl").read_text())
    assert found[0]["source"] == "good.json"
    assert sorted(str(d["source"]) for d in found) == ["bad.json", "good.json", "missing.json"]
    assert run.returncode == 2
    again = th_ext_here("validate", "--from", "list.txt", "--resume", "run.jsonl", cwd=cards)
    assert again.returncode == 2  # nothing left to check; the worst of the whole run
    assert len(lines((cards / "run.jsonl").read_text())) == 3


@pytest.mark.parametrize("kept", ["1 byte", "2 bytes", "half", "all but its line end"])
def test_a_report_cut_off_where_the_machine_stopped_is_removed_and_checked_again(
    cards: Path, kept: str
) -> None:
    """The machine stopped (a power cut, a full disk) while the run wrote its last line: the
    same command line goes on, without the fragment, and each source is in the file once."""
    th_ext_here("validate", "--from", "list.txt", "--resume", "run.jsonl", cwd=cards)
    whole = (cards / "run.jsonl").read_bytes()
    last = whole.rstrip(b"\n").rsplit(b"\n", 1)[-1]
    head = whole[: len(whole) - len(last) - 1]
    size = {"1 byte": 1, "2 bytes": 2, "half": len(last) // 2}.get(kept, len(last))
    fragment = last[:size]
    (cards / "run.jsonl").write_bytes(head + fragment)
    run = th_ext_here("validate", "--from", "list.txt", "--resume", "run.jsonl", cwd=cards)
    assert run.returncode == 2  # the worst of the whole run: bad.json and missing.json
    again = (cards / "run.jsonl").read_bytes()
    assert again.endswith(b"\n") and again.startswith(head)
    found = sorted(str(d["source"]) for d in lines(again.decode()))
    assert found == ["bad.json", "good.json", "missing.json"]
    if size < len(last):
        assert run.stderr == (
            "th-ext: --resume run.jsonl line 3: the start of a report the stopped run was "
            f"writing ({size} bytes) is removed; its source is checked again\n"
        )
    else:  # a whole report without its line end is kept, and ended
        assert again == whole
        assert "nothing left to check" in run.stderr


def test_a_last_line_that_is_not_the_start_of_a_report_is_still_refused(cards: Path) -> None:
    th_ext_here("validate", "--from", "list.txt", "--resume", "run.jsonl", cwd=cards)
    target = cards / "run.jsonl"
    content = target.read_bytes() + b"good.json"  # no line end, and not a report's start
    target.write_bytes(content)
    run = th_ext_here("validate", "--from", "list.txt", "--resume", "run.jsonl", cwd=cards)
    assert run.returncode == 2
    assert run.stderr == (
        "th-ext: error: --resume run.jsonl line 4: not a whole line; this is not JSON Lines "
        "written by th-ext validate (the file is left as it is)\n"
    )
    assert target.read_bytes() == content


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_stops_the_run_with_whole_lines_and_a_resume_finishes_it(
    tmp_path: Path, signum: int, code: int
) -> None:
    """Fast origins answer at once, a slow one after a long while: the signal comes while its
    requests are in flight. The lines written are whole, and a resume checks each of the
    remaining sources once."""
    card = CARD.read_bytes()
    fast = [Origin(delay=0.0, body=card) for _ in range(3)]
    slow = Origin(delay=30.0, body=card)
    with serve_origins([*fast, slow]):
        urls = [f"{o.url}/card{i}.json" for i in range(30) for o in fast]
        urls += [f"{slow.url}/slow{i}.json" for i in range(4)]
        (tmp_path / "list.txt").write_text("\n".join(urls) + "\n")
        out = tmp_path / "run.jsonl"
        process = subprocess.Popen(
            [*COMMAND, "validate", "--from", "list.txt", "--resume", "run.jsonl", "--jobs", "8"],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and (
            slow.requests < 4 or not out.exists() or out.read_bytes().count(b"\n") < 90
        ):
            time.sleep(0.02)
        assert slow.requests == 4, "the slow origin's requests were never in flight"
        started = time.monotonic()
        process.send_signal(signum)
        _, stderr = process.communicate(timeout=30)
        assert time.monotonic() - started < 10  # long before the slow origin answers
        assert process.returncode == code, stderr
        written = out.read_bytes()
        assert written.endswith(b"\n")
        first = lines(written.decode())
        assert len(first) == 90  # every fast source, none of the slow ones
        assert b"Traceback" not in stderr
        slow.delay = 0.0
        resumed = th_ext("validate", "--from", "list.txt", "--resume", "run.jsonl", cwd=tmp_path)
        assert resumed.returncode == 0, resumed.stderr
    every = [str(d["source"]) for d in lines(out.read_text())]
    assert sorted(every) == sorted(urls)  # each source exactly once


def test_the_progress_line_on_a_terminal_and_not_with_quiet_or_a_pipe(cards: Path) -> None:
    args = ["validate", "--from", "list.txt", "-f", "jsonl"]
    shown = run_in_terminal([*COMMAND, *args], cards)
    assert "3/3 checked" in shown or "4/4 checked" in shown
    assert "2 failing" in shown
    # Only what is known: no total while the list is read, no rate before a second of samples.
    assert "None" not in shown and "/s" not in shown
    assert "checked" not in run_in_terminal([*COMMAND, *args, "--quiet"], cards)
    assert "checked" not in th_ext(*args, cwd=cards).stderr


def test_each_source_s_validation_has_its_own_deadline(cards: Path) -> None:
    """A --schema pattern that backtracks for ever on one card's name ends that card's check
    at its timeout; the other cards are checked as usual."""
    schema = json.loads((REPO / "extensions" / "commands" / "v1" / "schema.json").read_text())
    schema["$defs"]["CommandSpec"]["properties"]["name"]["pattern"] = "^(a|a)*$"
    (cards / "s.json").write_text(json.dumps(schema))
    hostile = json.loads(CARD.read_text())
    hostile["capabilities"]["extensions"][0]["params"]["commands"][0]["name"] = "a" * 64 + "!"
    (cards / "hostile.json").write_text(json.dumps(hostile))
    args = ["--schema", "s.json", "--timeout", "0.5"]
    started = time.monotonic()
    run = th_ext_here("validate", "hostile.json", "good.json", *args, "-f", "jsonl", cwd=cards)
    assert time.monotonic() - started < 5
    found = {str(d["source"]): d for d in lines(run.stdout)}
    alone = json.loads(
        th_ext_here("validate", "hostile.json", *args, "-f", "json", cwd=cards).stdout
    )
    error = found["hostile.json"]["error"]
    assert isinstance(error, dict) and error["code"] == alone["error"]["code"] == "deadline"
    assert {k: v for k, v in found["hostile.json"].items() if k != "error"} == {
        k: v for k, v in alone.items() if k != "error"
    }
    # the other card is checked against the draft (whose pattern its names do not match)
    assert found["good.json"]["exit_code"] == 1 and found["good.json"]["card_read"] is True
    assert run.returncode == 2
