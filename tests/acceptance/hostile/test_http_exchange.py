"""HTTP and SSE as the standards define them, against raw sockets that send exactly the bytes
a hostile server would: short bodies, interim responses, events split by bare CR."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Callable

import httpx
import pytest

from tests.acceptance.hostile.conftest import Result, card_for
from tests.support.raw_http import RawScript
from th_ext.dispatch._jsonrpc import JsonRpcClient
from th_ext.net._exchange import EventParser, RpcExchange

# A card fetch that fails on a malformed status line leaves one socket to the garbage
# collector (closed, but its file object still referenced); warnings are errors elsewhere.
pytestmark = pytest.mark.filterwarnings("ignore:unclosed <socket.socket:ResourceWarning")

CARD = json.dumps(card_for("http://127.0.0.1:9/a2a")).encode()


def _response(body: bytes, *, length: int | None = None, before: bytes = b"") -> RawScript:
    size = len(body) if length is None else length
    head = (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        + f"Content-Length: {size}\r\nConnection: close\r\n\r\n".encode()
    )
    return lambda request: before + head + body


EARLY_HINTS = b"HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n"


@pytest.mark.parametrize("command", ["validate", "commands", "dispatch"])
def test_a_body_shorter_than_its_length_is_not_a_card(
    th_ext: Callable[..., Result], raw_server: Callable[[RawScript], str], command: str
) -> None:
    base = raw_server(_response(CARD[:-40], length=len(CARD)))
    args = [command, base + "/card.json"] + (["/model"] if command == "dispatch" else [])
    result = th_ext(*args)
    assert result.exit_code == 2
    assert "closed the connection before the body was complete" in result.stdout + result.stderr


def _chunked(body: bytes) -> RawScript:
    head = (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    chunk = f"{len(body) + 100:x}\r\n".encode() + body  # announces more than it sends
    return lambda request: head + chunk


def _gzip(body: bytes) -> RawScript:
    import gzip

    packed = gzip.compress(body)[:-20]
    head = (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n"
        + f"Content-Length: {len(packed)}\r\nConnection: close\r\n\r\n".encode()
    )
    return lambda request: head + packed


@pytest.mark.parametrize(
    ("script", "said"),
    [
        (_chunked(CARD), "closed the connection before the body was complete"),
        (_gzip(CARD), "the gzip body is truncated"),
        (_response(b"", length=10), "closed the connection before the body was complete"),
    ],
)
def test_other_truncated_bodies(
    th_ext: Callable[..., Result],
    raw_server: Callable[[RawScript], str],
    script: RawScript,
    said: str,
) -> None:
    result = th_ext("validate", raw_server(script) + "/card.json", "-f", "json")
    assert result.exit_code == 2
    assert said in result.stdout


@pytest.mark.parametrize(
    "interim", [EARLY_HINTS, EARLY_HINTS * 3, b"HTTP/1.1 100 Continue\r\n\r\n"]
)
def test_interim_responses_are_skipped(
    th_ext: Callable[..., Result], raw_server: Callable[[RawScript], str], interim: bytes
) -> None:
    base = raw_server(_response(CARD, before=interim))
    result = th_ext("validate", base + "/card.json", "-f", "json")
    assert result.exit_code == 0, result.stdout
    assert json.loads(result.stdout)["valid"] is True


def test_endless_interim_responses_end_at_the_deadline(
    th_ext: Callable[..., Result], raw_server: Callable[[RawScript], str]
) -> None:
    base = raw_server(lambda request: [EARLY_HINTS, 0.01] * 10_000)
    result = th_ext("commands", base + "/card.json", "--timeout", "0.5")
    assert result.exit_code == 2
    assert result.stderr == (f"th-ext: error: {base}/card.json: no complete answer within 0.5 s\n")


@pytest.mark.parametrize(
    ("location", "said"),
    [
        ("data:application/json,{}", "data:application/json,{}: only http and https redirects"),
        ("file:///etc/passwd", "file:///etc/passwd: only http and https redirects"),
        ("javascript:alert(1)", "javascript:alert(1): only http and https redirects"),
        ("http://[::1/card.json", "http://[::1/card.json: not a URL (Invalid IPv6 URL)"),
        (
            "http://127.0.0.1:99999/card.json",
            "127.0.0.1:99999/card.json: the port is not a number from 0 to 65535",
        ),
        ("https:///card.json", "https:///card.json: the URL names no host"),
    ],
    ids=["data", "file", "javascript", "unclosed-ipv6", "port-past-65535", "no-host"],
)
def test_a_redirect_to_what_cannot_be_followed_is_one_line(
    th_ext: Callable[..., Result],
    raw_server: Callable[[RawScript], str],
    location: str,
    said: str,
) -> None:
    head = f"HTTP/1.1 302 Found\r\nLocation: {location}\r\nContent-Length: 0\r\n\r\n"
    base = raw_server(lambda request: head.encode())
    for command in (["validate"], ["commands"], ["conform"]):
        result = th_ext(*command, base + "/card.json")
        assert result.exit_code == 2, (command, result)
        assert result.stderr.startswith(f"th-ext: error: {base}/card.json redirects to ")
        assert said in result.stderr and result.stderr.count("\n") == 1, result.stderr


def _call(base: str, *, stream: bool) -> RpcExchange:
    async def run() -> RpcExchange:
        async with httpx.AsyncClient(trust_env=False) as client:
            rpc = JsonRpcClient(client, base + "/a2a", {}, timeout=2, max_bytes=1 << 20)
            return await rpc.send(rpc.body("SendMessage", {}), stream=stream)

    return asyncio.run(run())


def _event(n: int) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"n": n}}).encode()


@pytest.mark.parametrize("end", [b"\r", b"\n", b"\r\n"])
def test_live_stream_events_split_by_any_line_end(
    raw_server: Callable[[RawScript], str], end: bytes
) -> None:
    stream = b"".join(b"data: " + _event(n) + end + end for n in range(3))
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"
    exchange = _call(raw_server(lambda request: head + stream), stream=True)
    assert exchange.failure is None
    assert exchange.results == [{"n": 0}, {"n": 1}, {"n": 2}]


def test_live_answer_after_early_hints(raw_server: Callable[[RawScript], str]) -> None:
    body = _event(7)
    exchange = _call(raw_server(_response(body, before=EARLY_HINTS)), stream=False)
    assert exchange.results == [{"n": 7}]


def test_live_short_body_is_a_failure(raw_server: Callable[[RawScript], str]) -> None:
    body = _event(7)
    exchange = _call(raw_server(_response(body[:-3], length=len(body))), stream=False)
    assert exchange.failure == "the server closed the connection before the body was complete"


@pytest.mark.parametrize("end", ["\r", "\n", "\r\n"])
def test_sse_parser_at_every_split(end: str) -> None:
    text = f"\ufeff: comment{end}event: x{end}data: a{end}data:b{end}{end}data{end}{end}id: 1{end}"
    data = text.encode()
    for cut in range(len(data) + 1):
        parser = EventParser()
        events = [*parser.feed(data[:cut]), *parser.feed(data[cut:])]
        assert events == [b"a\nb", b""], cut
        assert parser.close() is None


def test_sse_parser_one_byte_at_a_time() -> None:
    parser = EventParser()
    events = [
        event
        for byte in b"data: 1\r\rdata: 2\r\n\r\ndata: 3\n\n"
        for event in parser.feed(bytes([byte]))
    ]
    assert events == [b"1", b"2", b"3"]


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (b'{"jsonrpc": "2.0", "id": 1, "result": ' + b"9" * 5000 + b"}", "too long to read"),
        (b'{"jsonrpc": "2.0", "id": 1, "result": ' + b"[" * 50_000 + b"}", "nested too deep"),
        (b'{"jsonrpc": "2.0", "id": 1, "result": ' + b"[" * 200_000 + b"}", "arrays (200,001)"),
        (b'{"jsonrpc": "2.0", "id": 1, "result": tru', "not valid JSON"),
    ],
)
def test_unreadable_live_answers_are_failures(
    raw_server: Callable[[RawScript], str], body: bytes, said: str
) -> None:
    exchange = _call(raw_server(_response(body)), stream=False)
    assert exchange.failure is not None
    assert said in exchange.failure


@pytest.mark.parametrize(
    "answer",
    [
        b"HTTP/1.1 500 " + b"x" * 60_000 + b"\r\nContent-Length: 0\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Encoding: " + b"y" * 60_000 + b"\r\n\r\n{}",
        b"HTTZ/1.1 200 " + b"z" * 60_000 + b"\r\n\r\n",
        b"<html>" + b"w" * 60_000,
    ],
)
@pytest.mark.parametrize("command", ["validate", "commands"])
def test_server_words_in_errors_are_bounded(
    th_ext: Callable[..., Result],
    raw_server: Callable[[RawScript], str],
    answer: bytes,
    command: str,
) -> None:
    result = th_ext(command, raw_server(lambda request: answer) + "/card.json")
    assert result.exit_code == 2
    assert 0 < len(result.stdout + result.stderr) < 2000


@pytest.mark.parametrize("status", [b"500 " + b"x" * 60_000, b"200 OK\r\nX: " + b"y" * 70_000])
def test_live_server_words_are_bounded(
    raw_server: Callable[[RawScript], str], status: bytes
) -> None:
    answer = b"HTTP/1.1 " + status + b"\r\nContent-Length: 0\r\n\r\n"
    exchange = _call(raw_server(lambda request: answer), stream=False)
    assert exchange.failure is not None
    assert len(exchange.failure) < 500


def _coded(body: bytes, encoding: bytes) -> RawScript:
    head = (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: " + encoding
        + f"\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
    )  # fmt: skip
    return lambda request: head + body


def _call_capped(base: str, max_bytes: int) -> RpcExchange:
    async def run() -> RpcExchange:
        async with httpx.AsyncClient(trust_env=False) as client:
            rpc = JsonRpcClient(client, base + "/a2a", {}, timeout=5, max_bytes=max_bytes)
            return await rpc.send(rpc.body("SendMessage", {}), stream=False)

    return asyncio.run(run())


def test_live_answers_are_inflated_within_the_cap(raw_server: Callable[[RawScript], str]) -> None:
    import gzip

    body = _event(3)
    assert _call_capped(raw_server(_coded(gzip.compress(body), b"gzip")), 1000).results == [
        {"n": 3}
    ]
    bomb = gzip.compress(b"[" + b" " * 50_000_000 + b"]")
    exchange = _call_capped(raw_server(_coded(bomb, b"gzip")), 100_000)
    assert exchange.failure == "the answer is larger than the cap of 100000 bytes"
    cut = _call_capped(raw_server(_coded(gzip.compress(body)[:-12], b"gzip")), 1000)
    assert cut.failure == "the gzip answer is truncated"
    other = _call_capped(raw_server(_coded(body, b"br")), 1000)
    assert other.failure == "the answer: unsupported Content-Encoding 'br'"


@pytest.mark.parametrize(
    "head",
    [
        b"HTTP/1.1 302 Found\r\nLocation: http://a.test/\xff\x00\r\nContent-Length: 0\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\r\r\n{}",
        b"HTTP/1.1 2OO OK\r\nContent-Length: 2\r\n\r\n{}",
    ],
    ids=["nul-in-location", "stray-cr", "status-not-a-number"],
)
def test_a_head_that_is_not_http_is_one_line_in_plain_words(
    th_ext: Callable[..., Result], raw_server: Callable[[RawScript], str], head: bytes
) -> None:
    base = raw_server(lambda request: head)
    result = th_ext("validate", base + "/card.json")
    assert result.exit_code == 2, result
    assert result.stderr.startswith(f"th-ext: error: {base}/card.json: the HTTP exchange failed (")
    assert result.stderr.count("\n") == 1 and "Error" not in result.stderr, result.stderr


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_redirect_whose_target_fails_names_the_url_given_and_the_target(
    th_ext: Callable[..., Result], raw_server: Callable[[RawScript], str]
) -> None:
    target = f"http://127.0.0.1:{_closed_port()}/card.json"
    missing = raw_server(lambda request: b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
    hop = f"HTTP/1.1 302 Found\r\nLocation: {target}\r\nContent-Length: 0\r\n\r\n".encode()
    base = raw_server(lambda request: hop)
    result = th_ext("validate", base + "/card.json")
    assert result.exit_code == 2
    assert result.stderr == (
        f"th-ext: error: {base}/card.json redirects to {target}: connection refused\n"
    )
    to_missing = f"HTTP/1.1 302 Found\r\nLocation: {missing}/gone\r\nContent-Length: 0\r\n\r\n"
    first = raw_server(lambda request: to_missing.encode())
    twice = f"HTTP/1.1 302 Found\r\nLocation: {first}/x\r\nContent-Length: 0\r\n\r\n".encode()
    start = raw_server(lambda request: twice)
    result = th_ext("validate", start + "/card.json")
    assert result.stderr == (
        f"th-ext: error: {start}/card.json redirects 2 times, last to {missing}/gone: "
        "HTTP 404 Not Found\n"
    )


def test_a_redirect_refused_after_the_first_hop_names_the_url_given_and_the_hops(
    th_ext: Callable[..., Result], raw_server: Callable[[RawScript], str]
) -> None:
    def redirects(where: dict[str, str]) -> RawScript:
        def answer(request: bytes) -> bytes:
            path = request.split(b" ", 2)[1].decode()
            location = where[path]
            return (
                f"HTTP/1.1 302 Found\r\nLocation: {location}\r\nContent-Length: 0\r\n\r\n".encode()
            )

        return answer

    base = raw_server(
        redirects(
            {
                "/a.json": "/b.json",
                "/b.json": "/c.json",
                "/c.json": "data:,{}",
                "/l.json": "/m.json",
                "/m.json": "/m.json",
            }
        )
    )
    result = th_ext("validate", base + "/a.json")
    assert result.exit_code == 2
    assert result.stderr == (
        f"th-ext: error: {base}/a.json redirects 2 times, last to {base}/c.json, "
        "which redirects to data:,{}: only http and https redirects are followed\n"
    )
    result = th_ext("validate", base + "/b.json")
    assert result.stderr == (
        f"th-ext: error: {base}/b.json redirects to {base}/c.json, which redirects to "
        "data:,{}: only http and https redirects are followed\n"
    )
    result = th_ext("validate", base + "/l.json")
    assert result.exit_code == 2
    assert result.stderr == (
        f"th-ext: error: {base}/l.json redirects to {base}/m.json, which redirects to "
        f"{base}/m.json, which was already visited (a redirect loop)\n"
    )
