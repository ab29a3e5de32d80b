"""conform's checks on answers no correct agent sends: each fails the requirement it guards,
with its reason, and none raises on a malformed answer."""

from __future__ import annotations

from typing import Any

import pytest

from th_ext.checks import Check, Observation, command_checks, ordinary_checks
from th_ext.commands import build_command_reply
from th_ext.commands._card import CardCommand
from th_ext.conform._scenarios import command_text
from th_ext.net._exchange import RpcExchange

STATE = "TASK_STATE_INPUT_REQUIRED"


def task(state: str = STATE, **extra: Any) -> dict[str, Any]:
    return {"id": "t", "contextId": "c", "status": {"state": state}, **extra}


def reply(command: str = "model", **changes: Any) -> dict[str, Any]:
    event = build_command_reply(
        task_id="t", context_id="c", state=STATE, command="model", text="ok"
    )
    event["metadata"]["command"] = event["status"]["message"]["metadata"]["command"] = command
    event.update(changes)
    return event


def observe(results: list[Any], *, stream: bool = True, after: Any = None) -> Observation:
    exchange = RpcExchange(method="SendStreamingMessage", request={}, results=results)
    last = results[-1].get("statusUpdate") if results and isinstance(results[-1], dict) else None
    done = after if after is not None else task(status=(last or {}).get("status", {"state": STATE}))
    return Observation("JSONRPC", stream, True, "/model", exchange, task(), done)


def outcome(checks: list[Check]) -> dict[str, str]:
    return {c.requirement: c.status for c in checks}


def test_a_correct_stream_passes_every_check() -> None:
    checks = command_checks(observe([{"task": task()}, {"statusUpdate": reply()}]), "model")
    assert set(outcome(checks).values()) == {"pass"}
    assert set(outcome(checks)) == {
        "CMD-1",
        "CMD-2",
        "CMD-3",
        "CMD-5",
        "CMD-9",
        "CMD-11",
        "CMD-14",
        "CMD-19",
        "A2A-3.1.2",
    }


def test_a_working_update_before_the_reply_fails_cmd_14_only() -> None:
    working = {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}
    obs = observe([{"task": task()}, {"statusUpdate": working}, {"statusUpdate": reply()}])
    failed = [c for c in command_checks(obs, "model") if c.status == "fail"]
    assert [(c.requirement, c.detail) for c in failed] == [
        ("CMD-14", "1 other status update: TASK_STATE_WORKING")
    ]


def test_a_stream_that_does_not_begin_with_the_task_fails_the_core_rule_only() -> None:
    checks = command_checks(observe([{"statusUpdate": reply()}]), "model")
    assert [c.requirement for c in checks if c.status == "fail"] == ["A2A-3.1.2"]


def test_a_stream_that_begins_with_another_task_fails_the_core_rule() -> None:
    other = task(id="other")
    checks = command_checks(observe([{"task": other}, {"statusUpdate": reply()}]), "model")
    bad = next(c for c in checks if c.requirement == "A2A-3.1.2")
    assert (bad.status, bad.detail) == (
        "fail",
        "the stream's Task is not the task the message went to",
    )


def without(event: dict[str, Any], place: str) -> dict[str, Any]:
    if place in ("event", "both"):
        del event["metadata"]
    if place in ("message", "both"):
        del event["status"]["message"]["metadata"]
    return event


@pytest.mark.parametrize(("left_out", "kept"), [("event", "message"), ("message", "event")])
def test_metadata_in_one_place_passes_cmd_3_and_warns_on_cmd_19(left_out: str, kept: str) -> None:
    obs = observe([{"task": task()}, {"statusUpdate": without(reply(), left_out)}])
    checks = {c.requirement: c for c in command_checks(obs, "model")}
    assert checks["CMD-3"].status == "pass"
    assert checks["CMD-19"].status == "fail"
    assert f"only the {'reply message' if kept == 'message' else 'status update'}" in (
        checks["CMD-19"].detail
    )


def test_metadata_in_neither_place_fails_cmd_3_and_judges_nothing_of_cmd_19() -> None:
    # The answer has the reply's shape, so only the missing metadata fails (CMD-3); where
    # it should be is then not judged again (CMD-19).
    obs = observe([{"task": task()}, {"statusUpdate": without(reply(), "both")}])
    checks = command_checks(obs, "model")
    assert [c.requirement for c in checks if c.status == "fail"] == ["CMD-3"]
    assert outcome(checks)["CMD-19"] == "skip"


def test_different_metadata_in_the_two_places_fails_cmd_19() -> None:
    event = reply()
    event["status"]["message"]["metadata"]["task_ref"] = "t-2"
    checks = command_checks(observe([{"task": task()}, {"statusUpdate": event}]), "model")
    assert [c.requirement for c in checks if c.status == "fail"] == ["CMD-19"]


def test_a_new_task_may_be_parked_in_a_non_terminal_state() -> None:
    parked = reply()
    parked["status"]["state"] = "TASK_STATE_INPUT_REQUIRED"
    exchange = RpcExchange(method="SendStreamingMessage", request={}, results=[])
    exchange.results += [{"task": task("TASK_STATE_SUBMITTED")}, {"statusUpdate": parked}]
    obs = Observation("JSONRPC", True, False, "/model", exchange, None, task())
    assert outcome(command_checks(obs, "model"))["CMD-5"] == "pass"


def test_a_new_task_ended_by_the_command_fails_cmd_5() -> None:
    ended = reply()
    ended["status"]["state"] = "TASK_STATE_COMPLETED"
    exchange = RpcExchange(method="SendStreamingMessage", request={}, results=[])
    exchange.results += [{"task": task("TASK_STATE_SUBMITTED")}, {"statusUpdate": ended}]
    obs = Observation(
        "JSONRPC", True, False, "/model", exchange, None, task("TASK_STATE_COMPLETED")
    )
    bad = next(c for c in command_checks(obs, "model") if c.requirement == "CMD-5")
    assert (bad.status, bad.detail) == (
        "fail",
        "the reply ended it in TASK_STATE_COMPLETED, a terminal state",
    )
    # the report writes the scenario before the detail: each says "new task" once
    assert f"{bad.scenario}: {bad.detail}" == (
        "/model, new task: the reply ended it in TASK_STATE_COMPLETED, a terminal state"
    )


def test_a_task_snapshot_in_the_same_state_after_the_reply_is_allowed() -> None:
    answer = reply()
    snapshot = task(status=answer["status"])  # the snapshot repeats the reply message
    obs = observe([{"task": task()}, {"statusUpdate": answer}, {"task": snapshot}], after=snapshot)
    assert set(outcome(command_checks(obs, "model")).values()) == {"pass"}


def test_a_task_snapshot_in_another_state_after_the_reply_fails_cmd_14() -> None:
    done = task("TASK_STATE_COMPLETED")
    obs = observe([{"task": task()}, {"statusUpdate": reply()}, {"task": done}], after=task())
    bad = next(c for c in command_checks(obs, "model") if c.requirement == "CMD-14")
    assert bad.status == "fail"
    assert "TASK_STATE_COMPLETED" in bad.detail


def test_the_slash_in_metadata_command_fails_cmd_3() -> None:
    checks = command_checks(observe([{"task": task()}, {"statusUpdate": reply("/model")}]), "model")
    bad = next(c for c in checks if c.requirement == "CMD-3")
    assert (bad.status, bad.detail) == (
        "fail",
        "status.message.metadata.command is '/model'; the status update's metadata.command is "
        "'/model', not 'model'",
    )


def test_send_message_reads_the_reply_message_never_the_task_metadata() -> None:
    answer = reply()
    del answer["status"]["message"]["metadata"]
    stale = task(status=answer["status"], metadata={"command": "model"})
    obs = observe([{"task": stale}], stream=False, after=stale)
    checks = outcome(command_checks(obs, "model"))
    assert checks["CMD-2"] == "pass"  # the task's status.message is the reply, metadata or not
    assert checks["CMD-3"] == "skip"  # task.metadata is no evidence: it may be stale
    assert checks["CMD-19"] == "skip"


def test_an_ordinary_answer_on_a_task_with_stale_metadata_passes() -> None:
    answered = task(
        status={"state": STATE, "message": {"role": "ROLE_AGENT", "parts": [{"text": "hi"}]}},
        metadata={"command": "review", "task_ref": "old"},
    )
    obs = observe([{"task": answered}], stream=False, after=answered)
    assert [c.status for c in ordinary_checks(obs, "CMD-8")] == ["pass"]


def test_an_ordinary_message_answered_as_a_command_fails() -> None:
    obs = observe([{"task": task()}, {"statusUpdate": reply("models")}])
    [found] = ordinary_checks(obs, "CMD-6")
    assert found.status == "fail"
    assert "metadata.command 'models'" in found.detail


@pytest.mark.parametrize(
    "results",
    [[None], ["x"], [{"task": "x"}], [{"statusUpdate": {"status": 3}}], [{"message": {}}], []],
)
def test_malformed_answers_never_raise(results: list[Any]) -> None:
    obs = observe(results, after={"status": None})
    assert command_checks(obs, "model")
    assert ordinary_checks(obs, "CMD-8")


@pytest.mark.parametrize(
    ("hint", "text"),
    [
        ("", "/help"),
        ("[<model>]", "/model"),
        ("<focus>", "/review th-ext conform"),
        ("<a> [<b>]", "/review th-ext conform"),
    ],
)
def test_an_argument_is_sent_only_when_the_hint_requires_one(hint: str, text: str) -> None:
    name = text.split(maxsplit=1)[0][1:]
    assert command_text(CardCommand(name, "d", hint)) == text


def test_the_state_check_names_the_three_states_it_compared() -> None:
    moved = reply()
    moved["status"]["state"] = "TASK_STATE_COMPLETED"
    obs = observe([{"task": task()}, {"statusUpdate": moved}])
    bad = next(c for c in command_checks(obs, "model") if c.requirement == "CMD-5")
    assert (bad.status, bad.detail) == (
        "fail",
        "TASK_STATE_INPUT_REQUIRED before (GetTask before), TASK_STATE_COMPLETED in the reply, "
        "TASK_STATE_COMPLETED after",
    )


def test_without_a_task_after_the_state_check_fails_and_says_why() -> None:
    exchange = RpcExchange(method="SendStreamingMessage", request={}, results=[])
    exchange.results += [{"task": task()}, {"statusUpdate": reply()}]
    obs = Observation("JSONRPC", True, True, "/model", exchange, task(), None)
    bad = next(c for c in command_checks(obs, "model") if c.requirement == "CMD-5")
    assert (bad.status, bad.detail) == (
        "fail",
        "GetTask after the message failed, so the state cannot be compared",
    )


def test_an_artifact_instead_of_a_reply_fails_cmd_2_with_what_the_stream_held() -> None:
    artifact = {
        "artifactUpdate": {
            "taskId": "t",
            "artifact": {"parts": [{"text": "ok"}]},
            "metadata": {"command": "model"},
        }
    }
    checks = command_checks(observe([{"task": task()}, artifact], after=task()), "model")
    bad = next(c for c in checks if c.requirement == "CMD-2")
    assert bad.detail == (
        "no status update carries a status.message; the stream held task, artifactUpdate"
    )
    assert outcome(checks)["A2A-3.1.2"] == "pass"  # the Task came first; the reply is wrong


def test_a_message_instead_of_a_task_fails_cmd_2_on_send_message() -> None:
    obs = observe([{"message": {"role": "ROLE_AGENT", "parts": [{"text": "ok"}]}}], stream=False)
    [bad] = command_checks(obs, "model")
    assert (bad.requirement, bad.status) == ("CMD-2", "fail")
    assert "answered with a Message" in bad.detail


def unmarked(state: str = STATE) -> dict[str, Any]:
    """A status update shaped like the reply, without command metadata in either place."""
    update = {**reply(), "metadata": {}}
    update["status"] = {**update["status"], "state": state}
    del update["status"]["message"]["metadata"]
    return update


def test_a_model_answer_on_a_stream_is_the_command_not_running() -> None:
    working = {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}
    answer = [{"task": task()}, {"statusUpdate": working}, {"statusUpdate": unmarked()}]
    checks = command_checks(observe(answer), "model")
    found = {c.requirement: c for c in checks}
    assert found["CMD-1"].status == "fail"
    assert found["CMD-1"].detail.startswith("the command did not run on JSONRPC")
    assert found["CMD-2"].status == "skip"
    assert "CMD-5" not in found  # nothing judged as a reply that is not one


def test_a_reply_without_metadata_in_either_place_fails_cmd_3_alone() -> None:
    checks = command_checks(observe([{"task": task()}, {"statusUpdate": unmarked()}]), "model")
    failed = {c.requirement: c for c in checks if c.status == "fail"}
    assert list(failed) == ["CMD-3"]
    assert "a client takes this answer for the model's" in failed["CMD-3"].detail
    assert outcome(checks)["CMD-2"] == "pass"


@pytest.mark.parametrize(
    ("events", "why"),
    [
        ([{"statusUpdate": unmarked("TASK_STATE_COMPLETED")}], "the state moved"),
        ([{"statusUpdate": unmarked()}, {"statusUpdate": unmarked()}], "two updates"),
        ([{"statusUpdate": unmarked()}, {"message": {"role": "ROLE_AGENT"}}], "a Message"),
        ([{"statusUpdate": {**unmarked(), "status": {"state": STATE}}}], "no message"),
    ],
)
def test_an_unmarked_answer_of_another_shape_is_the_model_s(
    events: list[dict[str, Any]], why: str
) -> None:
    checks = command_checks(observe([{"task": task()}, *events]), "model")
    found = {c.requirement: c for c in checks}
    assert found["CMD-1"].status == "fail", why
    assert found["CMD-1"].detail.startswith("the command did not run"), why


def test_to_send_message_the_task_status_message_is_the_reply_even_without_metadata() -> None:
    answer = task(status={"state": STATE, "message": {"role": "ROLE_AGENT", "parts": []}})
    checks = command_checks(observe([{"task": answer}], stream=False, after=answer), "model")
    assert outcome(checks)["CMD-2"] == "pass"
    assert "CMD-1" not in {c.requirement for c in checks if c.status == "fail"}


def ordinary(history: list[Any] | None) -> Check:
    sent = {"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": " /model"}]}
    answer = {"statusUpdate": {"taskId": "t", "status": {"state": STATE, "message": {}}}}
    after = task() if history is None else {**task(), "history": history}
    exchange = RpcExchange(method="SendStreamingMessage", request={}, results=[answer])
    obs = Observation("JSONRPC", True, True, "x", exchange, task(), after, sent)
    [found] = ordinary_checks(obs, "CMD-8")
    return found


def test_an_ordinary_message_recorded_as_sent_passes_and_says_so() -> None:
    found = ordinary([{"messageId": "m-1", "parts": [{"text": " /model"}]}])
    assert found.status == "pass"
    assert "history holds the message as sent" in found.detail


def test_an_ordinary_message_changed_before_the_model_fails() -> None:
    found = ordinary([{"messageId": "m-1", "parts": [{"text": "/model"}]}])
    assert found.status == "fail"
    assert "history holds the message changed" in found.detail


def test_an_ordinary_check_claims_nothing_it_did_not_see() -> None:
    found = ordinary(None)
    assert found.status == "pass"
    assert "history does not show the message" in found.detail
