"""The dry run from a card alone: outcome, reason, request and expected reply."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from th_ext import DispatchError, MessageError
from th_ext.commands import COMMANDS_V1_URI
from th_ext.dispatch import check_message, load_message, plan_dispatch, text_message


@pytest.fixture
def card(extensions_dir: Path) -> dict[str, Any]:
    value: dict[str, Any] = json.loads(
        (extensions_dir / "commands/v1/examples/card.json").read_text()
    )
    return value


def test_a_command_on_a_streaming_card(card: dict[str, Any]) -> None:
    plan = plan_dispatch(card, text_message("/model fast", task_id="task-42"))
    assert (plan.outcome, plan.command, plan.arguments) == ("command", "model", "fast")
    assert plan.request is not None
    assert plan.request.url == "http://127.0.0.1:8000/a2a"
    assert plan.request.headers["A2A-Version"] == "1.0"
    assert plan.request.headers["A2A-Extensions"] == COMMANDS_V1_URI
    assert plan.request.body["method"] == "SendStreamingMessage"
    assert plan.request.body["params"]["message"]["taskId"] == "task-42"
    reply = plan.expected_reply["stream_response"]["statusUpdate"]
    assert reply["metadata"] == {"command": "model"}
    assert reply["taskId"] == "task-42"


def test_a_card_that_does_not_stream_gets_send_message(card: dict[str, Any]) -> None:
    card["capabilities"]["streaming"] = False
    plan = plan_dispatch(card, text_message("/help"))
    assert plan.request is not None and plan.request.body["method"] == "SendMessage"
    del card["capabilities"]["streaming"]
    plan = plan_dispatch(card, text_message("/help"))
    assert plan.request is not None and plan.request.body["method"] == "SendMessage"


def test_an_unregistered_name_is_an_ordinary_message_with_the_reason(card: dict[str, Any]) -> None:
    plan = plan_dispatch(card, text_message("/models"))
    assert (plan.outcome, plan.command, plan.arguments) == ("message", None, None)
    assert plan.reason == (
        "'models' is not registered (did you mean /model?); "
        "the registered commands are /model, /help, /review"
    )
    assert plan.expected_reply["kind"] == "model-reply"
    assert plan.expected_reply["stream_response"] is None


def test_a_card_without_the_extension_makes_every_message_ordinary(card: dict[str, Any]) -> None:
    card["capabilities"]["extensions"] = []
    plan = plan_dispatch(card, text_message("/model fast"))
    assert plan.outcome == "message"
    assert "does not declare the commands extension" in plan.reason
    assert plan.request is not None and "A2A-Extensions" not in plan.request.headers


def test_the_preferred_jsonrpc_interface_is_the_first_jsonrpc_entry(card: dict[str, Any]) -> None:
    card["supportedInterfaces"] = [
        {"url": "https://a.example/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
        {
            "url": "https://a.example/rpc",
            "protocolBinding": "JSONRPC",
            "protocolVersion": "1.0",
            "tenant": "t1",
        },
        {"url": "https://a.example/rpc2", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
    ]
    plan = plan_dispatch(card, text_message("/help"))
    assert plan.request is not None and plan.request.url == "https://a.example/rpc"
    assert plan.request.body["params"]["tenant"] == "t1"
    assert any("prefers HTTP+JSON" in note for note in plan.notes)


def test_no_jsonrpc_interface_still_decides(card: dict[str, Any]) -> None:
    card["supportedInterfaces"][0]["protocolBinding"] = "GRPC"
    plan = plan_dispatch(card, text_message("/help"))
    assert plan.outcome == "command" and plan.request is None
    assert any("no JSONRPC interface" in note for note in plan.notes)


def test_a_0_3_card_is_refused() -> None:
    card = {"name": "old", "url": "https://a.example", "capabilities": {}}
    with pytest.raises(DispatchError, match=r"0\.3 card"):
        plan_dispatch(card, text_message("/help"))


def test_malformed_params_are_noted_and_the_good_commands_used(card: dict[str, Any]) -> None:
    commands = card["capabilities"]["extensions"][0]["params"]["commands"]
    commands.append({"name": "Bad", "description": "x"})
    plan = plan_dispatch(card, text_message("/review focus"))
    assert plan.outcome == "command" and plan.arguments == "focus"
    assert plan.notes == [
        "/capabilities/extensions/0/params/commands/3: name 'Bad' does not match ^[a-z][a-z0-9-]*$"
    ]


def test_load_message_accepts_the_spec_example_and_sets_the_task(extensions_dir: Path) -> None:
    data = (extensions_dir / "commands/v1/examples/command-message.json").read_bytes()
    message = load_message(data, "command-message.json", task_id="task-42")
    assert message["parts"] == [{"text": "/model fast"}]
    with pytest.raises(MessageError, match="differs from --task-id"):
        load_message(data, "command-message.json", task_id="task-9")


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ([], "must be a JSON object"),
        ({"role": "ROLE_USER", "parts": [{"text": "x"}]}, "messageId"),
        ({"messageId": "m", "role": "user", "parts": [{"text": "x"}]}, "role must be"),
        ({"messageId": "m", "role": "ROLE_USER", "parts": []}, "at least one part"),
        ({"messageId": "m", "role": "ROLE_USER", "parts": [{}]}, "exactly one of"),
        (
            {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "a", "url": "b"}]},
            "exactly one of",
        ),
        ({"messageId": "m", "role": "ROLE_USER", "parts": [{"kind": "text", "text": "a"}]}, "0.3"),
        (
            {"kind": "message", "messageId": "m", "role": "ROLE_USER", "parts": [{"text": "a"}]},
            "0.3",
        ),
    ],
)
def test_check_message_names_what_is_wrong(value: Any, problem: str) -> None:
    with pytest.raises(MessageError, match=problem):
        check_message(value, "m.json")


def test_load_message_refuses_bad_json() -> None:
    with pytest.raises(MessageError, match="not valid JSON"):
        load_message(b"{", "m.json")


def test_the_plan_does_not_change_the_card(card: dict[str, Any]) -> None:
    before = copy.deepcopy(card)
    plan_dispatch(card, text_message("/model fast"))
    assert card == before


def test_every_public_dispatch_name_resolves() -> None:
    import th_ext.dispatch as package

    for name in package.__all__:
        assert getattr(package, name) is not None, name
    with pytest.raises(AttributeError):
        _ = package.NoSuchName  # type: ignore[attr-defined]


def test_the_expected_stream_begins_with_the_task_then_the_reply(card: dict[str, Any]) -> None:
    plan = plan_dispatch(card, text_message("/model fast", task_id="task-42"))
    stream = plan.expected_reply["stream"]
    assert [next(iter(event)) for event in stream] == ["task", "statusUpdate"]
    assert stream[0]["task"]["id"] == "task-42"
    reply = stream[1]["statusUpdate"]
    assert reply["status"]["message"]["metadata"] == reply["metadata"] == {"command": "model"}
    assert "no other status update" in plan.expected_reply["summary"]


def test_without_streaming_the_expectation_names_the_message_metadata(
    card: dict[str, Any],
) -> None:
    card["capabilities"]["streaming"] = False
    plan = plan_dispatch(card, text_message("/help"))
    assert plan.expected_reply["stream"] is None
    assert "status.message.metadata.command" in plan.expected_reply["summary"]
    assert "never by task.metadata" in plan.expected_reply["summary"]
