"""One correct commands agent on the official Python SDK, with switches that each break one thing.

Every switch is served by the same uvicorn server under its own path, ``/m/<switch>`` (card at
``/m/<switch>/.well-known/agent-card.json``, JSON-RPC at ``/a2a``, HTTP+JSON at ``/rest``), so
that a test can run ``th-ext conform`` against every mutant without starting a process each.
The correct agent decides with ``th_ext.commands`` and answers with ``build_command_reply``;
each switch departs from it in exactly one way: how it reads a message (the rule's edges), how
it answers a command (the reply's shape), or how its card and interfaces are wired.
"""

from __future__ import annotations

import contextlib
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from enum import StrEnum
from typing import Any

import uvicorn
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes, create_rest_routes
from a2a.server.tasks import InMemoryTaskStore
from a2a.types import (
    AgentCard,
    Message,
    TaskArtifactUpdateEvent,
    TaskState,
    TaskStatusUpdateEvent,
)
from google.protobuf import json_format
from starlette.applications import Starlette
from starlette.routing import Mount

from th_ext.commands import CommandCall, build_command_reply, parse_command
from th_ext.commands._dispatch_rule import ASCII_WHITESPACE
from th_ext.commands._entry import EXTENSION_URI, is_command_name
from th_ext.demo._harness import DemoHarness, demo_card, stand_in_answer
from th_ext.demo._server import _bind, _new_task, _SnapshotFirstHandler, _status_update

__all__ = ["Switch", "build_mutant_app", "serve_mutants"]


class Switch(StrEnum):
    """The correct agent, and each way of breaking it."""

    CORRECT = "correct"
    CASE_INSENSITIVE = "case-insensitive"
    """``/Help`` runs ``help``."""
    PREFIX_MATCH = "prefix-match"
    """``/helps`` runs ``help``: a name that starts with a registered one runs it."""
    SLASH_STRIPPING = "slash-stripping"
    """``//help`` runs ``help``: every leading slash is stripped."""
    TRIMMING = "trimming"
    """`` /help`` runs ``help``: the text is trimmed before the rule."""
    SPACE_ONLY = "space-only"
    """Only a space ends the name: ``/help<TAB>x`` reaches the model."""
    UNICODE_WHITESPACE = "unicode-whitespace"
    """Any Unicode whitespace ends the name (``str.split``): ``/help<NBSP>x`` runs ``help``."""
    EXTRA_PARTS = "extra-parts"
    """The first text part decides, whatever other parts the message has."""
    MESSAGE_CHANGED = "message-changed"
    """An ordinary message is lower-cased before the model (and in the task's history)."""
    HEADER_GATED = "header-gated"
    """Commands run only when the request carries ``A2A-Extensions``."""
    REQUIRED_TRUE = "required-true"
    """The card marks the extension ``required: true``."""
    BAD_CARD_PARAMS = "bad-card-params"
    """The card's params hold a command without a description."""
    NO_SNAPSHOT_FIRST = "no-snapshot-first"
    """A stream for an existing task does not begin with the Task (the SDK's default handler):
    a core A2A rule, reported as a warning."""
    REPLY_ON_SUB_TASK = "reply-on-sub-task"
    """The reply is a status update of another task, not of the message's."""
    REPLY_AS_ARTIFACT = "reply-as-artifact"
    REPLY_AS_MESSAGE = "reply-as-message"
    STATE_MOVED = "state-moved"
    """The reply moves the task to ``TASK_STATE_COMPLETED``."""
    WORKING_FIRST = "working-first"
    """A ``TASK_STATE_WORKING`` update comes before the reply."""
    UPDATE_AFTER = "update-after"
    """Another status update follows the reply."""
    MODEL_TOO = "model-too"
    """The model answers too, after the reply."""
    NO_METADATA = "no-metadata"
    """The command metadata is neither on the reply message nor on the status update."""
    EVENT_ONLY_METADATA = "event-only-metadata"
    """The command metadata is on the status update only, not on the reply message."""
    WRONG_NAME = "wrong-name"
    """The command metadata names ``/help``, with its slash."""
    DANGLING_TASK_REF = "dangling-task-ref"
    """``/review`` answers with a ``task_ref`` that names no task."""
    WRONG_ROLE = "wrong-role"
    """The reply message has role ``ROLE_USER``."""
    UNNAMED_TASK = "unnamed-task"
    """The reply message leaves out ``taskId`` and ``contextId`` (a SHOULD)."""
    UNREGISTERED_ANSWERED = "unregistered-answered"
    """Any ``/name`` is answered as a command, registered or not."""
    SECOND_INTERFACE = "second-interface"
    """A second JSON-RPC interface on the card sends every message to the model."""
    ONE_BINDING = "one-binding"
    """The HTTP+JSON interface sends every message to the model."""


Decide = Callable[[dict[str, Any], list[str]], CommandCall | None]


def _text_of(message: dict[str, Any]) -> str | None:
    parts = message.get("parts") or []
    if len(parts) == 1 and isinstance(parts[0], dict) and set(parts[0]) - {"metadata"} == {"text"}:
        text = parts[0]["text"]
        return text if isinstance(text, str) else None
    return None


def _split_at(text: str, ends: str | None) -> tuple[str, str]:
    """``/name args`` into the name and the arguments, the name ending at a character of
    ``ends`` (None: any Unicode whitespace, as ``str.split`` does)."""
    body = text[1:]
    if ends is None:
        words = body.split(maxsplit=1)
        return (words[0] if words else ""), (words[1] if len(words) > 1 else "")
    cut = next((i for i, char in enumerate(body) if char in ends), len(body))
    return body[:cut], body[cut:].strip(ASCII_WHITESPACE)


def _by_name(text: str | None, names: list[str], ends: str | None = ASCII_WHITESPACE) -> Any:
    if text is None or not text.startswith("/"):
        return None
    name, arguments = _split_at(text, ends)
    return CommandCall(name, arguments) if name in names else None


def _deciders() -> dict[Switch, Decide]:
    def case_insensitive(message: dict[str, Any], names: list[str]) -> CommandCall | None:
        text = _text_of(message)
        if text is None or not text.startswith("/"):
            return None
        name, arguments = _split_at(text, ASCII_WHITESPACE)
        return CommandCall(name.lower(), arguments) if name.lower() in names else None

    def prefix(message: dict[str, Any], names: list[str]) -> CommandCall | None:
        text = _text_of(message)
        if text is None or not text.startswith("/"):
            return None
        name, arguments = _split_at(text, ASCII_WHITESPACE)
        found = next((n for n in names if name.startswith(n)), None)
        return CommandCall(found, arguments) if found else None

    def extra_parts(message: dict[str, Any], names: list[str]) -> CommandCall | None:
        texts = [p for p in message.get("parts") or [] if isinstance(p, dict) and "text" in p]
        return parse_command({"parts": texts[:1]}, names)

    def any_name(message: dict[str, Any], names: list[str]) -> CommandCall | None:
        text = _text_of(message)
        if text is None or not text.startswith("/") or len(text) < 2:
            return None
        return CommandCall(*_split_at(text, ASCII_WHITESPACE))

    return {
        Switch.CASE_INSENSITIVE: case_insensitive,
        Switch.PREFIX_MATCH: prefix,
        Switch.SLASH_STRIPPING: lambda m, n: _by_name("/" + (_text_of(m) or "x").lstrip("/"), n),
        Switch.TRIMMING: lambda m, n: _by_name((_text_of(m) or "").strip(ASCII_WHITESPACE), n),
        Switch.SPACE_ONLY: lambda m, n: _by_name(_text_of(m), n, " "),
        Switch.UNICODE_WHITESPACE: lambda m, n: _by_name(_text_of(m), n, None),
        Switch.EXTRA_PARTS: extra_parts,
        Switch.UNREGISTERED_ANSWERED: any_name,
    }


class MutantExecutor(AgentExecutor):
    """The correct commands agent, broken by ``switch``; ``model_only`` sends every message to
    the model, as an interface wired to a plain model executor does."""

    def __init__(
        self, switch: Switch, store: InMemoryTaskStore, *, model_only: bool = False
    ) -> None:
        self.switch = switch
        self.store = store
        self.model_only = model_only
        self.harness = DemoHarness()
        self.decide: Decide = _deciders().get(switch, parse_command)

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        message = json_format.MessageToDict(context.message) if context.message else {}
        task = context.current_task
        created = task is None
        names = list(self.harness.registry.names)
        call = None if self.model_only else self.decide(message, names)
        if task is None:
            seen = context.message
            if self.switch is Switch.MESSAGE_CHANGED and call is None and seen is not None:
                message = _lowered(message)
                seen = json_format.ParseDict(message, Message())
            task = _new_task(str(context.task_id), str(context.context_id), seen)
        if self.switch is Switch.HEADER_GATED and EXTENSION_URI not in context.requested_extensions:
            call = None
        if created and not (call is not None and self.switch is Switch.REPLY_AS_MESSAGE):
            await event_queue.enqueue_event(task)
        if call is None:
            await self._model(message, task.id, task.context_id, event_queue)
            return
        if self.switch is Switch.WORKING_FIRST:
            await event_queue.enqueue_event(
                _status_update(task.id, task.context_id, "TASK_STATE_WORKING")
            )
        state = TaskState.Name(task.status.state)
        await self._reply(call, task.id, task.context_id, state, context, event_queue)
        if self.switch is Switch.UPDATE_AFTER:
            await event_queue.enqueue_event(_status_update(task.id, task.context_id, state))
        if self.switch is Switch.MODEL_TOO:
            await self._model(message, task.id, task.context_id, event_queue)

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        await event_queue.enqueue_event(
            _status_update(str(context.task_id), str(context.context_id), "TASK_STATE_CANCELED")
        )

    async def _model(
        self, message: dict[str, Any], task_id: str, context_id: str, queue: EventQueue
    ) -> None:
        texts = [p["text"] for p in message.get("parts", []) if isinstance(p.get("text"), str)]
        answer = stand_in_answer(self.harness.model_for(task_id), " ".join(texts))
        await queue.enqueue_event(_status_update(task_id, context_id, "TASK_STATE_WORKING"))
        await queue.enqueue_event(
            _status_update(task_id, context_id, "TASK_STATE_INPUT_REQUIRED", answer)
        )

    async def _reply(  # noqa: PLR0917 (one private step of execute)
        self,
        call: CommandCall,
        task_id: str,
        context_id: str,
        state: str,
        context: RequestContext,
        queue: EventQueue,
    ) -> None:
        outcome = (
            self.harness.run(call, task_id) if call.name in self.harness.registry.names else None
        )
        text = outcome.text if outcome else f"/{call.name} ran."
        task_ref = None
        if outcome is not None and outcome.review_focus is not None:
            task_ref = str(uuid.uuid4())
            if self.switch is not Switch.DANGLING_TASK_REF:
                sub = _new_task(task_ref, context_id, None)
                sub.status.state = TaskState.Value("TASK_STATE_COMPLETED")
                await self.store.save(sub, context.call_context)
            text = self.harness.review_started(task_ref)
        if self.switch is Switch.STATE_MOVED:
            state = "TASK_STATE_COMPLETED"
        reply = build_command_reply(
            task_id=task_id,
            context_id=context_id,
            state=state,
            command=call.name if is_command_name(call.name) else "help",
            text=text,
            task_ref=task_ref,
        )
        await queue.enqueue_event(self._shaped(reply, call.name))

    def _shaped(self, reply: dict[str, Any], name: str) -> Any:
        """The reply as an SDK event, in the shape the switch breaks."""
        message = reply["status"]["message"]
        switch = self.switch
        if switch is Switch.NO_METADATA:
            reply.pop("metadata", None)
            message.pop("metadata", None)
        elif switch is Switch.EVENT_ONLY_METADATA:
            reply["metadata"] = dict(message.pop("metadata", None) or reply.get("metadata", {}))
        elif switch is Switch.WRONG_NAME:
            for holder in (reply, message):
                if "metadata" in holder:
                    holder["metadata"]["command"] = f"/{name}"
        elif switch is Switch.WRONG_ROLE:
            message["role"] = "ROLE_USER"
        elif switch is Switch.UNNAMED_TASK:
            del message["taskId"], message["contextId"]
        elif switch is Switch.REPLY_ON_SUB_TASK:
            reply["taskId"] = message["taskId"] = str(uuid.uuid4())
        if switch is Switch.REPLY_AS_MESSAGE:
            return json_format.ParseDict(message, Message())
        if switch is Switch.REPLY_AS_ARTIFACT:
            artifact = {"artifactId": str(uuid.uuid4()), "parts": message["parts"]}
            event = {
                "taskId": reply["taskId"],
                "contextId": reply["contextId"],
                "artifact": artifact,
                "metadata": reply.get("metadata", {}),
            }
            return json_format.ParseDict(event, TaskArtifactUpdateEvent())
        return json_format.ParseDict(reply, TaskStatusUpdateEvent())


def _lowered(message: dict[str, Any]) -> dict[str, Any]:
    parts = [
        {**part, "text": part["text"].lower()} if isinstance(part.get("text"), str) else part
        for part in message.get("parts", [])
    ]
    return {**message, "parts": parts}


def _card(base: str, switch: Switch, registry: Any) -> dict[str, Any]:
    card = demo_card(base, registry)
    entry = card["capabilities"]["extensions"][0]
    if switch is Switch.REQUIRED_TRUE:
        entry["required"] = True
    elif switch is Switch.BAD_CARD_PARAMS:
        del entry["params"]["commands"][0]["description"]
    elif switch is Switch.SECOND_INTERFACE:
        card["supportedInterfaces"].append(
            {"url": base + "/a2a-model", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
        )
    return card


def _mount(origin: str, switch: Switch, handlers: list[Any]) -> Mount:
    prefix = f"/m/{switch.value}"
    store = InMemoryTaskStore()
    executor = MutantExecutor(switch, store)
    card_json = _card(origin + prefix, switch, executor.harness.registry)
    card = json_format.ParseDict(card_json, AgentCard())

    def handler(model_only: bool = False) -> DefaultRequestHandler:
        chosen = MutantExecutor(switch, store, model_only=True) if model_only else executor
        kind = (
            DefaultRequestHandler if switch is Switch.NO_SNAPSHOT_FIRST else _SnapshotFirstHandler
        )
        made = kind(agent_executor=chosen, task_store=store, agent_card=card)
        handlers.append(made)
        return made

    main = handler()
    routes: list[Any] = [
        *create_agent_card_routes(
            card, card_url="/.well-known/agent-card.json", cache_control="public, max-age=300"
        ),
        *create_jsonrpc_routes(main, "/a2a"),
    ]
    if switch is Switch.SECOND_INTERFACE:
        routes += create_jsonrpc_routes(handler(model_only=True), "/a2a-model")
    # last: the SDK's HTTP+JSON routes end with a catch-all mount for tenants
    routes += create_rest_routes(
        handler(model_only=True) if switch is Switch.ONE_BINDING else main, path_prefix="/rest"
    )
    return Mount(prefix, routes=routes)


def build_mutant_app(origin: str) -> Starlette:
    """Every switch's agent under ``<origin>/m/<switch>``."""
    handlers: list[Any] = []
    routes = [_mount(origin, switch, handlers) for switch in Switch]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        for handler in handlers:
            await handler.aclose()  # drain the tasks still waiting for input

    return Starlette(routes=routes, lifespan=lifespan)


@contextlib.contextmanager
def serve_mutants() -> Iterator[str]:
    """Every mutant on 127.0.0.1 in one server; yields the origin (``/m/<switch>`` is each
    agent's base URL under it)."""
    sock, origin = _bind("127.0.0.1", 0)
    config = uvicorn.Config(
        build_mutant_app(origin), log_level="warning", lifespan="on", timeout_graceful_shutdown=2
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, name="mutants", daemon=True
    )
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"the mutant agents did not start on {origin}")
        time.sleep(0.01)
    try:
        yield origin
    finally:
        server.should_exit = True
        thread.join(timeout=10)
