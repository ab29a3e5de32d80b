"""th-ext against the commands agent built on the official JavaScript SDK, and what that agent
serves read strictly with the official Python SDK.

The JS agent is a second implementation of the extension, written from the spec alone, so these
tests check that th-ext accepts a correct agent it did not shape, and that the spec's rules hold
on both of the agent's bindings (JSON-RPC and HTTP+JSON).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from a2a.types import AgentCard, SendMessageResponse, StreamResponse, Task
from google.protobuf.json_format import ParseDict
from typer.testing import CliRunner

from th_ext.cli import app
from th_ext.commands import COMMANDS_V1_URI

pytestmark = pytest.mark.slow

HEADERS = {"A2A-Version": "1.0", "A2A-Extensions": COMMANDS_V1_URI}
ORDINARY = ["/models", "/Model", " /model", "/model:x", "//model", "/", "what is A2A?"]


def card_url(base_url: str) -> str:
    return base_url + "/.well-known/agent-card.json"


def th_ext(*args: str) -> tuple[int, str]:
    outcome = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return outcome.exit_code, outcome.stdout


def interface_url(agent: str, binding: str) -> str:
    card = httpx.get(card_url(agent)).json()
    urls = [i["url"] for i in card["supportedInterfaces"] if i["protocolBinding"] == binding]
    assert len(urls) == 1, card["supportedInterfaces"]
    url: str = urls[0]
    return url


def message(text: str, task_id: str | None = None, *, parts: int = 1) -> dict[str, Any]:
    body: dict[str, Any] = {
        "messageId": str(uuid.uuid4()),
        "role": "ROLE_USER",
        "parts": [{"text": text}] * parts,
    }
    if task_id is not None:
        body["taskId"] = task_id
    return body


def sse_data(response: httpx.Response) -> Iterator[dict[str, Any]]:
    for line in response.iter_lines():
        if line.startswith("data:"):
            yield json.loads(line.removeprefix("data:"))


def stream(agent: str, binding: str, msg: dict[str, Any]) -> list[dict[str, Any]]:
    """``msg`` sent with SendStreamingMessage on ``binding``: each event, parsed strictly."""
    url = interface_url(agent, binding)
    if binding == "JSONRPC":
        body: dict[str, Any] = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "SendStreamingMessage",
            "params": {"message": msg},
        }
        request = httpx.stream("POST", url, json=body, headers=HEADERS, timeout=30)
    else:
        request = httpx.stream(
            "POST", url + "/message:stream", json={"message": msg}, headers=HEADERS, timeout=30
        )
    with request as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        data = list(sse_data(response))
    events = [item["result"] for item in data] if binding == "JSONRPC" else data
    for event in events:
        ParseDict(event, StreamResponse())  # strict: unknown fields and 0.3 shapes fail
    return events


def send(agent: str, msg: dict[str, Any]) -> dict[str, Any]:
    """Send ``msg`` with the blocking JSON-RPC SendMessage; the task it answers with."""
    body = {"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message": msg}}
    reply = httpx.post(interface_url(agent, "JSONRPC"), json=body, headers=HEADERS, timeout=30)
    result: dict[str, Any] = reply.json()["result"]
    ParseDict(result, SendMessageResponse())
    task: dict[str, Any] = result["task"]
    return task


def get_task(agent: str, task_id: str) -> dict[str, Any]:
    url = interface_url(agent, "HTTP+JSON") + f"/tasks/{task_id}"
    response = httpx.get(url, headers=HEADERS, timeout=30)
    assert response.status_code == 200, response.text
    task: dict[str, Any] = response.json()
    ParseDict(task, Task())
    return task


def reply_text(status: dict[str, Any]) -> str:
    text: str = status["message"]["parts"][0]["text"]
    return text


def test_its_card_is_valid_with_strict_and_parses_strictly_with_the_sdk(js_agent: str) -> None:
    code, out = th_ext("validate", js_agent, "--strict")
    assert code == 0, out
    assert "valid (0 errors, 0 warnings)" in out
    card = ParseDict(httpx.get(card_url(js_agent)).json(), AgentCard())
    assert {i.protocol_binding for i in card.supported_interfaces} == {"JSONRPC", "HTTP+JSON"}
    assert all(i.url.startswith(js_agent + "/") for i in card.supported_interfaces)
    assert card.capabilities.streaming
    [extension] = card.capabilities.extensions
    assert extension.uri == COMMANDS_V1_URI
    commands = [(c["name"], c["argument_hint"]) for c in extension.params["commands"]]
    assert commands == [("model", "[<model>]"), ("help", ""), ("review", "<focus>")]


@pytest.mark.parametrize("text", ["/model fast", "/review x", "/help", "/models", "hello"])
def test_dispatch_live_passes_every_check(js_agent: str, text: str) -> None:
    code, out = th_ext("dispatch", js_agent, text, "--live", "-f", "json")
    report = json.loads(out)
    assert code == 0, out
    commands = ("/model fast", "/review x", "/help")
    assert report["outcome"] == ("command" if text in commands else "message")
    checks = {check["name"]: check["status"] for check in report["live"]["checks"]}
    assert report["live"]["passed"] is True
    # Only the sub-task check may be skipped, and only when no sub-task was created.
    not_passed = {name for name, status in checks.items() if status != "pass"}
    assert not_passed <= ({"task-ref"} if text != "/review x" else set()), checks


@pytest.mark.parametrize("binding", ["JSONRPC", "HTTP+JSON"])
def test_a_command_on_an_existing_task_is_one_status_update_in_its_state(
    js_agent: str, binding: str
) -> None:
    first = stream(js_agent, binding, message("hello"))
    task_id = first[0]["task"]["id"]
    assert first[-1]["statusUpdate"]["status"]["state"] == "TASK_STATE_INPUT_REQUIRED"
    events = stream(js_agent, binding, message("/model   fast \t", task_id))
    assert [next(iter(event)) for event in events] == ["task", "statusUpdate"]
    snapshot, update = events[0]["task"], events[1]["statusUpdate"]
    assert snapshot["id"] == task_id
    assert snapshot["status"]["state"] == "TASK_STATE_INPUT_REQUIRED"
    assert update["taskId"] == task_id
    assert update["status"]["state"] == "TASK_STATE_INPUT_REQUIRED"
    assert update["metadata"] == {"command": "model"}
    assert update["status"]["message"]["role"] == "ROLE_AGENT"
    assert update["status"]["message"]["metadata"] == {"command": "model"}
    assert reply_text(update["status"]) == "Model for this task: fast (was: balanced)."
    # The command ran on the harness: the model it chose answers the next ordinary message.
    after = stream(js_agent, binding, message("and now?", task_id))
    assert reply_text(after[-1]["statusUpdate"]["status"]).startswith("[fast] Quick answer")


def test_review_creates_a_completed_sub_task_that_get_task_reads(js_agent: str) -> None:
    events = stream(js_agent, "JSONRPC", message("/review the tests"))
    assert [next(iter(event)) for event in events] == ["task", "statusUpdate"]
    task, update = events[0]["task"], events[1]["statusUpdate"]
    assert update["status"]["state"] == task["status"]["state"] == "TASK_STATE_SUBMITTED"
    ref = update["metadata"]["task_ref"]
    assert update["metadata"] == {"command": "review", "task_ref": ref}
    assert update["status"]["message"]["metadata"] == update["metadata"]
    sub_task = get_task(js_agent, ref)
    assert sub_task["status"]["state"] == "TASK_STATE_COMPLETED"
    assert reply_text(sub_task["status"]).startswith("Review (the tests):")
    assert get_task(js_agent, task["id"])["status"]["state"] == "TASK_STATE_SUBMITTED"


def test_a_send_message_client_finds_the_reply_on_the_status_message(js_agent: str) -> None:
    task = send(js_agent, message("hello"))
    task = send(js_agent, message("/review style", task["id"]))
    ref = task["status"]["message"]["metadata"]["task_ref"]
    assert task["status"]["message"]["metadata"] == {"command": "review", "task_ref": ref}
    # The SDK merges event metadata into task.metadata and never clears it; the status
    # message is where each reply says which command it answers.
    task = send(js_agent, message("/help", task["id"]))
    assert task["status"]["state"] == "TASK_STATE_INPUT_REQUIRED"
    assert task["status"]["message"]["metadata"] == {"command": "help"}
    assert reply_text(task["status"]).splitlines()[1:] == [
        "  /model [<model>]  Show or choose this task's model",
        "  /help  List the commands this agent offers",
        "  /review <focus>  Start a review of the conversation as a sub-task",
    ]


@pytest.mark.parametrize("text", ORDINARY)
def test_anything_else_reaches_the_model(js_agent: str, text: str) -> None:
    events = stream(js_agent, "HTTP+JSON", message(text))
    updates = [event["statusUpdate"] for event in events[1:]]
    assert "task" in events[0]
    assert all("command" not in (update.get("metadata") or {}) for update in updates)
    assert updates[-1]["status"]["state"] == "TASK_STATE_INPUT_REQUIRED"
    answer = f"[balanced] Here is a balanced answer to {json.dumps(text)}."
    assert reply_text(updates[-1]["status"]) == answer


def test_a_command_beside_a_second_part_is_ordinary(js_agent: str) -> None:
    events = stream(js_agent, "JSONRPC", message("/model fast", parts=2))
    last = events[-1]["statusUpdate"]
    assert "metadata" not in last
    assert last["status"]["state"] == "TASK_STATE_INPUT_REQUIRED"
