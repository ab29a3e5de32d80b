"""``th-ext dispatch --live`` against the real demo agent: it passes, and fails the right check
against each variant broken on purpose."""

from __future__ import annotations

import json
import re
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from th_ext.demo import DemoServer, DemoVariant

from .conftest import Result

Agent = Callable[[DemoVariant], DemoServer]


def live(
    th_ext: Callable[..., Result], source: str, text: str, *extra: str
) -> tuple[int, dict[str, Any]]:
    result = th_ext("dispatch", source, text, "--live", "-f", "json", *extra)
    assert result.exit_code in (0, 1), result.stderr
    report: dict[str, Any] = result.json()["live"]
    assert report["passed"] is (result.exit_code == 0)
    return result.exit_code, report


def statuses(report: dict[str, Any]) -> dict[str, str]:
    return {check["name"]: check["status"] for check in report["checks"]}


def failed(report: dict[str, Any]) -> list[str]:
    return [check["name"] for check in report["checks"] if check["status"] == "fail"]


def new_task(th_ext: Callable[..., Result], server: DemoServer) -> str:
    code, report = live(th_ext, server.base_url, "Hello there")
    assert code == 0
    task_id: str = report["task_id"]
    return task_id


def test_a_command_on_an_existing_task_passes_every_check(
    th_ext: Callable[..., Result], demo_agent: Agent
) -> None:
    server = demo_agent(DemoVariant.CORRECT)
    task_id = new_task(th_ext, server)
    code, report = live(th_ext, server.base_url, "/model fast", "--task-id", task_id)
    assert code == 0
    assert statuses(report) == {
        "task-before": "pass",
        "answered": "pass",
        "stream-order": "pass",
        "command-reply": "pass",
        "command-metadata": "pass",
        "metadata-in-both-places": "pass",
        "reply-message": "pass",
        "reply-names-task": "pass",
        "state-unchanged": "pass",
        "no-other-update": "pass",
        "model-not-invoked": "pass",
        "task-ref": "skip",
    }
    assert {c["name"]: c["requirement"] for c in report["checks"]}["state-unchanged"] == "CMD-5"
    assert report["task_id"] == task_id
    assert report["sent"]["params"]["message"]["taskId"] == task_id


def test_the_model_chosen_by_the_command_answers_the_next_message(
    th_ext: Callable[..., Result], demo_agent: Agent
) -> None:
    server = demo_agent(DemoVariant.CORRECT)
    task_id = new_task(th_ext, server)
    assert live(th_ext, server.base_url, "/model thorough", "--task-id", task_id)[0] == 0
    code, report = live(th_ext, server.base_url, "and now?", "--task-id", task_id)
    assert code == 0
    assert "[thorough]" in json.dumps(report["received"])


def test_a_command_that_starts_a_sub_task_has_a_readable_task_ref(
    th_ext: Callable[..., Result], demo_agent: Agent
) -> None:
    server = demo_agent(DemoVariant.CORRECT)
    code, report = live(th_ext, server.base_url, "/review the tests")
    assert code == 0
    assert statuses(report)["task-ref"] == "pass"
    assert "TASK_STATE_COMPLETED" in next(
        c["detail"] for c in report["checks"] if c["name"] == "task-ref"
    )


@pytest.mark.parametrize("text", ["/help", "/model", "/models", "hello", "//model", " /model"])
def test_every_kind_of_message_passes_against_the_correct_agent(
    th_ext: Callable[..., Result], demo_agent: Agent, text: str
) -> None:
    code, report = live(th_ext, demo_agent(DemoVariant.CORRECT).base_url, text)
    assert code == 0, report["checks"]


def test_an_agent_that_does_not_stream_is_checked_through_send_message(
    th_ext: Callable[..., Result], demo_agent: Agent
) -> None:
    server = demo_agent(DemoVariant.NO_STREAMING)
    task_id = new_task(th_ext, server)
    code, report = live(th_ext, server.base_url, "/model fast", "--task-id", task_id)
    assert code == 0
    assert report["sent"]["method"] == "SendMessage"
    assert statuses(report)["state-unchanged"] == "pass"


@pytest.mark.parametrize(
    ("variant", "text", "expected"),
    [
        (DemoVariant.NO_METADATA, "/model fast", ["command-metadata"]),
        (DemoVariant.NO_METADATA, "/help", ["command-metadata"]),
        (DemoVariant.CHANGED_STATE, "/model fast", ["state-unchanged"]),
        (DemoVariant.MISSING_TASK_REF, "/review the tests", ["task-ref"]),
        (DemoVariant.WORKING_FIRST, "/help", ["no-other-update"]),
        (DemoVariant.SLASHED_COMMAND, "/help", ["command-metadata"]),
        (DemoVariant.USER_ROLE, "/help", ["reply-message"]),
    ],
)
def test_each_broken_variant_fails_exactly_its_check(
    th_ext: Callable[..., Result],
    demo_agent: Agent,
    variant: DemoVariant,
    text: str,
    expected: list[str],
) -> None:
    server = demo_agent(variant)
    task_id = new_task(th_ext, server)
    for extra in ((), ("--task-id", task_id)):
        code, report = live(th_ext, server.base_url, text, *extra)
        assert code == 1
        assert failed(report) == expected


def test_a_command_that_also_reaches_the_model_fails_on_an_existing_task(
    th_ext: Callable[..., Result], demo_agent: Agent
) -> None:
    server = demo_agent(DemoVariant.REACHES_MODEL)
    code, report = live(th_ext, server.base_url, "/help", "--task-id", new_task(th_ext, server))
    assert code == 1
    assert "model-not-invoked" in failed(report)
    assert statuses(report)["state-unchanged"] == "pass"  # the state came back: not enough


@pytest.mark.parametrize(
    ("variant", "left_out"),
    [(DemoVariant.MESSAGE_ONLY, "status update"), (DemoVariant.EVENT_ONLY, "message")],
)
def test_metadata_in_one_place_passes_and_warns_on_the_should_of_both(
    th_ext: Callable[..., Result], demo_agent: Agent, variant: DemoVariant, left_out: str
) -> None:
    server = demo_agent(variant)
    code, report = live(
        th_ext, server.base_url, "/model fast", "--task-id", new_task(th_ext, server)
    )
    assert code == 0
    assert statuses(report)["command-metadata"] == "pass"
    assert statuses(report)["metadata-in-both-places"] == "warn"
    detail = next(c["detail"] for c in report["checks"] if c["requirement"] == "CMD-19")
    assert f"the {left_out}" in detail or f"{left_out}'s" in detail


def test_a_reply_without_command_metadata_anywhere_fails_command_metadata(
    th_ext: Callable[..., Result], demo_agent: Agent
) -> None:
    server = demo_agent(DemoVariant.NO_METADATA)
    code, report = live(
        th_ext, server.base_url, "/model fast", "--task-id", new_task(th_ext, server)
    )
    assert code == 1
    # no command metadata anywhere: the one failure, whose words say a client takes the reply
    # for a model answer; where the metadata should be is not judged twice
    assert failed(report) == ["command-metadata"]
    assert statuses(report).get("metadata-in-both-places", "skip") == "skip"


def test_the_broken_check_is_named_in_the_text_output(
    th_ext: Callable[..., Result], demo_agent: Agent
) -> None:
    result = th_ext(
        "dispatch", demo_agent(DemoVariant.CHANGED_STATE).base_url, "/model fast", "--live"
    )
    assert result.exit_code == 1
    assert "FAIL  state-unchanged" in result.stdout
    assert result.stdout.rstrip().endswith("failed: state-unchanged")


@pytest.mark.parametrize(
    "variant", [DemoVariant.NO_METADATA, DemoVariant.CHANGED_STATE, DemoVariant.MISSING_TASK_REF]
)
def test_the_broken_variants_still_answer_ordinary_messages_correctly(
    th_ext: Callable[..., Result], demo_agent: Agent, variant: DemoVariant
) -> None:
    assert live(th_ext, demo_agent(variant).base_url, "hello")[0] == 0


def card_for(server: DemoServer, tmp_path: Path, **changes: Any) -> str:
    card = httpx.get(server.card_url, timeout=10).json()
    for key, value in changes.items():
        if key == "commands":
            card["capabilities"]["extensions"][0]["params"]["commands"] = value
        elif key == "url":
            card["supportedInterfaces"][0]["url"] = value
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card))
    return str(path)


def test_an_agent_that_runs_a_command_its_card_does_not_list_fails(
    th_ext: Callable[..., Result], demo_agent: Agent, tmp_path: Path
) -> None:
    server = demo_agent(DemoVariant.CORRECT)
    card = card_for(server, tmp_path, commands=[{"name": "help", "description": "List commands"}])
    code, report = live(th_ext, card, "/model fast")
    assert code == 1
    assert failed(report) == ["no-command-reply"]


def test_a_task_that_does_not_exist_fails_before_sending(
    th_ext: Callable[..., Result], demo_agent: Agent
) -> None:
    code, report = live(
        th_ext, demo_agent(DemoVariant.CORRECT).base_url, "/model", "--task-id", "no-such-task"
    )
    assert code == 1
    assert failed(report) == ["task-before"]
    assert "-32001" in report["checks"][0]["detail"]


def unreachable(th_ext: Callable[..., Result], source: str, *extra: str) -> str:
    """The error message of a live check that found no agent (exit 2, no check failed)."""
    result = th_ext("dispatch", source, "/model", "--live", "-f", "json", *extra)
    assert result.exit_code == 2, result.stdout
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "unreachable"
    message: str = error["message"]
    return message


def test_an_agent_that_is_not_running_is_unreachable(
    th_ext: Callable[..., Result], demo_agent: Agent, tmp_path: Path
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    card = card_for(demo_agent(DemoVariant.CORRECT), tmp_path, url=f"http://127.0.0.1:{port}/a2a")
    assert "cannot connect" in unreachable(th_ext, card)


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts connections and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield listener.getsockname()[1]
    stop.set()
    thread.join()
    for connection in accepted:
        connection.close()
    listener.close()


def test_an_agent_that_never_answers_is_unreachable_after_the_timeout(
    th_ext: Callable[..., Result], demo_agent: Agent, tmp_path: Path, silent_port: int
) -> None:
    card = card_for(
        demo_agent(DemoVariant.CORRECT), tmp_path, url=f"http://127.0.0.1:{silent_port}/a2a"
    )
    assert "no complete answer within 0.5 s" in unreachable(th_ext, card, "--timeout", "0.5")


def test_an_answer_over_the_byte_cap_fails_answered(
    th_ext: Callable[..., Result], demo_agent: Agent
) -> None:
    code, report = live(
        th_ext, demo_agent(DemoVariant.CORRECT).base_url, "hello " * 100, "--max-bytes", "1500"
    )
    assert code == 1
    assert failed(report) == ["answered"]
    assert "larger than the cap of 1500 bytes" in report["checks"][0]["detail"]


def _request_block(text: str) -> list[str]:
    """The ``request`` block of the text output, the message's fresh id masked."""
    lines = text.split("\nrequest    ", 1)[1].split("\n\n", 1)[0].splitlines()
    return [re.sub(r'"messageId": "[^"]*"', '"messageId": "<id>"', line) for line in lines]


def test_the_live_run_shows_the_request_the_dry_run_shows(
    th_ext: Callable[..., Result], demo_agent: Agent
) -> None:
    server = demo_agent(DemoVariant.CORRECT)
    dry = th_ext("dispatch", server.base_url, "/model fast")
    sent = th_ext("dispatch", server.base_url, "/model fast", "--live")
    assert (dry.exit_code, sent.exit_code) == (0, 0), sent.stdout
    request = _request_block(dry.stdout)
    assert request[0] == f"POST {server.base_url}/a2a"
    assert '    "method": "SendStreamingMessage",' in request
    assert '            "text": "/model fast"' in request
    assert _request_block(sent.stdout) == request
    assert "\nlive check against " in sent.stdout
