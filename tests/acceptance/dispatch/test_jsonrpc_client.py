"""The live check's JSON-RPC client against a real loopback server that answers in odd ways."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from typing import Any

import httpx
import pytest

from tests.support.loopback import POLL_SECONDS, LoopbackServer
from th_ext.dispatch._jsonrpc import JsonRpcClient
from th_ext.net._exchange import RpcExchange


def sse(*events: str, newline: str = "\n") -> bytes:
    return "".join(f"{event}{newline}{newline}" for event in events).encode()


def result(request_id: int, value: Any) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "result": value})


ANSWERS: dict[str, tuple[int, str, bytes]] = {
    "/json": (200, "application/json", result(1, {"task": {"id": "t"}}).encode()),
    "/error": (
        200,
        "application/json",
        json.dumps(
            {"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "Task not found"}}
        ).encode(),
    ),
    "/wrong-id": (200, "application/json", result(7, {}).encode()),
    "/not-json": (200, "application/json", b"<html>"),
    "/http-500": (500, "text/plain", b"oops"),
    "/sse": (
        200,
        "text/event-stream",
        b": a comment\n"
        + sse("event: message\ndata: " + result(1, {"a": 1}), "data: " + result(1, {"b": 2})),
    ),
    "/sse-crlf": (200, "text/event-stream", sse("data: " + result(1, {"c": 3}), newline="\r\n")),
    "/sse-multiline": (
        200,
        "text/event-stream",
        sse('data: {"jsonrpc": "2.0", "id": 1,\ndata:  "result": {"d": 4}}'),
    ),
    "/sse-error": (
        200,
        "text/event-stream",
        sse(
            "data: " + result(1, {"e": 5}),
            'data: {"jsonrpc": "2.0", "id": 1, "error": {"code": -32603, "message": "boom"}}',
            "data: " + result(1, {"never": "read"}),
        ),
    ),
    "/big": (200, "application/json", result(1, {"x": "y" * 5000}).encode()),
}


class Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        status, content_type, body = ANSWERS[self.path]
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        # Write in small pieces so that events and lines arrive split across reads.
        for start in range(0, len(body), 7):
            self.wfile.write(body[start : start + 7])
            self.wfile.flush()

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    server = LoopbackServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(POLL_SECONDS,), daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def call(
    base_url: str, path: str, *, stream: bool = False, max_bytes: int = 100_000
) -> RpcExchange:
    async def go() -> RpcExchange:
        async with httpx.AsyncClient() as client:
            rpc = JsonRpcClient(client, base_url + path, {}, timeout=5, max_bytes=max_bytes)
            return await rpc.send(rpc.body("GetTask", {"id": "t"}), stream=stream)

    return asyncio.run(go())


def test_a_plain_result(base_url: str) -> None:
    exchange = call(base_url, "/json")
    assert exchange.ok and exchange.results == [{"task": {"id": "t"}}]


def test_a_json_rpc_error_is_data(base_url: str) -> None:
    exchange = call(base_url, "/error")
    assert not exchange.ok
    assert exchange.problem() == "JSON-RPC error -32001: Task not found"


@pytest.mark.parametrize(
    ("path", "problem"),
    [
        ("/wrong-id", "the answer has id 7, not the request's 1"),
        ("/not-json", "the answer is not valid JSON"),
        ("/http-500", "HTTP 500"),
    ],
)
def test_malformed_answers_are_failures_in_words(base_url: str, path: str, problem: str) -> None:
    exchange = call(base_url, path)
    assert exchange.failure is not None and exchange.failure.startswith(problem)


@pytest.mark.parametrize(
    ("path", "results"),
    [
        ("/sse", [{"a": 1}, {"b": 2}]),
        ("/sse-crlf", [{"c": 3}]),
        ("/sse-multiline", [{"d": 4}]),
    ],
)
def test_server_sent_events_split_across_reads(
    base_url: str, path: str, results: list[Any]
) -> None:
    exchange = call(base_url, path, stream=True)
    assert exchange.ok, exchange.problem()
    assert exchange.results == results


def test_an_error_event_ends_the_stream(base_url: str) -> None:
    exchange = call(base_url, "/sse-error", stream=True)
    assert exchange.results == [{"e": 5}]
    assert exchange.problem() == "JSON-RPC error -32603: boom"


def test_the_byte_cap(base_url: str) -> None:
    assert call(base_url, "/big", max_bytes=10_000).ok
    exchange = call(base_url, "/big", max_bytes=1_000)
    assert exchange.failure == "the answer is larger than the cap of 1000 bytes"
