"""Conform's work and memory are bounded whatever the agent sends: an answer of 1.7 million
empty objects is refused unread (the run stays far below a gigabyte), every array an answer
holds is kept to its first items, and a card of many commands is exercised up to
``--max-commands`` with a note naming the others. The agent is a raw server on 127.0.0.1."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.acceptance.hostile.conftest import card_for
from tests.support.raw_http import RawScript
from th_ext.dispatch._answer import (
    MAX_CONTAINERS,
    MAX_ITEMS,
    AnswerTooComplexError,
    load_answer,
    read_answer,
)

BLOAT = (5 * 1024 * 1024 - 400) // 3  # empty objects under the default byte cap
MEMORY_LIMIT = 768 * 1024 * 1024  # the run used 1.15 GB before; far less is needed now


def _agent(bloat: str) -> RawScript:
    task = (
        '{"id": "t1", "contextId": "c1", "status": {"state": "TASK_STATE_COMPLETED"},'
        ' "metadata": {"bloat": [' + bloat + "]}}"
    )

    def answer(request: bytes) -> bytes:
        body = json.loads(request.partition(b"\r\n\r\n")[2] or b"{}")
        rpc_id = json.dumps(body.get("id"))
        result = task if body.get("method") == "GetTask" else '{"task": ' + task + "}"
        payload = ('{"jsonrpc": "2.0", "id": ' + rpc_id + ', "result": ' + result + "}").encode()
        head = (
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(payload)}\r\nConnection: close\r\n\r\n"
        )
        return head.encode() + payload

    return answer


def _card(base: str, commands: int) -> dict[str, Any]:
    card = card_for(base + "/rpc")
    card["capabilities"]["streaming"] = False
    entries = [{"name": f"c{i}", "description": "d"} for i in range(commands)]
    card["capabilities"]["extensions"][0]["params"]["commands"] = entries
    return card


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def _conform(card_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "th_ext", "conform", str(card_path), "--timeout", "30"]
    return subprocess.run(
        [*command, *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "NO_COLOR": "1"},
        preexec_fn=_limited,
    )


def test_an_answer_of_a_million_empty_objects_is_refused_unread(
    raw_server: Callable[[RawScript], str], tmp_path: Path
) -> None:
    base = raw_server(_agent(",".join(["{}"] * BLOAT)))
    path = tmp_path / "card.json"
    path.write_text(json.dumps(_card(base, 2)), encoding="utf-8")
    done = _conform(path, "--format", "json")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert "JSON objects and arrays" in json.dumps(report), "the reason is in the report"
    assert "MemoryError" not in done.stderr


def test_many_commands_are_cut_at_max_commands_with_a_note(
    raw_server: Callable[[RawScript], str], tmp_path: Path
) -> None:
    base = raw_server(_agent("{}"))
    path = tmp_path / "card.json"
    path.write_text(json.dumps(_card(base, 60)), encoding="utf-8")
    done = _conform(path, "--format", "json")
    report = json.loads(done.stdout)
    notes = [n for n in report["notes"] if "--max-commands 50" in n]
    assert notes == [
        "10 commands over --max-commands 50 were not exercised: "
        + ", ".join(f"/c{i}" for i in range(50, 60))
    ]
    raised = _conform(path, "--format", "json", "--max-commands", "60")
    assert not [n for n in json.loads(raised.stdout)["notes"] if "--max-commands" in n]


def test_the_option_is_bounded(tmp_path: Path) -> None:
    path = tmp_path / "card.json"
    path.write_text(json.dumps(_card("http://127.0.0.1:9", 1)), encoding="utf-8")
    done = _conform(path, "--max-commands", "0")
    assert done.returncode == 2
    assert "--max-commands" in done.stderr


def test_an_answer_is_kept_to_what_a_verdict_needs() -> None:
    wide = {"list": list(range(5000)), "object": {f"k{i}": i for i in range(5000)}}
    kept = load_answer(json.dumps({"result": wide, "id": 1}).encode())
    assert kept["result"]["list"] == list(range(MAX_ITEMS))
    assert list(kept["result"]["object"]) == [f"k{i}" for i in range(MAX_ITEMS)]
    assert kept["id"] == 1


@pytest.mark.parametrize("item", [b"{}", b"[]", b'{"a":[]}'])
def test_past_the_container_limit_nothing_is_parsed(item: bytes) -> None:
    data = b"[" + b",".join([item] * (MAX_CONTAINERS + 1)) + b"]"
    with pytest.raises(AnswerTooComplexError, match="JSON objects and arrays"):
        load_answer(data)


@pytest.mark.parametrize(
    ("data", "failure"),
    [
        (b"[" * (MAX_CONTAINERS + 1), "more than 100,000 JSON objects and arrays"),
        (b"[" * 50_000 + b"]" * 50_000, "nested too deep to read"),
        (b'{"a": tru', "not valid JSON"),
        (b'{"a": "\xff"}', "not valid JSON"),
        (b'{"a": ' + b"9" * 5000 + b"}", "a number too long to read"),
    ],
)
def test_an_unreadable_answer_has_one_reason_in_every_report(data: bytes, failure: str) -> None:
    """conform and dispatch --live say the same words: both take them from read_answer."""
    value, said = read_answer(data)
    assert value is None and said is not None and failure in said


def test_a_readable_answer_has_no_failure() -> None:
    assert read_answer(b'{"id": 1}') == ({"id": 1}, None)


def _get_task_answers(get_task: str) -> RawScript:
    """An agent whose SendMessage creates task t1 and whose GetTask answers ``get_task``."""
    task = '{"id": "t1", "contextId": "c1", "status": {"state": "TASK_STATE_WORKING"}}'

    def answer(request: bytes) -> bytes:
        body = json.loads(request.partition(b"\r\n\r\n")[2] or b"{}")
        result = get_task if body.get("method") == "GetTask" else '{"task": ' + task + "}"
        payload = f'{{"jsonrpc": "2.0", "id": {json.dumps(body.get("id"))}, "result": {result}}}'
        head = (
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(payload)}\r\nConnection: close\r\n\r\n"
        )
        return head.encode() + payload.encode()

    return answer


@pytest.mark.parametrize(
    "get_task",
    [
        '{"task": {"id": "t1", "contextId": "c1"}}',  # the task wrapped, as SendMessage wraps it
        '{"contextId": "c1", "status": {"state": "TASK_STATE_WORKING"}}',
        '{"id": 7, "contextId": "c1"}',
        '{"id": ""}',
    ],
    ids=["wrapped", "no id", "id a number", "id empty"],
)
def test_a_get_task_answer_without_a_task_id_is_a_note_not_an_internal_error(
    raw_server: Callable[[RawScript], str], tmp_path: Path, get_task: str
) -> None:
    base = raw_server(_get_task_answers(get_task))
    path = tmp_path / "card.json"
    path.write_text(json.dumps(_card(base, 1)), encoding="utf-8")
    done = _conform(path, "--format", "json")
    assert "internal error" not in done.stderr, done.stderr
    assert done.returncode in (0, 1), done.stderr
    notes = json.loads(done.stdout)["notes"]
    assert any("GetTask: the answer is not a task (it has no id)" in note for note in notes)
