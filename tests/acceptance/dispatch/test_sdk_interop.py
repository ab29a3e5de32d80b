"""What th-ext prints and ships parses strictly with the official A2A SDK's own types."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from a2a.types import AgentCard, Message, SendMessageRequest, StreamResponse, TaskStatusUpdateEvent
from google.protobuf.json_format import ParseDict, ParseError

from th_ext import find
from th_ext.catalog._reader import load_example
from th_ext.commands import build_command_reply
from th_ext.demo import DemoServer, DemoVariant

from .conftest import Result

CARD = "extensions/commands/v1/examples/card.json"
TEXTS = ["/model fast", "/help", "/review the tests", "/models", "hello", " /model", "/"]


@pytest.mark.parametrize("text", TEXTS)
def test_the_printed_request_and_reply_parse_strictly(
    th_ext: Callable[..., Result], repo_root: Path, text: str
) -> None:
    result = th_ext("dispatch", str(repo_root / CARD), text, "--task-id", "task-42", "-f", "json")
    assert result.exit_code == 0, result.stderr
    plan = result.json()
    request = ParseDict(plan["request"]["body"]["params"], SendMessageRequest())
    assert request.message.parts[0].text == text
    assert request.message.task_id == "task-42"
    event = plan["expected_reply"]["stream_response"]
    if plan["outcome"] == "command":
        parsed = ParseDict(event, StreamResponse())
        assert parsed.WhichOneof("payload") == "status_update"
        assert parsed.status_update.metadata["command"] == plan["command"]
        assert parsed.status_update.task_id == "task-42"
    else:
        assert event is None


def test_a_whole_message_file_is_sent_as_given(
    th_ext: Callable[..., Result], repo_root: Path
) -> None:
    examples = repo_root / "extensions/commands/v1/examples"
    result = th_ext(
        "dispatch",
        str(examples / "card.json"),
        "--message",
        str(examples / "command-message.json"),
        "-f",
        "json",
    )
    assert result.exit_code == 0, result.stderr
    params = result.json()["request"]["body"]["params"]
    request = ParseDict(params, SendMessageRequest())
    assert request.message.message_id == "9f1c2d3e-0001-4a5b-8c7d-000000000001"
    assert request.message.context_id == "ctx-7d1e"


@pytest.mark.parametrize("task_ref", [None, "task-43"])
def test_the_reply_builder_makes_a_stream_response(task_ref: str | None) -> None:
    reply = build_command_reply(
        task_id="task-42",
        context_id="ctx-7d1e",
        state="TASK_STATE_INPUT_REQUIRED",
        command="review",
        text="Started a review.",
        task_ref=task_ref,
    )
    parsed = ParseDict({"statusUpdate": reply}, StreamResponse())
    assert parsed.status_update.status.message.role == 2  # ROLE_AGENT
    assert dict(parsed.status_update.metadata).get("task_ref") == task_ref


SDK_TYPES: dict[str, Callable[[], Any]] = {
    "message": Message,
    "status-update": TaskStatusUpdateEvent,
    "agent-card": AgentCard,
}


def example_cases() -> list[tuple[str, str]]:
    version = find("commands/v1")
    return [(e.file, e.kind) for e in version.examples if e.kind in SDK_TYPES]


@pytest.mark.parametrize(("file", "kind"), example_cases())
def test_the_shipped_examples_parse_strictly(file: str, kind: str) -> None:
    version = find("commands/v1")
    example = next(e for e in version.examples if e.file == file)
    document = load_example(version, example)
    ParseDict(document, SDK_TYPES[kind]())
    if kind == "status-update":
        parsed = ParseDict({"statusUpdate": document}, StreamResponse())
        assert "command" in parsed.status_update.metadata


def test_every_message_and_status_update_example_is_covered() -> None:
    kinds = [kind for _, kind in example_cases()]
    assert kinds.count("message") >= 2 and kinds.count("status-update") >= 2


def test_strict_parsing_rejects_0_3_shapes() -> None:
    with pytest.raises(ParseError):
        ParseDict(
            {"kind": "message", "messageId": "m", "role": "ROLE_USER", "parts": []}, Message()
        )
    with pytest.raises(ParseError):
        ParseDict({"messageId": "m", "role": "user", "parts": []}, Message())


def test_the_demo_card_parses_strictly_and_lists_the_registry(
    demo_agent: Callable[[DemoVariant], DemoServer],
) -> None:
    import httpx

    from th_ext.demo import demo_registry

    card = httpx.get(demo_agent(DemoVariant.CORRECT).card_url, timeout=10).json()
    ParseDict(card, AgentCard())
    entry = card["capabilities"]["extensions"][0]
    assert entry["params"] == demo_registry().card_params()
