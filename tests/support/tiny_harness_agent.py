"""An agent shaped like tiny-harness 0.9, the extensions' owner, on the official Python SDK.

Built from the documented facts of how tiny-harness behaves (not from its code), so that the
checks are held to the owner's real agent: its card (the task, channel, status, commands and,
with media, media extensions, all ``required: false``, plus A2UI; a JSON-RPC and an HTTP+JSON
interface on one URL with a trailing slash; no ``skills`` member; ``/attach`` with
``"runsOn": "surface"`` when media is on), and its answers: the command metadata on the reply
message only (``metadata_on`` moves it), a task whose first message is a command parked as
``TASK_STATE_INPUT_REQUIRED`` (sub-state ``awaiting-next-message``), a Task snapshot after a
command that changed the task, reply ids ``<task id>:command:<n>``, and the SDK's default
handler, which does not begin an existing task's stream with the Task.

``start_tiny_harness_agent()`` runs it on 127.0.0.1 and yields its base URL.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from typing import Any

from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes, create_rest_routes
from a2a.server.tasks import InMemoryTaskStore
from a2a.types import AgentCard, Task, TaskStatusUpdateEvent
from google.protobuf import json_format
from starlette.applications import Starlette

from tests.support.asgi_server import serve_app
from th_ext.commands import MetadataPlace, parse_command

__all__ = [
    "A2UI_URI",
    "EXTENSION_BASE",
    "STATUS_KEY",
    "TASK_KEY",
    "build_tiny_harness_app",
    "start_tiny_harness_agent",
    "tiny_harness_card",
]

EXTENSION_BASE = "https://madarauchiha-314.github.io/tiny-harness/a2a/ext/"
A2UI_URI = "https://a2ui.org/a2a-extension/a2ui/v0.9.1"
TASK_KEY = "io.github.madarauchiha-314.tiny-harness/task"
"""Where a task's ``TaskExtensionData`` lives in ``Task.metadata``."""
STATUS_KEY = "io.github.madarauchiha-314.tiny-harness/status"
"""Where the status extension's sub-state lives, on the task and on a status update."""
CARD_PATH = "/.well-known/agent-card.json"

_COMMANDS = (
    {
        "name": "model",
        "description": "Show or choose this task's model",
        "argument_hint": "[<model>]",
    },
    {
        "name": "effort",
        "description": "Show or choose how hard the model thinks",
        "argument_hint": "[low|medium|high]",
    },
    {
        "name": "sub-task",
        "description": "Start a sub-task of this task",
        "argument_hint": "<description>",
    },
    {"name": "status", "description": "Show this task's state, plan and sub-tasks"},
)
_ATTACH = {
    "name": "attach",
    "description": "Attach a file from your machine to the next message",
    "argument_hint": "<path>",
    "runsOn": "surface",
}
_MEDIA_PARAMS = {
    "input": ["text/plain", "image/png", "image/jpeg", "audio/wav"],
    "output": ["text/plain", "image/png"],
    "maxFileBytes": 10_485_760,
    "maxMessageBytes": 20_971_520,
    "maxAudioSeconds": 120,
    "speechToText": True,
    "textToSpeech": False,
    "imageGeneration": True,
    "mediaPath": "/media",
}


def tiny_harness_card(
    base_url: str, *, media: bool = True, commands_version: str = "v1"
) -> dict[str, Any]:
    """The card tiny-harness 0.9 serves, as the SDK writes it (empty lists left out).

    ``commands_version`` is the commands extension version it declares (tiny-harness 0.9:
    ``v1``; ``v2``, the draft that allows ``runsOn``, is the way out).
    """
    url = base_url.rstrip("/") + "/"
    commands = [dict(c) for c in _COMMANDS] + ([dict(_ATTACH)] if media else [])
    extensions: list[dict[str, Any]] = [
        {"uri": EXTENSION_BASE + "task/v1", "description": "Task name, goal, plan, sub-tasks"},
        {"uri": EXTENSION_BASE + "channel/v1", "description": "Channel messages and help"},
        {"uri": EXTENSION_BASE + "status/v1", "description": "Why a task waits for input"},
        {
            "uri": EXTENSION_BASE + f"commands/{commands_version}",
            "description": "Slash commands run on the harness",
            "params": {"commands": commands},
        },
    ]
    if media:
        extensions.append(
            {
                "uri": EXTENSION_BASE + "media/v1",
                "description": "Files, images and audio",
                "params": dict(_MEDIA_PARAMS),
            }
        )
    extensions.append(
        {
            "uri": A2UI_URI,
            "description": "Agent-driven user interfaces",
            "params": {
                "supportedCatalogIds": ["https://a2ui.org/specification/v0_9/basic_catalog.json"],
                "acceptsInlineCatalogs": False,
            },
        }
    )
    return {
        "name": "tiny-harness",
        "description": "A harness for long-running agent tasks.",
        "version": "0.9.0",
        "supportedInterfaces": [
            {"url": url, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": url, "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
        ],
        "capabilities": {"streaming": True, "pushNotifications": True, "extensions": extensions},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
    }


class TinyHarnessExecutor(AgentExecutor):
    """Commands run on the harness; anything else goes to a stand-in model."""

    def __init__(self, store: InMemoryTaskStore, metadata_on: MetadataPlace) -> None:
        self._store = store
        self._metadata_on = metadata_on
        self._replies: dict[str, int] = {}
        self._settings: dict[str, dict[str, str]] = {}
        self._names = [c["name"] for c in _COMMANDS]

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        message = json_format.MessageToDict(context.message) if context.message else {}
        task = context.current_task
        created = task is None
        if task is None:
            task = _proto_task(
                str(context.task_id), str(context.context_id), "TASK_STATE_SUBMITTED"
            )
            task.metadata.update({TASK_KEY: {"name": "conversation", "sub_tasks": []}})
            await event_queue.enqueue_event(task)
        task_json = json_format.MessageToDict(task)
        call = parse_command(message, self._names)
        if call is None:
            await self._answer(task_json, event_queue)
            return
        state = "TASK_STATE_INPUT_REQUIRED" if created else task_json["status"]["state"]
        event_meta = {STATUS_KEY: {"sub_state": "awaiting-next-message"}} if created else {}
        text, changed, task_ref = await self._run(call.name, call.arguments, task_json, context)
        reply = self._reply(
            task_json,
            state=state,
            name=call.name,
            text=text,
            task_ref=task_ref,
            event_meta=event_meta,
        )
        await event_queue.enqueue_event(json_format.ParseDict(reply, TaskStatusUpdateEvent()))
        if changed:
            snapshot = dict(task_json)
            snapshot["status"] = reply["status"]
            snapshot["metadata"] = {
                **task_json.get("metadata", {}),
                **event_meta,
                TASK_KEY: self._task_data(task_json),
            }
            await event_queue.enqueue_event(json_format.ParseDict(snapshot, Task()))

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        update = _update(str(context.task_id), str(context.context_id), "TASK_STATE_CANCELED")
        await event_queue.enqueue_event(json_format.ParseDict(update, TaskStatusUpdateEvent()))

    async def _answer(self, task: dict[str, Any], queue: EventQueue) -> None:
        model = self._settings.get(task["id"], {}).get("model", "balanced")
        working = _update(task["id"], task["contextId"], "TASK_STATE_WORKING")
        await queue.enqueue_event(json_format.ParseDict(working, TaskStatusUpdateEvent()))
        answer = _update(task["id"], task["contextId"], "TASK_STATE_INPUT_REQUIRED")
        answer["status"]["message"] = _agent_message(
            task, f"{task['id']}:answer", f"({model}) Noted; what next?"
        )
        answer["metadata"] = {STATUS_KEY: {"sub_state": "awaiting-next-message"}}
        await queue.enqueue_event(json_format.ParseDict(answer, TaskStatusUpdateEvent()))

    async def _run(
        self, name: str, arguments: str, task: dict[str, Any], context: RequestContext
    ) -> tuple[str, bool, str | None]:
        """The command's answer, whether it changed the task, and the sub-task it started."""
        settings = self._settings.setdefault(task["id"], {})
        if name in ("model", "effort"):
            default = "balanced" if name == "model" else "medium"
            if not arguments:
                return f"{name}: {settings.get(name, default)}", False, None
            settings[name] = arguments
            return f"{name} set to {arguments}", True, None
        if name == "sub-task":
            sub_id = f"{task['id']}.{len(settings) + 1}"
            settings[f"sub-task:{sub_id}"] = arguments
            sub = _proto_task(sub_id, task["contextId"], "TASK_STATE_SUBMITTED")
            sub.metadata.update({TASK_KEY: {"name": arguments, "parent": task["id"]}})
            await self._store.save(sub, context.call_context)
            return f"Started sub-task {sub_id}: {arguments}", True, sub_id
        return f"{task['status']['state']}; settings {settings or 'default'}", False, None

    def _reply(
        self,
        task: dict[str, Any],
        *,
        state: str,
        name: str,
        text: str,
        task_ref: str | None,
        event_meta: dict[str, Any],
    ) -> dict[str, Any]:
        count = self._replies[task["id"]] = self._replies.get(task["id"], 0) + 1
        message = _agent_message(task, f"{task['id']}:command:{count}", text)
        command_meta: dict[str, Any] = {"command": name}
        if task_ref is not None:
            command_meta["task_ref"] = task_ref
        if self._metadata_on != "event":
            message["metadata"] = dict(command_meta)
        reply = _update(task["id"], task["contextId"], state)
        reply["status"]["message"] = message
        meta = dict(event_meta)
        if self._metadata_on != "message":
            meta.update(command_meta)
        if meta:
            reply["metadata"] = meta
        return reply

    def _task_data(self, task: dict[str, Any]) -> dict[str, Any]:
        settings = self._settings.get(task["id"], {})
        return {
            "name": "conversation",
            "sub_tasks": [key.split(":", 1)[1] for key in settings if key.startswith("sub-task:")],
            "settings": {k: v for k, v in settings.items() if not k.startswith("sub-task:")},
        }


def _agent_message(task: dict[str, Any], message_id: str, text: str) -> dict[str, Any]:
    return {
        "messageId": message_id,
        "role": "ROLE_AGENT",
        "parts": [{"text": text}],
        "taskId": task["id"],
        "contextId": task["contextId"],
    }


def _update(task_id: str, context_id: str, state: str) -> dict[str, Any]:
    return {"taskId": task_id, "contextId": context_id, "status": {"state": state}}


def _proto_task(task_id: str, context_id: str, state: str) -> Task:
    task = Task()
    json_format.ParseDict(
        {"id": task_id, "contextId": context_id, "status": {"state": state}}, task
    )
    return task


def build_tiny_harness_app(
    base_url: str, *, media: bool = True, metadata_on: MetadataPlace = "message"
) -> Starlette:
    """The agent as an ASGI app: both bindings at the root, the card at the well-known path."""
    card = json_format.ParseDict(tiny_harness_card(base_url, media=media), AgentCard())
    store = InMemoryTaskStore()
    handler = DefaultRequestHandler(
        agent_executor=TinyHarnessExecutor(store, metadata_on), task_store=store, agent_card=card
    )
    routes = [
        *create_agent_card_routes(card, card_url=CARD_PATH),
        *create_rest_routes(handler),
        *create_jsonrpc_routes(handler, "/"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await handler.aclose()  # drain the tasks still waiting for input

    return Starlette(routes=routes, lifespan=lifespan)


@contextmanager
def start_tiny_harness_agent(
    *, media: bool = True, metadata_on: MetadataPlace = "message"
) -> Iterator[str]:
    """Run the agent on 127.0.0.1 and a free port; yields its base URL (with a trailing slash).

    ``media`` adds the media extension and the surface command ``/attach`` to the card;
    ``metadata_on`` is where its command replies carry the command metadata (tiny-harness:
    ``message``; ``event`` and ``both`` for the other placements).
    """
    with serve_app(
        lambda url: build_tiny_harness_app(url, media=media, metadata_on=metadata_on)
    ) as base_url:
        yield base_url.rstrip("/") + "/"
