"""Real servers on 127.0.0.1 for ``th-ext validate``, and a way to run the command.

``card_server`` is a threaded ``http.server`` whose routes each test sets; ``silent_server``
is a raw socket that accepts connections and never answers. Nothing here mocks HTTP: the
command under test opens real sockets to these servers.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from tests.support.loopback import POLL_SECONDS, LoopbackServer
from tests.support.raw_http import raw_server

COMMANDS_URI = "https://madarauchiha-314.github.io/tiny-harness/a2a/ext/commands/v1"
EXAMPLE_CARD = (
    Path(__file__).resolve().parents[3]
    / "extensions"
    / "commands"
    / "v1"
    / "examples"
    / "card.json"
)

Handler = Callable[[BaseHTTPRequestHandler], None]


def good_card() -> dict[str, Any]:
    """The commands extension's example card: a valid A2A 1.0 card with three commands."""
    card: dict[str, Any] = json.loads(EXAMPLE_CARD.read_text(encoding="utf-8"))
    return card


#: What a card response says of caching when a test is not about it: what A2A 1.0 section
#: 8.6.1 asks (a max-age, an ETag), so that no caching warning joins the problems a test expects.
CACHED = {"Cache-Control": "public, max-age=3600", "ETag": '"v1"'}


def respond(
    status: int = 200,
    body: bytes | str | dict[str, Any] = b"",
    headers: dict[str, str] | None = None,
    *,
    cached: bool = True,
) -> Handler:
    """A handler that answers with ``status``, ``body`` (a dict is sent as JSON) and headers,
    with the caching fields of ``CACHED`` unless ``cached`` is false (``headers`` win)."""
    if isinstance(body, dict):
        data = json.dumps(body).encode()
    elif isinstance(body, str):
        data = body.encode()
    else:
        data = body
    sent = {"Content-Type": "application/json", **(CACHED if cached else {}), **(headers or {})}

    def handle(request: BaseHTTPRequestHandler) -> None:
        request.send_response(status)
        for name, value in sent.items():
            request.send_header(name, value)
        request.send_header("Content-Length", str(len(data)))
        request.end_headers()
        request.wfile.write(data)

    return handle


@dataclass
class CardServer:
    """Routes by path; records every request's path and headers."""

    base: str = ""
    routes: dict[str, Handler] = field(default_factory=dict)
    seen: list[tuple[str, dict[str, str]]] = field(default_factory=list)

    def route(self, path: str, handler: Handler) -> str:
        self.routes[path] = handler
        return self.url(path)

    def url(self, path: str = "") -> str:
        return self.base + path


class _RequestHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    card_server: CardServer

    def do_GET(self) -> None:
        self.card_server.seen.append((self.path, dict(self.headers.items())))
        handler = self.card_server.routes.get(self.path)
        if handler is None:
            respond(404, {"error": "not found"})(self)
            return
        # The client may stop reading, as it should at its cap.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            handler(self)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def serve_routes() -> Iterator[CardServer]:
    """A ``CardServer`` on its own port of 127.0.0.1 (its own origin), for the block."""
    state = CardServer()
    handler = type("Handler", (_RequestHandler,), {"card_server": state})
    server = LoopbackServer(("127.0.0.1", 0), handler)
    state.base = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, args=(POLL_SECONDS,), daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def card_server() -> Iterator[CardServer]:
    with serve_routes() as state:
        yield state


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A server that accepts every connection, reads the request and never sends a byte."""
    with raw_server(lambda request: [600.0]) as server:
        yield server.base_url


@dataclass
class Run:
    """The result of one ``th-ext validate`` run."""

    code: int
    stdout: str
    stderr: str

    @property
    def report(self) -> dict[str, Any]:
        value: dict[str, Any] = json.loads(self.stdout)
        return value

    def codes(self) -> list[tuple[str, str]]:
        """``(code, path)`` of every problem in the JSON report."""
        return [(p["code"], p["path"]) for p in self.report["problems"]]


def th_ext_command() -> list[str]:
    script = Path(sys.executable).parent / "th-ext"
    return [str(script)] if script.exists() else [sys.executable, "-m", "th_ext"]


def run_validate(
    *args: str,
    stdin: bytes | None = None,
    timeout: float = 60,
    cwd: Path | None = None,
    process: bool = False,
) -> Run:
    """Run ``th-ext validate`` with ``args``, with NO_COLOR set and output to pipes.

    By default in this process, through typer's ``CliRunner`` and the whole application (its
    error boundary included): the tests that read the output need no interpreter start-up of
    their own. ``process=True`` runs the installed script in a fresh process, for the tests of
    the real entry point (start-up, standard input from a pipe, exit codes of the process).
    """
    if not process:
        from typer.testing import CliRunner

        from th_ext.cli import app

        with contextlib.chdir(cwd or Path.cwd()):
            outcome = CliRunner(env={"NO_COLOR": "1"}).invoke(
                app, ["validate", *args], input=stdin, catch_exceptions=False
            )
        return Run(outcome.exit_code, outcome.stdout, outcome.stderr)
    env = {**os.environ, "NO_COLOR": "1"}
    done = subprocess.run(
        [*th_ext_command(), "validate", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        timeout=timeout,
        env=env,
        check=False,
    )
    return Run(
        done.returncode,
        done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
    )
