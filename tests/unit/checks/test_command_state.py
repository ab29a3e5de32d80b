"""What a command does to its task: its state unchanged (CMD-5) and no status update beside the
reply (CMD-14), on an existing and on a new task."""

from __future__ import annotations

from tests.unit.checks.answers import (
    COMPLETED,
    STATE,
    SUBMITTED,
    WORKING,
    done,
    reply,
    stream,
    task,
    the,
    working,
)
from th_ext.checks import command_checks


def test_a_new_task_may_rest_in_the_state_the_reply_left_it_in() -> None:
    answer = reply()
    obs = stream({"task": task(SUBMITTED)}, {"statusUpdate": answer}, after=done(answer), new=True)
    checks = command_checks(obs, "model")
    assert the(checks, "CMD-5") == ("pass", f"{STATE} in the reply, {STATE} after")
    assert the(checks, "CMD-14") == ("pass", "the reply is the only status update")


def test_a_new_task_that_moved_on_after_the_reply_fails_cmd_5() -> None:
    answer = reply()
    obs = stream({"task": task(SUBMITTED)}, {"statusUpdate": answer}, after=task(WORKING), new=True)
    assert the(command_checks(obs, "model"), "CMD-5") == (
        "fail",
        f"{STATE} in the reply, {WORKING} after",
    )


def test_an_existing_task_whose_state_the_reply_changed_fails_cmd_5() -> None:
    answer = reply(state=WORKING)
    obs = stream({"task": task()}, {"statusUpdate": answer}, after=done(answer))
    assert the(command_checks(obs, "model"), "CMD-5") == (
        "fail",
        f"{STATE} before (GetTask before), {WORKING} in the reply, {WORKING} after",
    )


def test_an_existing_task_that_moved_on_after_the_reply_fails_cmd_5() -> None:
    answer = reply()
    obs = stream({"task": task()}, {"statusUpdate": answer}, after=task(COMPLETED))
    assert the(command_checks(obs, "model"), "CMD-5") == (
        "fail",
        f"{STATE} before (GetTask before), {STATE} in the reply, {COMPLETED} after",
    )


def test_two_working_updates_beside_the_reply_are_both_named_by_cmd_14() -> None:
    answer = reply()
    obs = stream(
        {"task": task()},
        {"statusUpdate": working()},
        {"statusUpdate": answer},
        {"statusUpdate": working()},
        after=done(answer),
    )
    assert the(command_checks(obs, "model"), "CMD-14") == (
        "fail",
        f"2 other status updates: {WORKING}, {WORKING}",
    )


def test_a_task_snapshot_after_the_reply_keeps_its_state_or_fails_cmd_14() -> None:
    answer = reply()
    same = stream({"task": task()}, {"statusUpdate": answer}, {"task": done(answer)})
    assert the(command_checks(same, "model"), "CMD-14") == (
        "pass",
        "the reply is the only status update, then a Task snapshot",
    )
    moved = stream({"task": task()}, {"statusUpdate": answer}, {"task": task(COMPLETED)})
    assert the(command_checks(moved, "model"), "CMD-14") == (
        "fail",
        f"a Task snapshot after the reply is in {COMPLETED}, not the reply's {STATE}",
    )


def test_only_the_snapshots_after_the_reply_are_judged_by_cmd_14() -> None:
    answer = reply()
    obs = stream(
        {"task": task()}, {"task": task(WORKING)}, {"statusUpdate": answer}, after=done(answer)
    )
    assert the(command_checks(obs, "model"), "CMD-14") == (
        "pass",
        "the reply is the only status update",
    )


def test_without_the_state_before_an_existing_task_is_judged_as_a_new_one() -> None:
    # GetTask before the message failed: the reply may rest in any non-terminal state.
    answer = reply()
    obs = stream({"task": task()}, {"statusUpdate": answer}, after=done(answer), unread=True)
    assert the(command_checks(obs, "model"), "CMD-5") == (
        "pass",
        f"the state before is unknown, so it is judged as a new task: {STATE} in the reply,"
        f" {STATE} after",
    )
    unmarked_answer = reply(on_message=False, on_event=False)
    obs = stream(
        {"task": task()},
        {"statusUpdate": unmarked_answer},
        after=done(unmarked_answer),
        unread=True,
    )
    assert the(command_checks(obs, "model"), "CMD-2") == (
        "pass",
        "status.message of a status update",
    )


def test_a_reply_naming_another_command_is_still_judged_as_the_reply() -> None:
    answer = reply("help", state=WORKING)
    obs = stream({"task": task()}, {"statusUpdate": answer}, after=done(answer))
    checks = command_checks(obs, "model")
    assert the(checks, "CMD-3") == (
        "fail",
        "status.message.metadata.command is 'help'; the status update's metadata.command is "
        "'help', not 'model'",
    )
    assert the(checks, "CMD-5") == (
        "fail",
        f"{STATE} before (GetTask before), {WORKING} in the reply, {WORKING} after",
    )
