"""A small A2A 1.0 agent that implements the commands extension, on the official Python SDK.

``create_app(base_url)`` is the ASGI application: its card at ``/.well-known/agent-card.json``
and JSON-RPC at ``/a2a``. Commands are registered once with ``CommandRegistry``; the registry
fills the card's extension entry, ``parse_command`` decides each message, and
``build_command_reply`` shapes a command's answer as the spec requires.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import uvicorn
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore
from a2a.types import AgentCard, Task, TaskState, TaskStatus, TaskStatusUpdateEvent
from google.protobuf import json_format
from starlette.applications import Starlette

from th_ext.commands import CommandRegistry, build_command_reply, parse_command

BASE_URL = "http://agent.test"
MODELS = ("fast", "careful")

registry = CommandRegistry()
registry.register("help", "List the commands this agent offers")
registry.register("model", "Show or choose this task's model", "[<model>]")


def build_card(base_url: str) -> dict[str, Any]:
    """The agent card, as A2A 1.0 JSON."""
    return {
        "name": "Example commands agent",
        "description": "Echoes messages; /help and /model run on the harness.",
        "version": "0.1.0",
        "supportedInterfaces": [
            {"url": f"{base_url}/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
        ],
        "capabilities": {"streaming": True, "extensions": [registry.card_extension()]},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [
            {
                "id": "echo",
                "name": "Echo",
                "description": "Answers with the message it was sent.",
                "tags": ["example"],
            }
        ],
    }


class ExampleExecutor(AgentExecutor):
    """Runs registered commands on the harness; echoes every other message."""

    def __init__(self) -> None:
        self.models: dict[str, str] = {}

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        task = context.current_task
        if task is None:  # a new task: its stream begins with it
            task = _new_task(context)
            await event_queue.enqueue_event(task)
        message = json_format.MessageToDict(context.message) if context.message else {}
        call = parse_command(message, registry.names)
        if call is None:
            await self._echo(task, message, event_queue)
            return
        reply = build_command_reply(
            task_id=task.id,
            context_id=task.context_id,
            state=TaskState.Name(task.status.state),  # the task's state does not change
            command=call.name,
            text=self._run(task.id, call.name, call.arguments),
        )
        await event_queue.enqueue_event(json_format.ParseDict(reply, TaskStatusUpdateEvent()))

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        raise NotImplementedError("tasks of this agent cannot be canceled")

    def _run(self, task_id: str, name: str, arguments: str) -> str:
        if name == "help":
            return "\n".join(f"/{c.name} {c.argument_hint}".strip() for c in registry)
        if not arguments:
            return f"model: {self.models.get(task_id, MODELS[0])}"
        if arguments not in MODELS:
            return f"unknown model {arguments!r}; choose one of {', '.join(MODELS)}"
        self.models[task_id] = arguments
        return f"model set to {arguments}"

    async def _echo(self, task: Task, message: dict[str, Any], queue: EventQueue) -> None:
        text = " ".join(p["text"] for p in message.get("parts", []) if "text" in p)
        answer = {
            "messageId": str(uuid.uuid4()),
            "role": "ROLE_AGENT",
            "parts": [{"text": f"You said: {text}"}],
            "taskId": task.id,
            "contextId": task.context_id,
        }
        event = {
            "taskId": task.id,
            "contextId": task.context_id,
            "status": {"state": "TASK_STATE_INPUT_REQUIRED", "message": answer},
        }
        await queue.enqueue_event(json_format.ParseDict(event, TaskStatusUpdateEvent()))


def _new_task(context: RequestContext) -> Task:
    task = Task(
        id=str(context.task_id),
        context_id=str(context.context_id),
        status=TaskStatus(state=TaskState.Value("TASK_STATE_SUBMITTED")),
    )
    if context.message is not None:
        task.history.append(context.message)
    return task


class TaskFirstRequestHandler(DefaultRequestHandler):
    """The SDK's handler, with a stream for an existing task beginning with the task.

    A2A 1.0 requires every stream for a task to begin with the Task object. The executor sends
    a task it creates; for a message to an existing task the SDK would begin the stream with
    the executor's first event, so the task as stored before the message goes first here.
    """

    def __init__(self, *, task_store: InMemoryTaskStore, **kwargs: Any) -> None:
        super().__init__(task_store=task_store, **kwargs)
        self._tasks = task_store

    async def on_message_send_stream(  # type: ignore[override]
        self, params: Any, context: Any
    ) -> AsyncIterator[Any]:
        task_id = params.message.task_id
        existing = await self._tasks.get(task_id, context) if task_id else None
        events = super().on_message_send_stream(params, context)
        if existing is not None:
            yield existing
        async for event in events:
            yield event


def create_app(base_url: str = BASE_URL) -> Starlette:
    """The agent as an ASGI application whose card names ``base_url``."""
    card = json_format.ParseDict(build_card(base_url), AgentCard())
    handler = TaskFirstRequestHandler(
        agent_executor=ExampleExecutor(), task_store=InMemoryTaskStore(), agent_card=card
    )
    routes = [
        *create_agent_card_routes(card, card_url="/.well-known/agent-card.json"),
        *create_jsonrpc_routes(handler, "/a2a"),
    ]
    return Starlette(routes=routes)


if __name__ == "__main__":
    uvicorn.run(create_app("http://127.0.0.1:8000"), host="127.0.0.1", port=8000)
