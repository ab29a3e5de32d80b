"""The live check's own verdicts, status and words: what ``dispatch --live`` prints about the
task read before and the answer received. (The extension's checks are ``th_ext.conform``'s,
tested in ``tests/unit/conform``.)

The status decides the exit code, so each case asserts it beside the exact detail text.
"""

from __future__ import annotations

from typing import Any

import pytest

from th_ext.checks import _observe as observe
from th_ext.dispatch import _verdict as verdict


def message(role: str = "ROLE_AGENT", *texts: str, parts: Any = None) -> dict[str, Any]:
    return {
        "messageId": "m",
        "role": role,
        "parts": parts if parts is not None else [{"text": t} for t in texts or ("ok",)],
    }


def update(
    state: str = "TASK_STATE_INPUT_REQUIRED", reply: Any = None, **extra: Any
) -> dict[str, Any]:
    event: dict[str, Any] = {
        "taskId": "t",
        "contextId": "c",
        "status": {"state": state, "message": reply if reply is not None else message()},
    }
    event.update(extra)
    return event


def task(state: str, **extra: Any) -> dict[str, Any]:
    return {"id": "t", "contextId": "c", "status": {"state": state}, **extra}


def seen(found: verdict.LiveCheck) -> tuple[str, str, str]:
    return found.name, found.status, found.detail


@pytest.mark.parametrize(("ok", "status"), [(True, "pass"), (False, "fail"), (None, "skip")])
def test_check_maps_the_answer_to_a_status(ok: bool | None, status: str) -> None:
    assert seen(verdict.check("x", ok, "why")) == ("x", status, "why")


def test_answered_counts_and_quotes_the_last_message() -> None:
    results: list[Any] = [
        {"task": task("TASK_STATE_WORKING")},
        {"statusUpdate": update(reply=message("ROLE_AGENT", "first"))},
        {"statusUpdate": update(reply=message("ROLE_AGENT", "last", "words"))},
    ]
    assert seen(verdict.answered(results)) == (
        "answered",
        "pass",
        "3 results, 2 status updates; last message: 'last words'",
    )
    assert seen(verdict.answered([])) == ("answered", "pass", "0 results, 0 status updates")


def test_the_last_message_prefers_a_direct_message_and_skips_parts_without_text() -> None:
    direct = {"message": message(parts=[{"data": {}}, {"text": "hi"}, {"text": 5}])}
    assert verdict.answered([direct]).detail.endswith("last message: 'hi'")
    in_task = {"task": {**task("TASK_STATE_COMPLETED"), "status": {"message": message("R", "t")}}}
    assert verdict.answered([in_task, {"statusUpdate": "x"}]).detail.endswith("last message: 't'")
    no_text = {"statusUpdate": update(reply=message(parts=[{"url": "u"}]))}
    assert verdict.answered([in_task, no_text]).detail.endswith("last message: 't'")
    assert "last message" not in verdict.answered([no_text, None]).detail


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("a  b\n c", "a b c"),
        ("x" * 100, "x" * 100),
        ("x" * 101, "x" * 99 + "…"),
    ],
)
def test_long_messages_are_clipped_to_one_line(text: str, shown: str) -> None:
    results = [{"statusUpdate": update(reply=message("ROLE_AGENT", text))}]
    assert verdict.answered(results).detail.endswith(f"last message: {shown!r}")


WAITING = "TASK_STATE_INPUT_REQUIRED"


@pytest.mark.parametrize(
    ("results", "found"),
    [
        ([{"task": {"id": "t1"}}], "t1"),
        ([{"statusUpdate": {"taskId": "t2"}}], "t2"),
        ([{"artifactUpdate": {"taskId": "t3"}}], "t3"),
        ([{"message": {"taskId": "t4"}}], "t4"),
        ([None, {"task": {"id": ""}}, {"message": {"taskId": 5}}, {"task": {"id": "t5"}}], "t5"),
        ([{"message": {"taskId": "first"}}, {"task": {"id": "second"}}], "first"),
        ([{"task": {"taskId": "wrong-field"}}], None),
        ([], None),
    ],
)
def test_task_id_of(results: list[Any], found: str | None) -> None:
    assert verdict.task_id_of(results) == found


def test_metadata_and_state_read_only_what_has_the_right_type() -> None:
    assert observe.metadata({"metadata": {"a": 1}}) == {"a": 1}
    assert observe.metadata({"metadata": [1]}) == {}
    assert observe.metadata("x") == {}
    assert observe.state({"status": {"state": "S"}}) == "S"
    assert observe.state({"status": {"state": 1}}) is None
    assert observe.state({"status": []}) is None
    assert observe.state("TASK_STATE_COMPLETED") is None  # an event that is not an object
    assert observe.state(None) is None


def test_the_last_message_looks_past_results_that_are_not_objects() -> None:
    results: list[Any] = [{"statusUpdate": update(reply=message("ROLE_AGENT", "said"))}, None, 3]
    assert verdict.answered(results).detail == ("3 results, 1 status update; last message: 'said'")
