"""Serving the demo agent: a Starlette app on the SDK's routes, run by uvicorn.

``DemoServer`` runs it in a background thread on 127.0.0.1 and a free port, for ``th-ext demo``
and for tests; ``serve_forever`` runs it in the foreground until interrupted.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable
from types import TracebackType
from typing import Any

from th_ext._exceptions import ThExtError
from th_ext.demo._card import REST_PATH, RPC_PATH, demo_card
from th_ext.demo._executor import DemoAgentExecutor
from th_ext.demo._harness import DemoHarness
from th_ext.demo._sdk import (
    AgentCard,
    DefaultRequestHandler,
    InMemoryTaskStore,
    Starlette,
    create_agent_card_routes,
    create_jsonrpc_routes,
    create_rest_routes,
    json_format,
    uvicorn,
)
from th_ext.demo._variants import DemoVariant

__all__ = ["DemoServer", "build_demo_app", "serve_forever"]

CARD_PATH = "/.well-known/agent-card.json"
_START_TIMEOUT = 15.0


class _SnapshotFirstHandler(DefaultRequestHandler):
    """The SDK's handler, with every stream for an existing task beginning with its snapshot.

    A2A 1.0 requires a stream for a task to begin with the Task object. The executor sends the
    Task it creates; for a message to an existing task the stream begins here with the task as
    stored before the message, and the executor's events follow. ``SendMessage`` is untouched.
    """

    def __init__(self, *, task_store: InMemoryTaskStore, **kwargs: Any) -> None:
        super().__init__(task_store=task_store, **kwargs)
        self._store = task_store

    async def on_message_send_stream(  # type: ignore[override]
        self, params: Any, context: Any
    ) -> AsyncIterator[Any]:
        task_id = params.message.task_id
        snapshot = await self._store.get(task_id, context) if task_id else None
        stream = super().on_message_send_stream(params, context)
        if snapshot is not None:
            yield snapshot
        async for event in stream:
            yield event


def build_demo_app(base_url: str, variant: DemoVariant = DemoVariant.CORRECT) -> Starlette:
    """The demo agent as an ASGI app whose card names ``base_url``."""
    harness = DemoHarness()
    card_json = demo_card(base_url, harness.registry, streaming=variant.streaming)
    card = json_format.ParseDict(card_json, AgentCard())
    task_store = InMemoryTaskStore()
    handler = _SnapshotFirstHandler(
        agent_executor=DemoAgentExecutor(harness, task_store, variant),
        task_store=task_store,
        agent_card=card,
    )
    routes = [
        *create_agent_card_routes(card, card_url=CARD_PATH),
        *create_jsonrpc_routes(handler, RPC_PATH),
        *create_rest_routes(handler, path_prefix=REST_PATH),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await handler.aclose()  # drain the tasks still waiting for input

    return Starlette(routes=routes, lifespan=lifespan)


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
        sock = _bind(self._host, self._port)
        host, port = sock.getsockname()[:2]
        self.base_url = f"http://{host}:{port}"
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
    sock = _bind(host, port)
    bound_host, bound_port = sock.getsockname()[:2]
    base_url = f"http://{bound_host}:{bound_port}"
    if on_ready is not None:
        on_ready(base_url)
    config = uvicorn.Config(build_demo_app(base_url, variant), log_level="info", lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])


def _bind(host: str, port: int) -> socket.socket:
    try:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # Accepted connections inherit it: without it a reply written in two pieces waits for
        # the client's delayed ACK (about 40 ms) on every request of a kept-alive connection.
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
        sock.listen(128)  # connections wait in the backlog until uvicorn accepts them
    except OSError as exc:
        raise ThExtError(f"cannot listen on {host}:{port} ({exc.strerror or exc})") from None
    return sock
