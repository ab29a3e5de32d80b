"""Which answer is the command's reply (CMD-2), and a command that did not run (CMD-1, CMD-3):
every check of each answer, with the words a report shows."""

from __future__ import annotations

from tests.unit.checks.answers import (
    COMPLETED,
    STATE,
    SUBMITTED,
    WORKING,
    agent_message,
    done,
    reply,
    send,
    statuses,
    stream,
    task,
    unmarked,
    verdicts,
    working,
)
from th_ext.checks import Observation, command_checks
from th_ext.net._exchange import RpcExchange

NOT_RUN = [
    ("A2A-3.1.2", "pass", "the stream began with the Task"),
    (
        "CMD-1",
        "fail",
        "the command did not run on JSONRPC: no answer names /model in its command metadata, "
        "so a client takes it for the model's",
    ),
    ("CMD-2", "skip", "no command reply to judge: the command did not run"),
    ("CMD-3", "fail", "no answer holds command metadata in either place"),
]


def test_a_correct_reply_on_a_stream_passes_every_check_and_says_what_it_saw() -> None:
    answer = reply()
    checks = command_checks(
        stream({"task": task()}, {"statusUpdate": answer}, after=done(answer)), "model"
    )
    meta = "{'command': 'model', 'task_ref': {'taskId': 't', 'contextId': 'c'}}"
    assert verdicts(checks) == [
        ("A2A-3.1.2", "pass", "the stream began with the Task"),
        ("CMD-2", "pass", "status.message of a status update"),
        (
            "CMD-3",
            "pass",
            "status.message.metadata.command and the status update's metadata.command name 'model'",
        ),
        ("CMD-19", "pass", f"status.message.metadata {meta} and the event's {meta}"),
        ("CMD-9", "pass", "role 'ROLE_AGENT'"),
        ("CMD-11", "pass", "the reply message has taskId 't', contextId 'c'"),
        (
            "CMD-5",
            "pass",
            f"{STATE} before (GetTask before), {STATE} in the reply, {STATE} after",
        ),
        ("CMD-14", "pass", "the reply is the only status update"),
        ("CMD-1", "pass", "no model answer, no artifact"),
    ]


def test_every_check_names_the_binding_the_mode_and_the_scenario() -> None:
    checks = command_checks(
        stream({"task": task()}, {"statusUpdate": reply()}, after=task()), "model"
    )
    assert {(c.binding, c.mode, c.scenario) for c in checks} == {
        ("JSONRPC", "stream", "/model, existing task")
    }
    failed = command_checks(send({"message": agent_message()}), "model")
    assert {(c.binding, c.mode, c.scenario) for c in failed} == {
        ("HTTP+JSON", "send", "/model, existing task")
    }


def test_a_correct_reply_to_send_message_is_the_task_s_status_message() -> None:
    answered = task(status=reply()["status"])
    checks = command_checks(send({"task": answered}, after=answered), "model")
    assert verdicts(checks) == [
        ("CMD-2", "pass", "status.message of a task"),
        ("CMD-3", "pass", "status.message.metadata.command name 'model'"),
        ("CMD-19", "skip", "SendMessage shows only the message's metadata"),
        ("CMD-9", "pass", "role 'ROLE_AGENT'"),
        ("CMD-11", "pass", "the reply message has taskId 't', contextId 'c'"),
        (
            "CMD-5",
            "pass",
            f"{STATE} before (GetTask before), {STATE} in the reply, {STATE} after",
        ),
        ("CMD-1", "pass", "no model answer, no artifact"),
    ]


def test_a_failed_exchange_is_no_reply_with_its_problem() -> None:
    exchange = RpcExchange(
        method="SendStreamingMessage", request={}, error={"code": -32603, "message": "boom"}
    )
    obs = Observation("JSONRPC", True, True, "/model", exchange, task(), task())
    assert verdicts(command_checks(obs, "model")) == [
        ("CMD-2", "fail", "no reply: JSON-RPC error -32603: boom")
    ]


def test_a_failure_after_a_reply_is_still_no_reply() -> None:
    exchange = RpcExchange(
        method="SendStreamingMessage",
        request={},
        results=[{"task": task()}, {"statusUpdate": reply()}],
        failure="the stream broke off",
    )
    obs = Observation("JSONRPC", True, True, "/model", exchange, task(), task())
    assert verdicts(command_checks(obs, "model")) == [
        ("CMD-2", "fail", "no reply: the stream broke off")
    ]


def test_an_empty_answer_is_no_reply_from_an_agent_that_sent_nothing() -> None:
    assert verdicts(command_checks(stream(after=task()), "model")) == [
        ("CMD-2", "fail", "no reply: the agent sent nothing")
    ]


def test_a_message_to_send_message_is_not_a_reply() -> None:
    assert verdicts(command_checks(send({"message": agent_message()}), "model")) == [
        (
            "CMD-2",
            "fail",
            "SendMessage answered with a Message, not a task whose status.message is the reply",
        )
    ]


def test_a_task_without_a_status_message_to_send_message_is_not_a_reply() -> None:
    assert verdicts(command_checks(send({"task": task()}, after=task()), "model")) == [
        ("CMD-2", "fail", "the task SendMessage returned has no status.message")
    ]


def test_a_model_answer_after_a_working_update_is_the_command_not_running() -> None:
    obs = stream({"task": task()}, {"statusUpdate": working()}, {"statusUpdate": unmarked()})
    assert verdicts(command_checks(obs, "model")) == NOT_RUN


def test_a_command_of_any_length_is_named_cut() -> None:
    obs = stream({"task": task()}, {"statusUpdate": working()}, {"statusUpdate": unmarked()})
    [*_, (_, _, detail), _, _] = verdicts(command_checks(obs, "m" * 100_000))
    assert detail == (
        "the command did not run on JSONRPC: no answer names /" + "m" * 78 + "… in its command "
        "metadata, so a client takes it for the model's"
    )


def test_a_task_on_the_stream_holding_an_earlier_reply_does_not_count_as_the_command() -> None:
    earlier = task(status=reply()["status"], metadata={"command": "model"})
    obs = stream({"task": earlier}, {"statusUpdate": working()}, {"statusUpdate": unmarked()})
    assert verdicts(command_checks(obs, "model")) == NOT_RUN


def test_an_artifact_naming_the_command_means_it_ran_without_a_reply() -> None:
    artifact = {"artifactUpdate": {"taskId": "t", "artifact": {"metadata": {"command": "model"}}}}
    obs = stream({"task": task()}, artifact, after=task())
    assert verdicts(command_checks(obs, "model")) == [
        ("A2A-3.1.2", "pass", "the stream began with the Task"),
        (
            "CMD-2",
            "fail",
            "no status update carries a status.message; the stream held task, artifactUpdate",
        ),
    ]


def test_a_message_event_naming_another_command_is_the_command_not_running() -> None:
    other = {"message": agent_message(metadata={"command": "help"})}
    obs = stream({"task": task()}, other, after=task())
    assert statuses(command_checks(obs, "model"))["CMD-1"] == "fail"


def test_an_unmarked_reply_to_a_new_task_resting_for_input_fails_cmd_3_alone() -> None:
    answer = unmarked()
    obs = stream({"task": task(SUBMITTED)}, {"statusUpdate": answer}, after=done(answer), new=True)
    failed = [row for row in verdicts(command_checks(obs, "model")) if row[1] == "fail"]
    assert failed == [
        (
            "CMD-3",
            "fail",
            "neither the reply message's metadata nor the status update's holds command, so a "
            "client takes this answer for the model's",
        )
    ]


def test_an_unmarked_answer_that_moves_a_new_task_on_is_the_model_s() -> None:
    for state in (WORKING, COMPLETED):
        obs = stream(
            {"task": task(SUBMITTED)},
            {"statusUpdate": unmarked(state)},
            after=task(state),
            new=True,
        )
        assert verdicts(command_checks(obs, "model"))[1:] == NOT_RUN[1:], state


def test_an_unmarked_answer_beside_an_artifact_is_the_model_s() -> None:
    artifact = {"artifactUpdate": {"taskId": "t", "artifact": {"parts": [{"text": "x"}]}}}
    obs = stream({"task": task()}, {"statusUpdate": unmarked()}, artifact, after=task())
    assert verdicts(command_checks(obs, "model")) == NOT_RUN


def test_an_unmarked_answer_in_the_state_the_existing_task_had_is_judged_as_the_reply() -> None:
    obs = stream({"task": task(WORKING)}, {"statusUpdate": unmarked(WORKING)}, before=task(WORKING))
    found = statuses(command_checks(obs, "model"))
    assert (found["CMD-2"], found["CMD-3"]) == ("pass", "fail")
    moved = stream({"task": task()}, {"statusUpdate": unmarked(WORKING)}, after=task())
    assert verdicts(command_checks(moved, "model")) == NOT_RUN
