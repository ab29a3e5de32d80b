"""One source and many take one path: the same lines for a source whatever the run's size, and
resumed runs that hold each listed source once."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.acceptance.batch.test_fleet_cli import CARD, lines, th_ext, th_ext_here


@pytest.fixture
def cards(tmp_path: Path) -> Path:
    """good.json, bad.json (one problem), and a list naming them, a missing file and a line
    that cannot be a source."""
    (tmp_path / "good.json").write_bytes(CARD.read_bytes())
    broken = json.loads(CARD.read_text())
    broken["capabilities"]["extensions"][0]["params"]["commands"][0]["name"] = "Bad Name"
    (tmp_path / "bad.json").write_text(json.dumps(broken))
    (tmp_path / "list.txt").write_bytes(b"good.json\nbad.json\nmissing.json\nnul\0here\n")
    return tmp_path


def test_concise_names_a_source_that_could_not_be_read_alone_or_among_many(
    cards: Path,
) -> None:
    alone = th_ext_here("validate", "missing.json", "-f", "concise", cwd=cards)
    among = th_ext_here("validate", "good.json", "missing.json", "-f", "concise", cwd=cards)
    line = "missing.json: error unreadable missing.json: no such file"
    assert alone.stdout.splitlines()[0] == line
    assert line in among.stdout.splitlines()
    assert (alone.returncode, among.returncode) == (2, 2)


@pytest.mark.parametrize("output_format", ["text", "concise", "github"])
def test_the_lines_of_a_source_are_the_same_alone_or_among_many(
    cards: Path, output_format: str
) -> None:
    alone = th_ext_here("validate", "bad.json", "-f", output_format, cwd=cards).stdout
    among = th_ext_here("validate", "good.json", "bad.json", "-f", output_format, cwd=cards)
    shown = [line for line in alone.splitlines() if line.strip()]
    if output_format == "concise":
        shown = shown[:-1]  # the count line counts the run
    assert shown
    for line in shown:
        assert line in among.stdout.splitlines(), line


def test_quiet_leaves_out_the_ok_lines_alone_or_among_many(cards: Path) -> None:
    alone = th_ext_here("validate", "good.json", "--quiet", cwd=cards).stdout
    among = th_ext_here("validate", "good.json", "bad.json", "--quiet", cwd=cards).stdout
    loud = th_ext_here("validate", "good.json", "bad.json", cwd=cards).stdout
    for out in (alone, among):
        assert "source: ok" not in out and "document: ok" not in out
        assert "th-ext validate good.json" in out
    assert loud.count("source: ok") == 2


def test_one_source_has_no_run_summary_and_json_stays_one_object(cards: Path) -> None:
    text = th_ext_here("validate", "good.json", cwd=cards).stdout
    assert "cards:" not in text and text.rstrip().splitlines()[-1].startswith("valid")
    document = json.loads(th_ext_here("validate", "good.json", "-f", "json", cwd=cards).stdout)
    assert isinstance(document, dict) and document["source"] == "good.json"


def test_every_jsonl_line_has_its_source_and_exit_code(cards: Path) -> None:
    run = th_ext_here("validate", "--from", "list.txt", "-f", "jsonl", cwd=cards)
    found = lines(run.stdout)
    assert len(found) == 4
    for document in found:
        assert isinstance(document["source"], str) and document["exit_code"] in (0, 1, 2)


def test_a_resumed_run_holds_each_listed_source_once_bad_lines_included(cards: Path) -> None:
    first = th_ext_here("validate", "--from", "list.txt", "--resume", "run.jsonl", cwd=cards)
    assert first.returncode == 2
    for _ in range(3):
        again = th_ext("validate", "--from", "list.txt", "--resume", "run.jsonl", cwd=cards)
        assert again.returncode == 2  # the worst the file records: missing.json, the bad line
        assert again.stdout == ""
        assert again.stderr == (
            "th-ext: nothing left to check: run.jsonl holds every listed source "
            "(4 lines; exit code 2)\n"
        )
    sources = [str(d["source"]) for d in lines((cards / "run.jsonl").read_text())]
    assert sorted(sources) == ["bad.json", "good.json", "list.txt line 4", "missing.json"]


def test_a_resume_with_nothing_left_exits_with_the_worst_code_recorded(cards: Path) -> None:
    (cards / "ok.txt").write_text("good.json\n")
    th_ext_here("validate", "--from", "ok.txt", "--resume", "run.jsonl", cwd=cards)
    again = th_ext_here("validate", "--from", "ok.txt", "--resume", "run.jsonl", cwd=cards)
    assert again.returncode == 0
    assert again.stderr.count("\n") == 1 and "nothing left to check" in again.stderr


@pytest.mark.parametrize("output_format", ["text", "json", "concise"])
def test_a_resume_refuses_a_format_other_than_its_file_s(cards: Path, output_format: str) -> None:
    args = ["validate", "--from", "list.txt", "--resume", "run.jsonl"]
    refused = th_ext_here(*args, "--format", output_format, cwd=cards)
    assert refused.returncode == 2 and refused.stdout == ""
    assert re.fullmatch(
        rf"th-ext: error: --resume run\.jsonl keeps the run as JSON Lines; --format "
        rf"{output_format} cannot be used with it \(leave --format out\)\n",
        refused.stderr,
    )
    assert not (cards / "run.jsonl").exists()
    accepted = th_ext_here(*args, "--format", "jsonl", cwd=cards)
    assert accepted.returncode == 2 and len(lines((cards / "run.jsonl").read_text())) == 4


@pytest.mark.parametrize(("first", "then"), [((), ("--strict",)), (("--strict",), ())])
def test_a_resume_refuses_a_file_checked_with_the_other_strictness(
    cards: Path, first: tuple[str, ...], then: tuple[str, ...]
) -> None:
    started = th_ext_here("validate", "good.json", "--resume", "run.jsonl", *first, cwd=cards)
    assert started.returncode == 0
    kept = (cards / "run.jsonl").read_bytes()
    refused = th_ext_here(
        "validate", "good.json", "bad.json", "--resume", "run.jsonl", *then, cwd=cards
    )
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.startswith("th-ext: error: --resume run.jsonl line 1: checked with")
    assert (cards / "run.jsonl").read_bytes() == kept
    same = th_ext_here(
        "validate", "good.json", "bad.json", "--resume", "run.jsonl", *first, cwd=cards
    )
    assert same.returncode == 1
