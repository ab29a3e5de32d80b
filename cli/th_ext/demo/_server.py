"""The demo agent on the official A2A SDK: its executor, and the Starlette app uvicorn serves.
The SDK and uvicorn (the optional ``demo`` extra) are imported here and nowhere else."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from types import TracebackType
from typing import Any

from th_ext._exceptions import DemoUnavailableError, ThExtError, os_reason
from th_ext.commands import CommandCall, build_command_reply, parse_command
from th_ext.demo._harness import REST_PATH, RPC_PATH, DemoHarness, demo_card, stand_in_answer
from th_ext.demo._variants import DemoVariant
from th_ext.net._caching import format_http_date, read_http_date

try:
    import uvicorn
    from a2a.server.agent_execution import AgentExecutor, RequestContext
    from a2a.server.context import ServerCallContext
    from a2a.server.events import EventQueue
    from a2a.server.request_handlers import DefaultRequestHandler
    from a2a.server.routes import (
        create_agent_card_routes,
        create_jsonrpc_routes,
        create_rest_routes,
    )
    from a2a.server.tasks import InMemoryTaskStore
    from a2a.types import (
        AgentCard,
        Message,
        Task,
        TaskArtifactUpdateEvent,
        TaskState,
        TaskStatus,
        TaskStatusUpdateEvent,
    )
    from google.protobuf import json_format
    from starlette.applications import Starlette
    from starlette.datastructures import Headers
    from starlette.middleware import Middleware
    from starlette.types import ASGIApp, Receive, Scope, Send
    from starlette.types import Message as AsgiMessage
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise DemoUnavailableError(
        f"the demo agent needs the optional 'demo' extra ({exc.name or 'a2a-sdk'} is missing);"
        " install it with: pip install 'th-ext[demo] @ git+https://github.com/madarauchiha-314/th-ext'"
    ) from None

__all__ = [
    "CARD_CACHE_CONTROL",
    "CardValidators",
    "DemoAgentExecutor",
    "DemoServer",
    "DemoTaskStore",
    "build_demo_app",
    "serve_forever",
]

REPLY_METADATA_KEYS = ("command", "task_ref")
"""The command metadata of a reply, which belongs to that reply and not to its task."""


class DemoAgentExecutor(AgentExecutor):
    """Answers ordinary messages with the stand-in model and runs the harness's commands. A new
    task is sent first, so that its stream begins with the Task; a command's reply is one status
    update in the task's current state, and nothing else."""

    def __init__(
        self, harness: DemoHarness, task_store: InMemoryTaskStore, variant: DemoVariant
    ) -> None:
        self._harness = harness
        self._task_store = task_store
        self._variant = variant

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        message = context.message
        task_id = str(context.task_id)
        context_id = str(context.context_id)
        task = context.current_task
        created = task is None
        if task is None:
            task = _new_task(task_id, context_id, message)
        context_id = task.context_id
        state_name = TaskState.Name(task.status.state)
        message_json = json_format.MessageToDict(message) if message is not None else {}
        call = parse_command(message_json, self._harness.registry.names)
        if call is None and self._variant is DemoVariant.UNREGISTERED_AS_COMMAND:
            call = _any_slash_name(message_json)
        if created and (call is None or self._variant is not DemoVariant.REPLY_AS_MESSAGE):
            await event_queue.enqueue_event(task)
        if call is None:
            await self._answer(message_json, task_id, context_id, event_queue)
            return
        if self._variant is DemoVariant.WORKING_FIRST:
            await event_queue.enqueue_event(
                _status_update(task_id, context_id, "TASK_STATE_WORKING")
            )
        reply = await self._run_command(call, task, state_name, context)
        await self._send_reply(reply, event_queue)
        if self._variant is DemoVariant.REACHES_MODEL:
            await self._answer(message_json, task_id, context_id, event_queue)

    async def _send_reply(self, reply: dict[str, Any], queue: EventQueue) -> None:
        """Send the reply as the spec says, or in the broken shape a variant asks for."""
        message = reply["status"]["message"]
        if self._variant is DemoVariant.REPLY_AS_ARTIFACT:
            artifact = {"artifactId": str(uuid.uuid4()), "parts": message["parts"]}
            event = {
                "taskId": reply["taskId"],
                "contextId": reply["contextId"],
                "artifact": artifact,
                "metadata": reply["metadata"],
            }
            await queue.enqueue_event(json_format.ParseDict(event, TaskArtifactUpdateEvent()))
            return
        if self._variant is DemoVariant.REPLY_AS_MESSAGE:
            await queue.enqueue_event(json_format.ParseDict(message, Message()))
            return
        await queue.enqueue_event(json_format.ParseDict(reply, TaskStatusUpdateEvent()))

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        await event_queue.enqueue_event(
            _status_update(str(context.task_id), str(context.context_id), "TASK_STATE_CANCELED")
        )

    async def _answer(
        self, message_json: dict[str, Any], task_id: str, context_id: str, queue: EventQueue
    ) -> None:
        """An ordinary message: the stand-in model answers, then the task waits for input."""
        text = " ".join(
            part["text"]
            for part in message_json.get("parts", [])
            if isinstance(part, dict) and isinstance(part.get("text"), str)
        )
        await queue.enqueue_event(_status_update(task_id, context_id, "TASK_STATE_WORKING"))
        answer = stand_in_answer(self._harness.model_for(task_id), text)
        await queue.enqueue_event(
            _status_update(task_id, context_id, "TASK_STATE_INPUT_REQUIRED", answer)
        )

    async def _run_command(
        self, call: CommandCall, task: Task, state_name: str, context: RequestContext
    ) -> dict[str, Any]:
        """Run ``call`` on the harness and build its reply (broken on purpose in some variants)."""
        outcome = self._harness.run(call, task.id)
        text, task_ref = outcome.text, None
        if outcome.review_focus is not None:
            task_ref = str(uuid.uuid4())
            if self._variant is not DemoVariant.MISSING_TASK_REF:
                await self._start_review(task, task_ref, outcome.review_focus, context)
            text = self._harness.review_started(task_ref)
        if self._variant is DemoVariant.CHANGED_STATE:
            state_name = "TASK_STATE_COMPLETED"
        reply = build_command_reply(
            task_id=task.id,
            context_id=task.context_id,
            state=state_name,
            command=call.name,
            text=text,
            task_ref=task_ref,
        )
        return _break(reply, self._variant, call.name)

    async def _start_review(
        self, parent: Task, sub_task_id: str, focus: str, context: RequestContext
    ) -> None:
        """Create the review sub-task in the task store, where ``GetTask`` finds it."""
        result = self._harness.review_result(focus, len(parent.history) + 1)
        sub_task = Task(
            id=sub_task_id,
            context_id=parent.context_id,
            status=_status(sub_task_id, parent.context_id, "TASK_STATE_COMPLETED", result),
        )
        sub_task.metadata.update({"parent_task": parent.id})
        await self._task_store.save(sub_task, context.call_context)


def _new_task(task_id: str, context_id: str, message: Message | None) -> Task:
    task = Task(
        id=task_id,
        context_id=context_id,
        status=_status(task_id, context_id, "TASK_STATE_SUBMITTED"),
    )
    if message is not None:
        task.history.append(message)
    return task


def _status(task_id: str, context_id: str, state: str, text: str | None = None) -> TaskStatus:
    status = TaskStatus(state=TaskState.Value(state))
    status.timestamp.FromDatetime(datetime.now(UTC))
    if text is not None:
        status.message.CopyFrom(
            json_format.ParseDict(
                {
                    "messageId": str(uuid.uuid4()),
                    "role": "ROLE_AGENT",
                    "parts": [{"text": text}],
                    "contextId": context_id,
                    "taskId": task_id,
                },
                Message(),
            )
        )
    return status


def _status_update(
    task_id: str, context_id: str, state: str, text: str | None = None
) -> TaskStatusUpdateEvent:
    return TaskStatusUpdateEvent(
        task_id=task_id, context_id=context_id, status=_status(task_id, context_id, state, text)
    )


def _break(reply: dict[str, Any], variant: DemoVariant, name: str) -> dict[str, Any]:
    """The reply with the one fault a variant puts into its shape."""
    message = reply["status"]["message"]
    if variant in (DemoVariant.NO_METADATA, DemoVariant.MESSAGE_ONLY):
        del reply["metadata"]
    if variant in (DemoVariant.NO_METADATA, DemoVariant.EVENT_ONLY):
        del message["metadata"]
    if variant is DemoVariant.USER_ROLE:
        message["role"] = "ROLE_USER"
    elif variant is DemoVariant.SLASHED_COMMAND:
        reply["metadata"]["command"] = message["metadata"]["command"] = f"/{name}"
    elif variant is DemoVariant.UNNAMED_TASK:
        del message["taskId"], message["contextId"]
    return reply


def _any_slash_name(message_json: dict[str, Any]) -> CommandCall | None:
    """For the broken variant that takes any ``/name`` for a command."""
    parts = message_json.get("parts") or [{}]
    text = parts[0].get("text") if isinstance(parts[0], dict) else None
    if len(parts) == 1 and isinstance(text, str) and text.startswith("/") and len(text) > 1:
        name, _, arguments = text[1:].partition(" ")
        return CommandCall(name, arguments.strip())
    return None


CARD_PATH = "/.well-known/agent-card.json"
CARD_CACHE_CONTROL = "public, max-age=300"
"""How long a client may keep the demo's card: five minutes, since a demo agent is restarted
often (on another port its card names other URLs); then it asks again with a condition."""
_START_TIMEOUT = 15.0
_NOT_IN_304 = frozenset({b"content-length", b"content-type"})
"""Representation fields a 304 leaves out (RFC 9110 section 15.4.5): it has no content."""


class CardValidators:
    """ASGI middleware for the card's path: ``Last-Modified`` on every answer, and a 304 with
    no body for a GET whose ``If-Modified-Since`` is not older than it.

    ``If-Modified-Since`` is read only without ``If-None-Match`` (which the card route itself
    answers), and ignored when it is not a date (RFC 9110 section 13.2.2 and 13.1.3).
    """

    def __init__(self, app: ASGIApp, *, path: str, modified: datetime) -> None:
        self.app = app
        self.path = path
        self.modified = modified.replace(microsecond=0)
        self.stamp = format_http_date(self.modified).encode("latin-1")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != self.path:
            await self.app(scope, receive, send)
            return
        unchanged = scope["method"] in ("GET", "HEAD") and self._unchanged(Headers(scope=scope))
        dropping = False

        async def send_stamped(message: AsgiMessage) -> None:
            nonlocal dropping
            if message["type"] == "http.response.start":
                fields = [*message.get("headers", ()), (b"last-modified", self.stamp)]
                if unchanged and message["status"] == 200:
                    dropping = True
                    fields = [(name, value) for name, value in fields if name not in _NOT_IN_304]
                    message = {**message, "status": 304}
                message = {**message, "headers": fields}
            elif message["type"] == "http.response.body" and dropping:
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b""}
            await send(message)

        await self.app(scope, receive, send_stamped)

    def _unchanged(self, headers: Headers) -> bool:
        if "if-none-match" in headers or "if-modified-since" not in headers:
            return False
        since = read_http_date(headers["if-modified-since"])
        return since is not None and self.modified <= since


class _SnapshotFirstHandler(DefaultRequestHandler):
    """The SDK's handler, with every stream for an existing task beginning with its snapshot.

    A2A 1.0 requires a stream for a task to begin with the Task object. The executor sends the
    Task it creates; for a message to an existing task the stream begins here with the task as
    stored before the message, and the executor's events follow. ``SendMessage`` is untouched.
    """

    async def on_message_send_stream(  # type: ignore[override]
        self, params: Any, context: Any
    ) -> AsyncIterator[Any]:
        task_id = params.message.task_id
        snapshot = await self.task_store.get(task_id, context) if task_id else None
        stream = super().on_message_send_stream(params, context)
        if snapshot is not None:
            yield snapshot
        async for event in stream:
            yield event


class DemoTaskStore(InMemoryTaskStore):
    """The SDK's in-memory task store, keeping no reply's command metadata on the task.

    The SDK's task manager copies every status update's ``metadata`` onto its task, and never
    clears it, so a task would hold ``{"command": "review"}`` long after the reply to
    ``/review``. No client reads it (a reply is recognised by its own metadata), but a reference
    agent leaves nothing to explain: the command metadata is dropped from each task it saves.
    """

    async def save(self, task: Task, context: ServerCallContext) -> None:
        kept = Task()
        kept.CopyFrom(task)
        for key in REPLY_METADATA_KEYS:
            if key in kept.metadata:
                del kept.metadata[key]
        await super().save(kept, context)


def build_demo_app(
    base_url: str,
    variant: DemoVariant = DemoVariant.CORRECT,
    *,
    task_store: InMemoryTaskStore | None = None,
) -> Starlette:
    """The demo agent as an ASGI app whose card names ``base_url``, served as A2A 1.0 section
    8.6.1 asks: ``Cache-Control`` and an ``ETag`` from the SDK's route, ``Last-Modified`` (when
    the app was built) from ``CardValidators``.

    ``task_store`` replaces the demo's own ``DemoTaskStore``: the SDK's ``InMemoryTaskStore``
    shows what an agent on the SDK does by default (each task keeps the command metadata of the
    replies on it).
    """
    harness = DemoHarness()
    card_json = demo_card(base_url, harness.registry, streaming=variant.streaming)
    card = json_format.ParseDict(card_json, AgentCard())
    task_store = task_store if task_store is not None else DemoTaskStore()
    handler = _SnapshotFirstHandler(
        agent_executor=DemoAgentExecutor(harness, task_store, variant),
        task_store=task_store,
        agent_card=card,
    )
    routes = [
        *create_agent_card_routes(card, card_url=CARD_PATH, cache_control=CARD_CACHE_CONTROL),
        *create_jsonrpc_routes(handler, RPC_PATH),
        *create_rest_routes(handler, path_prefix=REST_PATH),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await handler.aclose()  # drain the tasks still waiting for input

    validators = Middleware(CardValidators, path=CARD_PATH, modified=datetime.now(UTC))
    return Starlette(routes=routes, middleware=[validators], lifespan=lifespan)


class DemoServer:
    """The demo agent on ``127.0.0.1`` and a free port, in a background thread.

    Use it as a context manager; ``base_url`` and ``card_url`` are set once it has started.
    """

    def __init__(
        self, variant: DemoVariant = DemoVariant.CORRECT, host: str = "127.0.0.1", port: int = 0
    ) -> None:
        self.variant = variant
        self._host = host
        self._port = port
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self.base_url = ""

    @property
    def card_url(self) -> str:
        return self.base_url + CARD_PATH

    def start(self) -> None:
        sock, self.base_url = _bind(self._host, self._port)
        config = uvicorn.Config(
            build_demo_app(self.base_url, self.variant),
            log_level="warning",
            lifespan="on",
            timeout_graceful_shutdown=2,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [sock]}, name="demo-agent", daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + _START_TIMEOUT
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise ThExtError(f"the demo agent did not start on {self.base_url}")
            time.sleep(0.01)

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
        self._server = None
        self._thread = None

    def __enter__(self) -> DemoServer:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


def serve_forever(
    variant: DemoVariant = DemoVariant.CORRECT,
    host: str = "127.0.0.1",
    port: int = 8000,
    on_ready: Callable[[str], None] | None = None,
) -> None:
    """Serve the demo agent in the foreground until interrupted (Ctrl-C).

    ``on_ready`` is called with the base URL once the port is bound.
    """
    sock, base_url = _bind(host, port)
    if on_ready is not None:
        on_ready(base_url)
    config = uvicorn.Config(build_demo_app(base_url, variant), log_level="info", lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])


def _bind(host: str, port: int) -> tuple[socket.socket, str]:
    """A listening socket on ``host`` and ``port``, and its base URL (the port chosen if 0)."""
    try:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # Accepted connections inherit it: without it a reply written in two pieces waits for
        # the client's delayed ACK (about 40 ms) on every request of a kept-alive connection.
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
        sock.listen(128)  # connections wait in the backlog until uvicorn accepts them
    except OSError as exc:
        raise ThExtError(f"cannot listen on {host}:{port} ({os_reason(exc)})") from None
    bound_host, bound_port = sock.getsockname()[:2]
    return sock, f"http://{bound_host}:{bound_port}"
