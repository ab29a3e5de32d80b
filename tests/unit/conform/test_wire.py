"""The two bindings conform speaks, against a loopback server that sends exact bytes: what each
request looks like on the wire, and how every kind of answer is recorded (results, an error, a
failure in words), the same way for JSON-RPC and HTTP+JSON."""

from __future__ import annotations

import asyncio
import gzip
import json
import socket
import time
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.doc_samples import EXAMPLE_CARD
from tests.support.raw_http import RawRequest, RawScript, Step, raw_server
from th_ext import AgentUnreachableError, SourceLimits
from th_ext.conform import ConformOptions, run_conform
from th_ext.conform._wire import BINDINGS, JsonRpcWire, RestWire, Wire, path_segment
from th_ext.net import HeaderScope, Origin, origin_of
from th_ext.net._exchange import ERROR_BODY_BYTES, ERROR_WORDS, RpcExchange

MESSAGE = {"role": "ROLE_USER", "messageId": "m1", "parts": [{"text": "/help"}]}
TASK = {"id": "t1", "status": {"state": "TASK_STATE_WORKING"}}
DONE = {"statusUpdate": {"taskId": "t1", "status": {"state": "TASK_STATE_COMPLETED"}}}
WORKING = {"statusUpdate": {"taskId": "t1", "status": {"state": "TASK_STATE_WORKING"}}}
Call = Callable[[Wire], Any]


def http(
    body: bytes = b"", *, status: str = "200 OK", content_type: str = "application/a2a+json"
) -> bytes:
    return (
        f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode() + body


def stream_head(status: str = "200 OK", encoding: str = "") -> bytes:
    coded = f"Content-Encoding: {encoding}\r\n" if encoding else ""
    return (
        f"HTTP/1.1 {status}\r\nContent-Type: text/event-stream\r\n{coded}Connection: close\r\n\r\n"
    ).encode()


def events(*values: Any, end: str = "\n") -> bytes:
    return "".join(f"data: {json.dumps(v)}{end}{end}" for v in values).encode()


def rpc_result(request: bytes, value: Any) -> bytes:
    body = json.loads(request.partition(b"\r\n\r\n")[2])
    return json.dumps({"jsonrpc": "2.0", "id": body["id"], "result": value}).encode()


def answer(*steps: Step) -> RawScript:
    return lambda request: list(steps)


def send(stream: bool = False, extensions: bool = True) -> Call:
    return lambda wire: wire.send(MESSAGE, stream=stream, extensions=extensions)


def run(
    script: RawScript,
    call: Call,
    *,
    binding: str = "HTTP+JSON",
    path: str = "/a2a",
    tenant: str = "",
    headers: dict[str, str] | None = None,
    allowed: bool = False,
    timeout: float = 2.0,
    max_bytes: int = 1_000_000,
) -> tuple[RpcExchange, list[RawRequest]]:
    """``call(wire)`` against a server answering with ``script``; the exchange and the requests.
    ``allowed``: the run's own headers (an ``Authorization``) may go to the server's origin."""
    kind = RestWire if binding == "HTTP+JSON" else JsonRpcWire

    async def go(base: str) -> RpcExchange:
        origin = origin_of(base)
        assert isinstance(origin, Origin)
        scope = HeaderScope([("Authorization", "Bearer s3cret")], [origin] if allowed else [])
        async with httpx.AsyncClient(trust_env=False) as client:
            wire = kind(
                client, base + path, headers or {}, tenant, scope,
                timeout=timeout, max_bytes=max_bytes,
            )  # fmt: skip
            result: RpcExchange = await call(wire)
            return result

    with raw_server(script) as server:
        exchange = asyncio.run(go(server.base_url))
        return exchange, server.requests


# --- what goes on the wire ---


def test_the_bindings_conform_speaks() -> None:
    assert BINDINGS == ("JSONRPC", "HTTP+JSON")
    assert (JsonRpcWire.binding, RestWire.binding) == BINDINGS


@pytest.mark.parametrize(
    ("value", "segment"),
    [
        ("t1", "t1"),
        ("a-b_c~d", "a-b_c~d"),
        ("..", "%2E%2E"),
        ("a/b", "a%2Fb"),
        ("a b?c#d", "a%20b%3Fc%23d"),
        ("é", "%C3%A9"),
    ],
)
def test_a_path_segment_is_one_opaque_segment(value: str, segment: str) -> None:
    assert path_segment(value) == segment


@pytest.mark.parametrize(("stream", "path", "accept"), [
    (False, "/rest/message:send", "application/a2a+json"),
    (True, "/rest/message:stream", "text/event-stream"),
])  # fmt: skip
def test_an_http_json_send_posts_the_message(stream: bool, path: str, accept: str) -> None:
    script = answer(stream_head(), events(DONE)) if stream else answer(http(b'{"task": {}}'))
    exchange, requests = run(script, send(stream), path="/rest/", headers={"X-Run": "1"})
    (request,) = requests
    assert (request.method, request.target) == ("POST", path)
    assert request.headers["content-type"] == "application/a2a+json"
    assert request.headers["accept"] == accept
    assert request.headers["accept-encoding"] == "identity"
    assert request.headers["x-run"] == "1"
    assert json.loads(request.body) == {"message": MESSAGE}
    assert exchange.method == path.rpartition("/")[2]
    assert exchange.request == {"message": MESSAGE}
    assert exchange.results == ([DONE] if stream else [{"task": {}}])
    assert exchange.ok and exchange.answered and not exchange.unreachable
    assert exchange.problem() == ""


def test_an_http_json_get_task_reads_the_task() -> None:
    exchange, requests = run(answer(http(json.dumps(TASK).encode())), lambda w: w.get_task("t 1"))
    (request,) = requests
    assert (request.method, request.target) == ("GET", "/a2a/tasks/t%201")
    assert request.headers["accept"] == "application/a2a+json"
    assert request.headers["accept-encoding"] == "identity"
    assert request.body == b""
    assert (exchange.method, exchange.request) == ("GetTask", {"id": "t 1"})
    assert exchange.results == [TASK]


def test_a_tenant_is_one_path_segment_before_the_method() -> None:
    _, sent = run(answer(http(b"{}")), send(), path="/rest", tenant="../x")
    _, read = run(answer(http(b"{}")), lambda w: w.get_task(".."), tenant="acme")
    assert sent[0].target == "/rest/%2E%2E%2Fx/message:send"
    assert read[0].target == "/a2a/acme/tasks/%2E%2E"


def test_an_empty_task_id_is_not_sent() -> None:
    exchange, requests = run(answer(http(b"{}")), lambda w: w.get_task(""))
    assert requests == []
    assert exchange.failure == "the task id is empty: it cannot be a path segment; not sent"
    assert not exchange.answered


@pytest.mark.parametrize(("stream", "method"), [
    (False, "SendMessage"), (True, "SendStreamingMessage"),
])  # fmt: skip
@pytest.mark.parametrize("tenant", ["", "acme"])
def test_a_json_rpc_send_names_the_method_and_the_tenant(
    stream: bool, method: str, tenant: str
) -> None:
    def script(request: bytes) -> Sequence[Step]:
        if stream:
            return [stream_head(), b"data: " + rpc_result(request, DONE) + b"\n\n"]
        return [http(rpc_result(request, {"task": TASK}), content_type="application/json")]

    exchange, requests = run(script, send(stream), binding="JSONRPC", tenant=tenant)
    (request,) = requests
    assert (request.method, request.target) == ("POST", "/a2a")
    assert request.headers["content-type"] == "application/json"
    assert request.headers["accept"] == ("text/event-stream" if stream else "application/json")
    body = json.loads(request.body)
    assert body["method"] == method
    assert body["params"] == {"message": MESSAGE} | ({"tenant": tenant} if tenant else {})
    assert exchange.results == ([DONE] if stream else [{"task": TASK}])


@pytest.mark.parametrize("tenant", ["", "acme"])
def test_a_json_rpc_get_task_names_the_tenant(tenant: str) -> None:
    def script(request: bytes) -> bytes:
        return http(rpc_result(request, TASK))

    exchange, requests = run(script, lambda w: w.get_task("t1"), binding="JSONRPC", tenant=tenant)
    body = json.loads(requests[0].body)
    assert body["method"] == "GetTask"
    assert body["params"] == {"id": "t1"} | ({"tenant": tenant} if tenant else {})
    assert exchange.results == [TASK]


def _any_binding(binding: str, value: Any = None) -> RawScript:
    """A script answering ``value`` (an empty object by default) in ``binding``'s envelope."""
    value = {} if value is None else value

    def script(request: bytes) -> bytes:
        body = rpc_result(request, value) if binding == "JSONRPC" else json.dumps(value).encode()
        return http(body)

    return script


@pytest.mark.parametrize("binding", BINDINGS)
@pytest.mark.parametrize("extensions", [True, False])
def test_the_extensions_header_goes_only_when_asked(binding: str, extensions: bool) -> None:
    headers = {"a2a-extensions": "https://x/ext/v1", "A2A-Version": "1.0"}
    _, requests = run(
        _any_binding(binding), send(extensions=extensions), binding=binding, headers=headers
    )
    sent = requests[0].headers
    assert sent["a2a-version"] == "1.0"
    assert ("a2a-extensions" in sent) is extensions


@pytest.mark.parametrize("binding", BINDINGS)
@pytest.mark.parametrize("allowed", [True, False])
@pytest.mark.parametrize("call", ["send", "send-bare", "get_task"])
def test_the_runs_headers_go_only_to_the_origins_allowed(
    binding: str, allowed: bool, call: str
) -> None:
    calls: dict[str, Call] = {
        "send": send(),
        "send-bare": send(extensions=False),
        "get_task": lambda w: w.get_task("t1"),
    }
    do = calls[call]
    _, requests = run(_any_binding(binding), do, binding=binding, allowed=allowed)
    sent = requests[0].headers
    assert (sent.get("authorization") == "Bearer s3cret") is allowed
    assert sent["accept-encoding"] == "identity"


@pytest.mark.parametrize("binding", BINDINGS)
@pytest.mark.parametrize("call", ["send", "send-bare", "get_task"])
def test_the_exchanges_own_headers_replace_the_callers(binding: str, call: str) -> None:
    calls: dict[str, Call] = {
        "send": send(),
        "send-bare": send(extensions=False),
        "get_task": lambda w: w.get_task("t1"),
    }
    theirs = {"accept": "text/html", "CONTENT-TYPE": "text/plain", "Accept-Encoding": "gzip"}
    _, requests = run(_any_binding(binding), calls[call], binding=binding, headers=theirs)
    names = [name for name, _ in requests[0].fields]
    sent = requests[0].headers
    assert names.count("accept") == names.count("accept-encoding") == 1
    assert sent["accept"] != "text/html"
    assert sent["accept-encoding"] == "identity"
    if requests[0].method == "POST":
        assert names.count("content-type") == 1
        kind = "application/json" if binding == "JSONRPC" else "application/a2a+json"
        assert sent["content-type"] == kind
    else:  # a GET has no body: the exchange sets no Content-Type of its own
        assert names.count("content-type") == 1 and sent["content-type"] == "text/plain"


@pytest.mark.parametrize("binding", BINDINGS)
def test_a_send_declares_the_extensions_unless_told_not_to(binding: str) -> None:
    headers = {"A2A-Extensions": "https://x/ext/v1"}
    _, requests = run(
        _any_binding(binding),
        lambda w: w.send(MESSAGE, stream=False),
        binding=binding,
        headers=headers,
    )
    assert requests[0].headers["a2a-extensions"] == "https://x/ext/v1"


@pytest.mark.parametrize("binding", BINDINGS)
def test_a_wire_keeps_the_interfaces_url_as_the_card_gives_it(binding: str) -> None:
    kind = RestWire if binding == "HTTP+JSON" else JsonRpcWire

    async def go() -> str:
        async with httpx.AsyncClient(trust_env=False) as client:
            url = "http://a.test/rest/"
            return kind(client, url, {}, "t", HeaderScope(), timeout=1, max_bytes=1).url

    assert asyncio.run(go()) == "http://a.test/rest/"


def test_only_slashes_are_taken_off_the_end_of_the_url() -> None:
    _, requests = run(answer(http(b"{}")), send(), path="/apiX//")
    assert requests[0].target == "/apiX/message:send"


# --- how each answer is recorded ---


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
def test_a_stream_splits_events_at_any_line_end(end: str) -> None:
    body = events({"task": TASK}, WORKING, DONE, end=end)
    exchange, _ = run(answer(stream_head(), body), send(stream=True))
    assert exchange.results == [{"task": TASK}, WORKING, DONE]
    assert exchange.ok


def test_a_stream_reads_data_as_the_html_standard_says() -> None:
    body = (
        b"\xef\xbb\xbf: a comment\nevent: update\nid: 1\n"
        b'data:{"a":\ndata: 1}\n\n'
        b'data: {"b": 2}'  # the last event, not ended by a blank line
    )
    exchange, _ = run(answer(stream_head(), body), send(stream=True))
    assert exchange.results == [{"a": 1}, {"b": 2}]


def test_a_stream_stops_at_the_first_answer_that_is_not_a_result() -> None:
    body = events({"task": TASK}, {"error": {"code": -1, "message": "no"}}, DONE)
    exchange, _ = run(answer(stream_head(), body), send(stream=True))
    assert exchange.results == [{"task": TASK}]
    assert exchange.error == {"code": -1, "message": "no"}
    assert exchange.problem() == "JSON-RPC error -1: no"


@pytest.mark.parametrize(
    ("body", "results", "error", "failure"),
    [
        (b'{"task": {"id": "t"}}', [{"task": {"id": "t"}}], None, None),
        (b'{"error": {"code": 5, "message": "m"}}', [], {"code": 5, "message": "m"}, None),
        (b'{"error": "gone"}', [], {"message": "gone"}, None),
        (b'{"error": "e", "task": {}}', [{"error": "e", "task": {}}], None, None),
        (b"[1, 2]", [], None, "the answer is not a JSON object"),
        (b"<html>", [], None, "the answer is not valid JSON"),
        (b"[" * 100_000, [], None, "the answer is nested too deep to read"),
    ],
)
def test_an_http_json_answer_is_a_result_an_error_or_a_failure(
    body: bytes, results: list[Any], error: Any, failure: str | None
) -> None:
    exchange, _ = run(answer(http(body)), send())
    assert (exchange.results, exchange.error, exchange.failure) == (results, error, failure)
    assert exchange.answered and not exchange.unreachable


@pytest.mark.parametrize("binding", BINDINGS)
@pytest.mark.parametrize(
    ("status", "body", "failure"),
    [
        ("404 Not Found", b'{"error": {"code": 404, "message": "no  such\\ntask"}}',
         "HTTP 404 Not Found: no such task"),
        ("500 Internal Server Error", b"oops", "HTTP 500 Internal Server Error"),
        ("503 Busy", b'{"error": "down"}', "HTTP 503 Busy"),
        ("400 Bad", b'{"error": {"message": 4}}', "HTTP 400 Bad"),
        ("418  I'm\ta teapot", b"", "HTTP 418 I'm a teapot"),
        ("429 ", b"[", "HTTP 429"),
        ("409 Conflict", b"[1]", "HTTP 409 Conflict"),
    ],
)  # fmt: skip
def test_an_http_error_is_a_failure_with_the_servers_message(
    binding: str, status: str, body: bytes, failure: str
) -> None:
    exchange, _ = run(answer(http(body, status=status)), send(), binding=binding)
    assert exchange.failure == failure
    assert exchange.results == [] and exchange.answered and not exchange.unreachable


def test_an_http_error_keeps_the_server_words_short() -> None:
    long_words = json.dumps({"error": {"message": "w" * 5000}}).encode()
    exchange, _ = run(answer(http(long_words, status="400 " + "r" * 5000)), send())
    reason, _, message = (exchange.failure or "").partition(": ")
    assert reason == "HTTP 400 " + "r" * (ERROR_WORDS - 1) + "…"
    assert message == "w" * (ERROR_WORDS - 1) + "…"


def test_an_http_error_body_past_its_bound_is_not_read_for_words() -> None:
    message = "m" * (ERROR_BODY_BYTES - 40)
    fits = json.dumps({"error": {"message": message}}).encode()
    too_long = json.dumps({"error": {"message": message + "m" * 100}}).encode()
    assert len(fits) <= ERROR_BODY_BYTES < len(too_long)
    small, _ = run(answer(http(fits, status="400 Bad")), send(), max_bytes=10)
    large, _ = run(answer(http(too_long, status="400 Bad")), send())
    assert small.failure == "HTTP 400 Bad: " + "m" * (ERROR_WORDS - 1) + "…"
    assert large.failure == "HTTP 400 Bad"


def test_an_error_status_on_a_stream_is_a_failure() -> None:
    exchange, _ = run(answer(stream_head("403 Forbidden"), events(DONE)), send(stream=True))
    assert exchange.failure == "HTTP 403 Forbidden"
    assert exchange.results == []


@pytest.mark.parametrize("stream", [False, True])
def test_an_answer_past_the_cap_is_a_failure(stream: bool) -> None:
    big = {"task": {"id": "t" * 5000}}
    script = (
        answer(stream_head(), events(big)) if stream else answer(http(json.dumps(big).encode()))
    )
    exchange, _ = run(script, send(stream), max_bytes=4000)
    assert exchange.failure == "the answer is larger than the cap of 4000 bytes"
    fits, _ = run(script, send(stream), max_bytes=6000)
    assert fits.ok and fits.results == [big]


def _coded(body: bytes, encoding: str, *, stream: bool = False) -> RawScript:
    kind = "text/event-stream" if stream else "application/a2a+json"
    head = (
        f"HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Encoding: {encoding}\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode()
    return answer(head, body)


@pytest.mark.parametrize("extensions", [True, False])
def test_a_json_rpc_answer_past_the_cap_is_a_failure(extensions: bool) -> None:
    def script(request: bytes) -> bytes:
        return http(rpc_result(request, {"task": {"id": "t" * 5000}}))

    exchange, _ = run(script, send(extensions=extensions), binding="JSONRPC", max_bytes=4000)
    assert exchange.failure == "the answer is larger than the cap of 4000 bytes"


def test_a_compressed_answer_is_inflated_within_the_cap() -> None:
    body = events({"task": TASK}, DONE)
    exchange, _ = run(_coded(gzip.compress(body), "gzip", stream=True), send(stream=True))
    assert exchange.results == [{"task": TASK}, DONE]
    bomb = gzip.compress(b"data: [" + b" " * 30_000_000 + b"]\n\n")
    assert len(bomb) < 100_000
    exchange, _ = run(_coded(bomb, "gzip", stream=True), send(stream=True), max_bytes=50_000)
    assert exchange.failure == "the answer is larger than the cap of 50000 bytes"


@pytest.mark.parametrize(
    ("script", "failure"),
    [
        (_coded(gzip.compress(b'{"task": {}}')[:-12], "gzip"), "the gzip answer is truncated"),
        (_coded(b"{}", "br"), "the answer: unsupported Content-Encoding 'br'"),
        (
            _coded(b"{}", "x-" + "y" * 100),
            "the answer: unsupported Content-Encoding '" + "x-" + "y" * 57 + "…'",
        ),
        (
            _coded(zlib.compress(b'{"task": {}}'), "gzip"),
            "the compressed answer is corrupt"
            " (Error -3 while decompressing data: incorrect header check)",
        ),
    ],
)
def test_an_answer_that_cannot_be_decoded_is_a_failure(script: RawScript, failure: str) -> None:
    exchange, _ = run(script, send())
    assert exchange.failure == failure


@pytest.mark.parametrize(
    ("coding", "packed"),
    [
        ("gzip", gzip.compress),
        ("x-gzip", gzip.compress),
        ("GZip", gzip.compress),
        ("deflate", zlib.compress),
        ("identity", bytes),
        ("", bytes),
    ],
)
def test_an_answer_is_read_in_each_coding_th_ext_reads(
    coding: str, packed: Callable[[bytes], bytes]
) -> None:
    body = json.dumps({"task": TASK}).encode()
    exchange, _ = run(_coded(packed(body), coding), send())
    assert exchange.ok and exchange.results == [{"task": TASK}]


def test_an_http_error_body_is_inflated_for_the_servers_message() -> None:
    message = b'{"error": {"message": "no such task"}}'
    head = (
        b"HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n"
        b"Connection: close\r\n\r\n"
    )
    packed = gzip.compress(message)
    exchange, _ = run(answer(head, packed[:10], 0.05, packed[10:]), send())
    assert exchange.failure == "HTTP 404 Not Found: no such task"
    broken, _ = run(answer(head, zlib.compress(message)), send())
    assert broken.failure == "HTTP 404 Not Found"
    unknown, _ = run(answer(head.replace(b"gzip", b"br"), message), send())
    assert unknown.failure == "HTTP 404 Not Found"


# --- the deadline, and a server that is not there ---


@pytest.mark.parametrize("binding", BINDINGS)
@pytest.mark.parametrize("extensions", [True, False])
def test_no_status_line_within_the_deadline_is_unreachable(binding: str, extensions: bool) -> None:
    exchange, _ = run(answer(1.0), send(extensions=extensions), binding=binding, timeout=0.3)
    assert exchange.failure == "no complete answer within 0.3 s"
    assert exchange.unreachable and not exchange.answered


def test_a_stream_that_stalls_before_a_final_state_is_a_failure() -> None:
    exchange, _ = run(answer(stream_head(), events(WORKING), 1.0), send(stream=True), timeout=0.3)
    assert exchange.failure == "no complete answer within 0.3 s"
    assert exchange.results == [WORKING]
    assert exchange.answered and not exchange.unreachable


@pytest.mark.parametrize("binding", BINDINGS)
def test_a_stream_that_stalls_after_a_final_state_has_ended(binding: str) -> None:
    def script(request: bytes) -> Sequence[Step]:
        data = rpc_result(request, DONE) if binding == "JSONRPC" else json.dumps(DONE).encode()
        return [stream_head(), b"data: " + data + b"\n\n", 1.0]

    exchange, _ = run(script, send(stream=True), binding=binding, timeout=0.3)
    assert exchange.ok and exchange.results == [DONE]


def test_a_server_that_is_not_there_is_unreachable() -> None:
    with socket.socket() as bound:  # a port of ours, bound and not listening: refused
        bound.bind(("127.0.0.1", 0))
        gone = f"http://127.0.0.1:{bound.getsockname()[1]}"

        async def go() -> RpcExchange:
            async with httpx.AsyncClient(trust_env=False) as client:
                wire = RestWire(client, gone, {}, "", HeaderScope(), timeout=2, max_bytes=100)
                return await wire.send(MESSAGE, stream=False)

        exchange = asyncio.run(go())
    assert exchange.failure is not None and exchange.failure.startswith("cannot connect")
    assert exchange.unreachable and not exchange.answered


def test_a_connection_closed_mid_body_is_a_failure_in_words() -> None:
    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/a2a+json\r\nContent-Length: 50\r\n\r\n"
    exchange, _ = run(answer(head, b'{"task"'), send())
    assert exchange.failure == "the server closed the connection before the body was complete"
    assert exchange.answered and not exchange.unreachable


def test_a_server_that_hangs_up_without_answering_is_a_failure_not_unreachable() -> None:
    exchange, _ = run(answer(b""), send())
    assert exchange.failure == (
        "the HTTP exchange failed (server disconnected without sending a response)"
    )
    assert not exchange.answered and not exchange.unreachable


def test_an_answer_without_a_content_type_is_read_as_one_body() -> None:
    body = b'{"task": {"id": "t"}}'
    head = f"HTTP/1.1 200 OK\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    exchange, _ = run(answer(head.encode() + body), send())
    assert exchange.ok and exchange.results == [{"task": {"id": "t"}}]


@pytest.mark.parametrize("stream", [False, True])
def test_the_cap_is_exact(stream: bool) -> None:
    def script(size: int) -> RawScript:
        value = {"task": {"id": "t" * (size - len(json.dumps({"task": {"id": ""}})))}}
        if not stream:
            return answer(http(json.dumps(value).encode()))
        return answer(stream_head(), b"data: " + json.dumps(value).encode() + b"\n\n")

    extra = len(b"data: \n\n") if stream else 0
    at, _ = run(script(1000), send(stream), max_bytes=1000 + extra)
    past, _ = run(script(1001), send(stream), max_bytes=1000 + extra)
    assert at.ok
    assert past.failure == f"the answer is larger than the cap of {1000 + extra} bytes"


@pytest.mark.parametrize("size", [1000, 1001])
def test_the_cap_is_exact_on_an_inflated_answer(size: int) -> None:
    value = json.dumps({"task": {"id": "t" * (size - 20)}}).encode()
    assert len(value) == size
    exchange, _ = run(_coded(gzip.compress(value), "gzip"), send(), max_bytes=1000)
    if size == 1000:
        assert exchange.ok
    else:
        assert exchange.failure == "the answer is larger than the cap of 1000 bytes"


def test_a_bomb_is_inflated_no_further_than_the_cap() -> None:
    import tracemalloc

    bomb = gzip.compress(b"[" + b" " * 30_000_000 + b"]")
    tracemalloc.start()
    try:
        exchange, _ = run(_coded(bomb, "gzip"), send(), max_bytes=50_000)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert exchange.failure == "the answer is larger than the cap of 50000 bytes"
    assert peak < 5_000_000  # inflated whole, the answer alone would take 30 MB


@pytest.mark.parametrize(
    ("last", "ended"),
    [
        (DONE, True),
        ({"task": {"id": "t1", "status": {"state": "TASK_STATE_INPUT_REQUIRED"}}}, True),
        ({"task": TASK}, False),
        (WORKING, False),
        ({"artifactUpdate": {"taskId": "t1"}}, False),
        ({"statusUpdate": {"status": "done"}}, False),
    ],
)
def test_only_a_final_state_ends_a_stream_that_stalls(last: Any, ended: bool) -> None:
    script = answer(stream_head(), events({"task": TASK}, last), 1.0)
    exchange, _ = run(script, send(stream=True), timeout=0.3)
    assert exchange.results == [{"task": TASK}, last]
    assert exchange.ok is ended
    assert exchange.failure == (None if ended else "no complete answer within 0.3 s")


def test_a_json_rpc_stream_whose_last_result_is_not_an_object_has_not_ended() -> None:
    def script(request: bytes) -> Sequence[Step]:
        return [stream_head(), b"data: " + rpc_result(request, 5) + b"\n\n", 1.0]

    exchange, _ = run(script, send(stream=True), binding="JSONRPC", timeout=0.3)
    assert exchange.results == [5]
    assert exchange.failure == "no complete answer within 0.3 s"


# --- the JSON-RPC envelope ---


def _rpc(value: dict[str, Any] | bytes) -> RawScript:
    """An answer to a JSON-RPC request: ``value`` with the request's id where it says ``"=id"``."""

    def script(request: bytes) -> bytes:
        if isinstance(value, bytes):
            return http(value)
        asked = json.loads(request.partition(b"\r\n\r\n")[2])["id"]
        return http(json.dumps({k: asked if v == "=id" else v for k, v in value.items()}).encode())

    return script


NOT_RPC = "the answer is not a JSON-RPC 2.0 response"


@pytest.mark.parametrize(
    ("value", "results", "error", "failure"),
    [
        ({"jsonrpc": "2.0", "id": "=id", "result": {"task": {}}}, [{"task": {}}], None, None),
        ({"jsonrpc": "2.0", "id": "=id", "result": None}, [None], None, None),
        ({"jsonrpc": "2.0", "id": "=id", "error": {"code": -32001, "message": "m"}},
         [], {"code": -32001, "message": "m"}, None),
        ({"jsonrpc": "2.0", "id": None, "error": {"code": -32700}}, [], {"code": -32700}, None),
        ({"jsonrpc": "2.0", "id": "=id", "error": "gone"}, [], {"message": "gone"}, None),
        ({"jsonrpc": "2.0", "id": None, "result": {}}, [], None,
         "the answer has id None, not the request's 1"),
        ({"jsonrpc": "2.0", "id": 7, "error": {"code": 1}}, [], None,
         "the answer has id 7, not the request's 1"),
        ({"jsonrpc": "2.0", "id": "=id"}, [], None,
         "a JSON-RPC response has neither result nor error"),
        ({"jsonrpc": "1.0", "id": "=id", "result": {}}, [], None, NOT_RPC),
        ({"id": "=id", "result": {}}, [], None, NOT_RPC),
        (b"[1]", [], None, NOT_RPC),
        (b"{", [], None, "the answer is not valid JSON"),
    ],
)  # fmt: skip
def test_a_json_rpc_answer_is_a_result_an_error_or_a_failure(
    value: dict[str, Any] | bytes, results: list[Any], error: Any, failure: str | None
) -> None:
    exchange, _ = run(_rpc(value), send(), binding="JSONRPC")
    assert (exchange.results, exchange.error, exchange.failure) == (results, error, failure)


def test_json_rpc_requests_are_numbered_and_each_exchange_names_its_method() -> None:
    async def calls(wire: Wire) -> RpcExchange:
        first = await wire.send(MESSAGE, stream=False)
        second = await wire.get_task("t1")
        assert (first.method, second.method) == ("SendMessage", "GetTask")
        return second

    def script(request: bytes) -> bytes:
        return http(rpc_result(request, TASK))

    exchange, requests = run(script, calls, binding="JSONRPC")
    bodies = [json.loads(r.body) for r in requests]
    assert [(b["jsonrpc"], b["id"]) for b in bodies] == [("2.0", 1), ("2.0", 2)]
    assert exchange.request == bodies[1] and exchange.ok
    assert requests[1].headers["accept"] == "application/json"


@pytest.mark.parametrize("binding", BINDINGS)
def test_a_body_that_arrives_in_pieces_is_read_whole(binding: str) -> None:
    def script(request: bytes) -> Sequence[Step]:
        body = rpc_result(request, TASK) if binding == "JSONRPC" else json.dumps(TASK).encode()
        head = http(body)[: -len(body)]
        return [head + body[:10], 0.05, body[10:]]

    exchange, _ = run(script, send(), binding=binding)
    assert exchange.ok and exchange.results == [TASK]


def test_an_endless_stream_of_interim_responses_ends_at_the_deadline(tmp_path: Path) -> None:
    """Conform's calls go through the same transport as every other request of th-ext: the
    interim responses are skipped, and the exchange's deadline bounds an endless stream."""
    early = b"HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n"

    def script(request: bytes) -> list[bytes | float]:
        return [early, 0.01] * 10_000

    card = json.loads(EXAMPLE_CARD.read_text(encoding="utf-8"))
    with raw_server(script) as server:
        card["supportedInterfaces"] = [card["supportedInterfaces"][0]]
        card["supportedInterfaces"][0]["url"] = server.base_url + "/a2a"
        path = tmp_path / "card.json"
        path.write_text(json.dumps(card), encoding="utf-8")
        started = time.monotonic()
        with pytest.raises(AgentUnreachableError, match=r"no complete answer within 0\.5 s"):
            run_conform(str(path), ConformOptions(limits=SourceLimits(timeout=0.5)))
    assert server.requests
    assert time.monotonic() - started < 5
