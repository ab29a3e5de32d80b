"""Hostile servers on 127.0.0.1: recording HTTP servers (two of them are two origins) and raw
sockets that answer with whatever bytes a test gives, however wrong."""

from __future__ import annotations

import contextlib
import json
import ssl
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.support.loopback import LoopbackServer
from tests.support.raw_http import RawScript
from tests.support.raw_http import raw_server as serve_raw
from th_ext.cli import app

EXAMPLE_CARD = Path(__file__).resolve().parents[3] / "extensions/commands/v1/examples/card.json"


def card_for(interface_url: str) -> dict[str, Any]:
    """The example card with its one JSON-RPC interface at ``interface_url``."""
    card: dict[str, Any] = json.loads(EXAMPLE_CARD.read_text(encoding="utf-8"))
    card["supportedInterfaces"][0]["url"] = interface_url
    return card


@dataclass
class Reply:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Origin:
    """One recording server: what it answers per path, and every request it received."""

    base: str = ""
    replies: dict[str, Reply] = field(default_factory=dict)
    received: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)
    bodies: list[bytes] = field(default_factory=list)

    def serve(self, path: str, reply: Reply) -> str:
        self.replies[path] = reply
        return self.base + path

    def serve_json(self, path: str, value: Any) -> str:
        return self.serve(
            path,
            Reply(body=json.dumps(value).encode(), headers={"Content-Type": "application/json"}),
        )

    def redirect(self, path: str, location: str) -> str:
        return self.serve(path, Reply(302, headers={"Location": location}))

    def header_values(self, name: str) -> list[str | None]:
        """The value of header ``name`` in each request received, in order."""
        lowered = name.lower()
        return [
            next((v for k, v in headers.items() if k.lower() == lowered), None)
            for _, _, headers in self.received
        ]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    origin: Origin

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.origin.bodies.append(self.rfile.read(length) if length else b"")
        self.origin.received.append((self.command, self.path, dict(self.headers.items())))
        reply = self.origin.replies.get(self.path, Reply(404, b"{}"))
        self.send_response(reply.status)
        for name, value in reply.headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(reply.body)))
        self.end_headers()
        with contextlib.suppress(OSError):
            self.wfile.write(reply.body)

    do_GET = _answer
    do_POST = _answer

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def origin_server(tls: ssl.SSLContext | None = None) -> Iterator[Origin]:
    """A recording server on a port of its own (an origin), over TLS when ``tls`` is given."""
    state = Origin()
    handler = type("Handler", (_Handler,), {"origin": state})
    server = LoopbackServer(("127.0.0.1", 0), handler)
    scheme = "http"
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
        scheme = "https"
    state.base = f"{scheme}://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def origin_a() -> Iterator[Origin]:
    with origin_server() as state:
        yield state


@pytest.fixture
def origin_b() -> Iterator[Origin]:
    with origin_server() as state:
        yield state


@pytest.fixture
def raw_server() -> Iterator[Callable[[RawScript], str]]:
    """Start a raw-socket server answering every connection with a script; gives its base URL."""
    with contextlib.ExitStack() as servers:
        yield lambda script: servers.enter_context(serve_raw(script)).base_url


@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str


@pytest.fixture
def th_ext() -> Callable[..., Result]:
    """Run ``th-ext ARGS`` in-process: its exit code, stdout and stderr."""
    runner = CliRunner()

    def run(*args: str, input: bytes | str | None = None) -> Result:
        outcome = runner.invoke(app, list(args), input=input, catch_exceptions=False)
        return Result(outcome.exit_code, outcome.stdout, outcome.stderr)

    return run
