"""CMD-4: the task a reply's ``task_ref`` names must be readable with ``GetTask``.

The reads go to a ``TaskReader`` that answers from a table of tasks, as a binding's ``GetTask``
would: the task itself, a JSON-RPC error, or another task than the one asked for."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from th_ext.checks import Check, Observation, task_ref_check
from th_ext.commands import build_command_reply
from th_ext.net._exchange import RpcExchange

SUB_TASK = {"id": "t2", "contextId": "c", "status": {"state": "TASK_STATE_COMPLETED"}}


class Tasks:
    """``GetTask`` over a table: a missing id is the JSON-RPC error A2A names."""

    def __init__(self, tasks: dict[str, Any]) -> None:
        self.tasks = tasks
        self.asked: list[str] = []

    async def get_task(self, task_id: str) -> RpcExchange:
        self.asked.append(task_id)
        exchange = RpcExchange(method="GetTask", request={"id": task_id})
        if task_id in self.tasks:
            exchange.results.append(self.tasks[task_id])
        else:
            exchange.error = {"code": -32001, "message": "Task not found"}
        return exchange


def judge(reply: dict[str, Any], reader: Tasks) -> Check:
    exchange = RpcExchange(method="SendStreamingMessage", request={}, results=[])
    obs = Observation("JSONRPC", True, True, "/review", exchange, None, None)
    return asyncio.run(task_ref_check(reader, obs, reply))


def reply(task_ref: str | None = "t2", metadata_on: Any = "both") -> dict[str, Any]:
    return build_command_reply(
        task_id="t1",
        context_id="c",
        state="TASK_STATE_INPUT_REQUIRED",
        command="review",
        text="Started a review",
        task_ref=task_ref,
        metadata_on=metadata_on,
    )


@pytest.mark.parametrize("place", ["both", "event", "message"])
def test_a_task_ref_that_get_task_reads_passes_wherever_the_reply_puts_it(place: str) -> None:
    reader = Tasks({"t2": SUB_TASK})
    found = judge(reply(metadata_on=place), reader)
    assert (found.requirement, found.status) == ("CMD-4", "pass")
    assert found.detail == "GetTask t2: TASK_STATE_COMPLETED"
    assert reader.asked == ["t2"]
    assert (found.binding, found.mode, found.scenario) == (
        "JSONRPC",
        "stream",
        "/review, existing task",
    )


def test_no_task_ref_is_skipped_and_reads_nothing() -> None:
    reader = Tasks({"t2": SUB_TASK})
    found = judge(reply(task_ref=None), reader)
    assert (found.requirement, found.status, found.detail) == (
        "CMD-4",
        "skip",
        "the command started no sub-task (no task_ref)",
    )
    assert reader.asked == []


@pytest.mark.parametrize("value", [5, ["t2"], {"id": "t2"}])
def test_a_task_ref_that_is_not_a_string_fails_without_a_read(value: Any) -> None:
    event = reply()
    event["metadata"]["task_ref"] = value
    reader = Tasks({"t2": SUB_TASK})
    found = judge(event, reader)
    assert (found.requirement, found.status, found.detail) == (
        "CMD-4",
        "fail",
        f"task_ref {value!r} is not a task id",
    )
    assert reader.asked == []


def test_a_task_ref_get_task_cannot_read_fails_with_the_agent_s_error() -> None:
    found = judge(reply(), Tasks({}))
    assert (found.requirement, found.status, found.detail) == (
        "CMD-4",
        "fail",
        "GetTask t2: JSON-RPC error -32001: Task not found",
    )


def test_get_task_answering_with_another_task_fails() -> None:
    found = judge(reply(), Tasks({"t2": {**SUB_TASK, "id": "t3"}}))
    assert (found.status, found.detail) == ("fail", "GetTask t2: not that task")


def test_get_task_answering_with_something_not_a_task_fails() -> None:
    found = judge(reply(), Tasks({"t2": ["t2"]}))
    assert (found.status, found.detail) == ("fail", "GetTask t2: not that task")


def test_a_read_that_failed_after_the_task_came_fails() -> None:
    """The task arrived, then the exchange failed (a stream cut short, a second answer): the
    read is not trusted."""

    class Broken(Tasks):
        async def get_task(self, task_id: str) -> RpcExchange:
            exchange = await super().get_task(task_id)
            exchange.failure = "the answer was cut short"
            return exchange

    found = judge(reply(), Broken({"t2": SUB_TASK}))
    assert (found.requirement, found.status, found.detail) == (
        "CMD-4",
        "fail",
        "GetTask t2: the answer was cut short",
    )
