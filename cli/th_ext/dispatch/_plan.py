"""The dry run: the message a dispatch sends, and what it would do to an agent, from its card;
nothing is sent, and nothing heavier than the standard library imported, so that it is instant."""

from __future__ import annotations

import json
import sys
import uuid
from dataclasses import asdict, dataclass
from typing import Any, Literal

from th_ext._exceptions import DispatchError, MessageError, os_reason
from th_ext.commands._card import CardCommands, read_card_commands
from th_ext.commands._dispatch_rule import decide
from th_ext.commands._entry import EXTENSION_URI as COMMANDS_V1_URI
from th_ext.net import redact
from th_ext.sources._source import read_bounded

__all__ = [
    "DispatchPlan",
    "DispatchRequest",
    "ExtensionSummary",
    "check_message",
    "load_message",
    "plan_dispatch",
    "read_message",
    "text_message",
]

A2A_VERSION = "1.0"


@dataclass(frozen=True, slots=True)
class DispatchRequest:
    """The HTTP request that carries the message: ``POST`` of a JSON-RPC body to ``url``."""

    url: str
    headers: dict[str, str]
    body: dict[str, Any]
    method: Literal["POST"] = "POST"


@dataclass(frozen=True, slots=True)
class ExtensionSummary:
    """What the card says about the commands extension."""

    uri: str
    declared: bool
    required: bool
    commands: list[str]
    problems: list[str]


@dataclass(frozen=True, slots=True)
class DispatchPlan:
    """The outcome of one message, and the request and reply that go with it."""

    outcome: Literal["command", "message"]
    command: str | None
    arguments: str | None
    reason: str
    streaming: bool
    extension: ExtensionSummary
    request: DispatchRequest | None
    expected_reply: dict[str, Any]
    notes: list[str]

    def to_dict(self) -> dict[str, Any]:
        """The plan as JSON (``th-ext dispatch --format json``); the URL's credentials redacted."""
        request = self.request
        return {  # the message is referenced, not deep-copied: it may be nested very deep
            "outcome": self.outcome,
            "command": self.command,
            "arguments": self.arguments,
            "reason": self.reason,
            "streaming": self.streaming,
            "extension": asdict(self.extension),
            "request": None
            if request is None
            else {
                "url": redact(request.url),
                "method": request.method,
                "headers": dict(request.headers),
                "body": request.body,
            },
            "expected_reply": self.expected_reply,
            "notes": list(self.notes),
        }

    @property
    def message(self) -> dict[str, Any]:
        """The message the request carries."""
        if self.request is None:
            return {}
        message: dict[str, Any] = self.request.body["params"]["message"]
        return message


def plan_dispatch(card: Any, message: dict[str, Any]) -> DispatchPlan:
    """Decide what ``message`` does to the agent whose card is ``card`` (both A2A 1.0 JSON)."""
    if not isinstance(card, dict):
        raise DispatchError("the agent card is not a JSON object")
    if "supportedInterfaces" not in card and "url" in card:
        raise DispatchError(
            "this is an A2A 0.3 card (top-level url, no supportedInterfaces); "
            "dispatch needs an A2A 1.0 card"
        )
    extension = read_card_commands(card)
    notes = list(extension.problems)
    capabilities = card.get("capabilities")
    streaming = isinstance(capabilities, dict) and capabilities.get("streaming") is True
    outcome, command, arguments, reason = _decide(extension, message)
    interface, interface_note = _jsonrpc_interface(card)
    if interface_note:
        notes.append(interface_note)
    request = None
    if interface is not None:
        request = _request(interface, message, streaming, declared=extension.declared)
    return DispatchPlan(
        outcome=outcome,
        command=command,
        arguments=arguments,
        reason=reason,
        streaming=streaming,
        extension=ExtensionSummary(
            uri=COMMANDS_V1_URI,
            declared=extension.declared,
            required=extension.required,
            commands=extension.names,
            problems=list(extension.problems),
        ),
        request=request,
        expected_reply=_expected_reply(command, message, streaming),
        notes=notes,
    )


def _decide(
    extension: CardCommands, message: dict[str, Any]
) -> tuple[Literal["command", "message"], str | None, str | None, str]:
    if not extension.declared:
        return (
            "message",
            None,
            None,
            f"the card does not declare the commands extension ({COMMANDS_V1_URI}), "
            "so every message is ordinary",
        )
    decision = decide(message, extension.names)
    if decision.call is None:
        return "message", None, None, decision.reason
    return "command", decision.call.name, decision.call.arguments, decision.reason


def _jsonrpc_interface(card: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
    interfaces = card.get("supportedInterfaces")
    if not isinstance(interfaces, list) or not interfaces:
        return None, "the card lists no supportedInterfaces, so there is nowhere to send"
    for index, interface in enumerate(interfaces):
        if not isinstance(interface, dict) or interface.get("protocolBinding") != "JSONRPC":
            continue
        url = interface.get("url")
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            return None, f"supportedInterfaces[{index}] (JSONRPC) has no http(s) url"
        note = ""
        if index:
            note = (
                f"the card prefers {interfaces[0].get('protocolBinding')!s}; "
                f"th-ext speaks JSON-RPC, so it uses supportedInterfaces[{index}]"
            )
        return interface, note
    return None, "the card offers no JSONRPC interface, so there is nothing th-ext can send to"


def _request(
    interface: dict[str, Any], message: dict[str, Any], streaming: bool, *, declared: bool
) -> DispatchRequest:
    headers = {
        "Content-Type": "application/json",
        "Accept": "text/event-stream" if streaming else "application/json",
        "A2A-Version": A2A_VERSION,
    }
    if declared:
        headers["A2A-Extensions"] = COMMANDS_V1_URI
    params: dict[str, Any] = {"message": message}
    tenant = interface.get("tenant")
    if isinstance(tenant, str) and tenant:
        params["tenant"] = tenant
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "SendStreamingMessage" if streaming else "SendMessage",
        "params": params,
    }
    return DispatchRequest(url=interface["url"], headers=headers, body=body)


def _expected_reply(
    command: str | None, message: dict[str, Any], streaming: bool
) -> dict[str, Any]:
    if command is None:
        return {
            "kind": "model-reply",
            "summary": "an ordinary answer: the message reaches the model, and no status "
            "update carries metadata.command",
            "stream_response": None,
        }
    task_id = message.get("taskId") if isinstance(message.get("taskId"), str) else None
    context_id = message.get("contextId") if isinstance(message.get("contextId"), str) else None
    summary = (
        "a status update for the message's task: status.state is the task's current state, "
        "unchanged; status.message is the command's reply (ROLE_AGENT); metadata is "
        f'{{"command": "{command}"}}, plus "task_ref" when the command created a sub-task, on '
        "the event and on status.message.metadata alike"
    )
    if streaming:
        summary += (
            "; the stream begins with the Task (for an existing task, its current snapshot), "
            "then that status update, and nothing else: no other status update, no model answer"
        )
    else:
        summary += (
            "; the card does not stream, so SendMessage returns the task with that status: the "
            "reply is status.message, recognised by status.message.metadata.command (never by "
            "task.metadata, which keeps the metadata of earlier updates)"
        )
    task = task_id or "<the message's task>"
    context = context_id or "<the task's context>"
    reply = {
        "statusUpdate": {
            "taskId": task,
            "contextId": context,
            "status": {
                "message": {
                    "messageId": "<chosen by the agent>",
                    "role": "ROLE_AGENT",
                    "parts": [{"text": "<the command's reply>"}],
                    "metadata": {"command": command},
                },
            },
            "metadata": {"command": command},
        }
    }
    return {
        "kind": "command-reply",
        "summary": summary,
        "state": "unchanged",
        "metadata": {"command": command},
        "task_ref": "present only when the command created a sub-task; "
        "names a task GetTask can read",
        "stream_response": reply,
        "stream": [
            {"task": {"id": task, "contextId": context, "status": "<the task's current status>"}},
            reply,
        ]
        if streaming
        else None,
    }


_ROLES = ("ROLE_USER", "ROLE_AGENT")
_CONTENT = ("text", "raw", "url", "data")


def text_message(text: str, *, task_id: str | None = None) -> dict[str, Any]:
    """A user message whose only part is ``text``, for the task ``task_id`` if given."""
    message: dict[str, Any] = {
        "messageId": str(uuid.uuid4()),
        "role": "ROLE_USER",
        "parts": [{"text": text}],
    }
    if task_id:
        message["taskId"] = task_id
    return message


def read_message(path: str, max_bytes: int, *, task_id: str | None = None) -> dict[str, Any]:
    """The message in the file ``path`` (``-`` for standard input), at most ``max_bytes`` long.

    ``MessageError`` when it cannot be read, is over the cap, or is not an A2A 1.0 Message.
    """
    try:
        if path == "-":
            data = read_bounded(sys.stdin.buffer, max_bytes)
            where = "<stdin>"
        else:
            with open(path, "rb") as handle:  # noqa: PTH123 (keeps pathlib off the start-up path)
                data = read_bounded(handle, max_bytes)
            where = path
    except OSError as exc:
        raise MessageError(f"{path}: cannot be read ({os_reason(exc)})") from None
    if data is None:
        raise MessageError(f"{where}: larger than the cap of {max_bytes} bytes")
    return load_message(data, where, task_id=task_id)


def load_message(data: bytes, where: str, *, task_id: str | None = None) -> dict[str, Any]:
    """Parse ``data`` (read from ``where``) as an A2A 1.0 Message; ``MessageError`` if it is not."""
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise MessageError(f"{where}: not valid JSON ({exc})") from None
    except RecursionError:
        raise MessageError(f"{where}: nested too deep to read") from None
    return check_message(value, where, task_id=task_id)


def check_message(value: Any, where: str, *, task_id: str | None = None) -> dict[str, Any]:
    """``value`` if it can be sent as an A2A 1.0 Message, with ``taskId`` set from ``task_id``.

    It is checked only as far as sending it needs: the dispatch rule never rejects a message,
    it only calls it ordinary.
    """
    if not isinstance(value, dict):
        raise MessageError(f"{where}: a message must be a JSON object")
    if "kind" in value:
        raise MessageError(f"{where}: has 'kind', which is A2A 0.3; a 1.0 Message has none")
    message_id = value.get("messageId")
    if not isinstance(message_id, str) or not message_id:
        raise MessageError(f"{where}: messageId is missing or empty")
    if value.get("role") not in _ROLES:
        raise MessageError(
            f"{where}: role must be ROLE_USER or ROLE_AGENT, not {value.get('role')!r}"
        )
    parts = value.get("parts")
    if not isinstance(parts, list) or not parts:
        raise MessageError(f"{where}: parts must be a list with at least one part")
    for index, part in enumerate(parts):
        if not isinstance(part, dict):
            raise MessageError(f"{where}: parts[{index}] is not a JSON object")
        present = [key for key in _CONTENT if key in part]
        if len(present) != 1:
            found = ", ".join(present) or "none"
            raise MessageError(
                f"{where}: parts[{index}] needs exactly one of text, raw, url, data (found {found})"
            )
        if "kind" in part:
            raise MessageError(f"{where}: parts[{index}] has 'kind', which is A2A 0.3")
    if task_id:
        existing = value.get("taskId")
        if existing and existing != task_id:
            raise MessageError(f"{where}: taskId {existing!r} differs from --task-id {task_id!r}")
        value = {**value, "taskId": task_id}
    message: dict[str, Any] = value
    return message
