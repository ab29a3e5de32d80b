"""The card GET on httpx against real loopback servers that send exact bytes: the byte cap after
decompression, one deadline over the whole fetch, the redirect policy, the header scope, and a
wire failure named by its type."""

from __future__ import annotations

import asyncio
import contextlib
import email.utils
import gzip
import json
import re
import socket
import ssl
import threading
import time
import zlib
from collections.abc import Callable, Iterator, Sequence
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import httpx
import pytest

from tests.support.loopback import LoopbackServer
from tests.support.raw_http import RawScript, RawServer, Step, raw_server
from th_ext._deadline import Deadline
from th_ext._exceptions import (
    FetchConnectError,
    FetchError,
    FetchTimeoutError,
    HTTPStatusCodeError,
    RedirectError,
    SourceArgumentError,
    SourceTooLargeError,
)
from th_ext.net import HeaderScope, client_options, origin_of
from th_ext.net._exchange import cannot_connect, describe
from th_ext.net._fetch import FetchResult, Retry, fetch, fetch_async

CARD = b'{"name": "agent"}'
NO_SCOPE = HeaderScope()


def head(status: str = "200 OK", /, **fields: str | int) -> bytes:
    lines = [f"HTTP/1.1 {status}", "Connection: close"]
    lines += [f"{name.replace('_', '-')}: {value}" for name, value in fields.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def ok(body: bytes, **fields: str | int) -> bytes:
    return head(Content_Type="application/json", Content_Length=len(body), **fields) + body


Serve = Callable[[RawScript], RawServer]


@pytest.fixture
def serve() -> Iterator[Serve]:
    """Start raw servers, each with its script; gives each started server."""
    with contextlib.ExitStack() as stack:
        yield lambda script: stack.enter_context(raw_server(script))


def get(
    url: str,
    *,
    timeout: float = 3,
    max_bytes: int = 1 << 20,
    scope: HeaderScope = NO_SCOPE,
    max_redirects: int = 5,
) -> FetchResult:
    return fetch(
        url,
        scope=scope,
        deadline=Deadline.after(timeout, f"no complete answer within {timeout:g} s"),
        max_bytes=max_bytes,
        max_redirects=max_redirects,
    )


# --- the body and the byte cap ---


def test_a_plain_card_is_read_with_its_type(serve: Serve) -> None:
    server: RawServer = serve(lambda request: ok(CARD))
    result = get(server.base_url + "/card.json")
    assert (result.status, result.body, result.content_type) == (200, CARD, "application/json")
    sent = server.requests[0]
    assert sent.headers["accept-encoding"] == "gzip, deflate"
    assert sent.headers["user-agent"] == "th-ext"
    assert sent.headers["accept"] == "application/json, */*;q=0.5"


def _bare_deflate(data: bytes, level: int = -1) -> bytes:
    """Deflate data without the zlib wrapper, as some servers send ``deflate``."""
    packer = zlib.compressobj(level, wbits=-zlib.MAX_WBITS)
    return packer.compress(data) + packer.flush()


@pytest.mark.parametrize(
    ("packed", "coding"),
    [
        (gzip.compress(CARD), "gzip"),
        (zlib.compress(CARD), "deflate"),
        (_bare_deflate(CARD), "deflate"),
        (gzip.compress(CARD), "deflate"),
    ],
    ids=["gzip", "deflate", "bare-deflate", "gzip-labelled-deflate"],
)
def test_compressed_bodies_are_inflated(serve: Serve, packed: bytes, coding: str) -> None:
    server: RawServer = serve(lambda request: ok(packed, Content_Encoding=coding))
    assert get(server.base_url + "/c.json").body == CARD


@pytest.mark.parametrize("split", [1, 2])
@pytest.mark.parametrize("packed", [zlib.compress(CARD), _bare_deflate(CARD)], ids=["zlib", "bare"])
def test_deflate_is_told_apart_when_its_first_bytes_come_alone(
    serve: Serve, packed: bytes, split: int
) -> None:
    head = ok(packed, Content_Encoding="deflate")[: -len(packed)]
    server: RawServer = serve(lambda request: [head + packed[:split], 0.05, packed[split:]])
    assert get(server.base_url + "/c.json").body == CARD


def test_bare_deflate_whose_first_bytes_pass_zlibs_check_sum_is_read(serve: Serve) -> None:
    """A zlib header is two bytes whose value is a multiple of 31 and whose first names the
    deflate method (8); bare data can meet the first test alone."""
    card = json.loads(CARD)
    for spaces in range(64):
        text = b" " * spaces + json.dumps(card).encode()
        packed = _bare_deflate(text, level=1)
        if int.from_bytes(packed[:2], "big") % 31 == 0 and packed[0] & 0x0F != 8:
            break
    else:
        pytest.fail("no such text found")
    server: RawServer = serve(lambda request: ok(packed, Content_Encoding="deflate"))
    assert get(server.base_url + "/c.json").body == text


def test_an_empty_body_sent_as_bare_deflate_is_empty(serve: Serve) -> None:
    server: RawServer = serve(lambda request: ok(b"\x03\x00", Content_Encoding="deflate"))
    assert get(server.base_url + "/c.json").body == b""


def test_a_deflate_body_of_one_byte_is_truncated(serve: Serve) -> None:
    server: RawServer = serve(lambda request: ok(b"x", Content_Encoding="deflate"))
    with pytest.raises(FetchError, match="the deflate body is truncated"):
        get(server.base_url + "/c.json")


def test_a_gzip_bomb_stops_at_the_cap_after_decompression(serve: Serve) -> None:
    bomb = gzip.compress(b" " * 50_000_000)
    assert len(bomb) < 100_000
    server: RawServer = serve(lambda request: ok(bomb, Content_Encoding="gzip"))
    with pytest.raises(
        SourceTooLargeError,
        match=r"larger than the cap of 100000 bytes, once decompressed \(gzip\)$",
    ):
        get(server.base_url + "/c.json", max_bytes=100_000)


def test_a_body_at_the_cap_is_read_and_one_past_it_is_not(serve: Serve) -> None:
    body = b"x" * 1000
    chunked = head(Transfer_Encoding="chunked") + b"3e8\r\n" + body + b"\r\n0\r\n\r\n"
    server: RawServer = serve(lambda request: chunked)
    assert get(server.base_url + "/c.json", max_bytes=1000).body == body
    with pytest.raises(SourceTooLargeError, match=r"larger than the cap of 999 bytes$"):
        get(server.base_url + "/c.json", max_bytes=999)


def test_an_announced_length_over_the_cap_is_refused_before_reading(serve: Serve) -> None:
    server: RawServer = serve(lambda request: head(Content_Length=10_000_000))
    with pytest.raises(SourceTooLargeError, match="announces 10000000 bytes"):
        get(server.base_url + "/c.json", max_bytes=1000)


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        (ok(gzip.compress(CARD)[:-8], Content_Encoding="gzip"), "the gzip body is truncated"),
        (ok(b"not gzip at all", Content_Encoding="gzip"), "the compressed body is corrupt"),
        (ok(CARD, Content_Encoding="br"), "unsupported Content-Encoding 'br'"),
        (head(Content_Length=100) + CARD, "(83 of the announced bytes missing)"),
    ],
    ids=["truncated", "corrupt", "unknown-coding", "short"],
)
def test_broken_bodies_are_fetch_errors(serve: Serve, answer: bytes, said: str) -> None:
    server: RawServer = serve(lambda request: answer)
    with pytest.raises(FetchError) as raised:
        get(server.base_url + "/c.json")
    assert said in str(raised.value)


def test_the_missing_bytes_count_every_piece_that_came(serve: Serve) -> None:
    server: RawServer = serve(
        lambda request: [head(Content_Length=100) + CARD[:10], 0.1, CARD[10:], 0.1]
    )
    with pytest.raises(FetchError, match=r"\(83 of the announced bytes missing\)$"):
        get(server.base_url + "/c.json")


def test_a_body_cut_short_without_an_announced_length_names_no_count(serve: Serve) -> None:
    cut = head(Transfer_Encoding="chunked") + b"3e8\r\n" + b"x" * 10
    server: RawServer = serve(lambda request: cut)
    with pytest.raises(FetchError) as raised:
        get(server.base_url + "/c.json")
    assert str(raised.value) == (
        f"{server.base_url}/c.json: the server closed the connection before the body was complete"
    )


def test_interim_responses_are_skipped(serve: Serve) -> None:
    early = b"HTTP/1.1 103 Early Hints\r\nLink: </a>; rel=preload\r\n\r\n"
    server: RawServer = serve(lambda request: early * 3 + ok(CARD))
    assert get(server.base_url + "/c.json").body == CARD


EARLY = b"HTTP/1.1 103 Early Hints\r\nLink: </a>; rel=preload\r\n\r\n"


def test_many_interim_responses_are_skipped(serve: Serve) -> None:
    server: RawServer = serve(lambda request: EARLY * 100 + ok(CARD))
    assert get(server.base_url + "/c.json").body == CARD


def test_an_endless_stream_of_interim_responses_ends_at_the_deadline(serve: Serve) -> None:
    server: RawServer = serve(lambda request: [EARLY, 0.01] * 10_000)
    started = time.monotonic()
    with pytest.raises(FetchTimeoutError, match=r"no complete answer within 0\.5 s"):
        get(server.base_url + "/c.json", timeout=0.5)
    assert time.monotonic() - started < 1.5


def test_interim_heads_in_a_body_are_not_counted(serve: Serve) -> None:
    """A body that holds interim heads, arriving after the final head, is a body."""
    body = EARLY * 40
    server: RawServer = serve(
        lambda request: [EARLY * 10 + head(Content_Length=len(body)), 0.1, body]
    )
    assert get(server.base_url + "/c.json").body == body


class _InterimThenCard(BaseHTTPRequestHandler):
    """Ten interim responses before each answer, on a connection kept alive."""

    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        self.wfile.write(EARLY * 10)
        self.send_response(200)
        self.send_header("Content-Length", str(len(CARD)))
        self.end_headers()
        self.wfile.write(CARD)

    def log_message(self, format: str, *args: object) -> None:
        pass


def test_interim_responses_are_counted_anew_for_each_request_on_a_connection() -> None:
    server = LoopbackServer(("127.0.0.1", 0), _InterimThenCard)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/c.json"

    async def three() -> list[bytes]:
        async with httpx.AsyncClient(**client_options(), timeout=None) as client:
            return [(await client.get(url)).content for _ in range(3)]

    try:
        assert asyncio.run(three()) == [CARD] * 3
    finally:
        server.shutdown()
        server.server_close()


def test_an_http_error_keeps_its_status_and_bounded_words(serve: Serve) -> None:
    server: RawServer = serve(lambda request: head("503 " + "w" * 5000, Content_Length=0))
    with pytest.raises(HTTPStatusCodeError) as raised:
        get(server.base_url + "/c.json")
    assert raised.value.status == 503
    assert raised.value.code == "http-error"
    assert len(str(raised.value)) < 300


# --- one deadline over the whole fetch ---


@pytest.mark.parametrize(
    "steps",
    [
        [5.0],  # accepts and never answers
        [head(Content_Length=1000), *([b"x", 0.1] * 50)],  # trickles a byte at a time
        [head(Content_Length=len(CARD)), 5.0],  # answers the head and stalls
    ],
    ids=["silent", "trickle", "stalled-body"],
)
def test_the_deadline_cuts_a_slow_server(serve: Serve, steps: Sequence[Step]) -> None:
    server: RawServer = serve(lambda request: steps)
    started = time.monotonic()
    with pytest.raises(FetchTimeoutError, match=r"no complete answer within 0\.5 s"):
        get(server.base_url + "/c.json", timeout=0.5)
    assert time.monotonic() - started < 1.5


def test_the_deadline_covers_the_redirects_too(serve: Serve) -> None:
    """Each hop answers in 0.3 s, well within the deadline alone; four of them are not."""
    server: RawServer = serve(
        lambda request: [
            0.3,
            head("302 Found", Location=f"/n{len(server.requests)}", Content_Length=0),
        ]
    )
    started = time.monotonic()
    with pytest.raises(FetchTimeoutError):
        get(server.base_url + "/n0", timeout=1.0)
    assert time.monotonic() - started < 2.0


def test_fetches_on_one_client_keep_their_own_deadlines(serve: Serve) -> None:
    """Several fetches at once on one client (as a fleet runs them): a silent server ends its
    own fetch at its deadline and holds up none of the others."""
    silent: RawServer = serve(lambda request: [5.0])
    good: RawServer = serve(lambda request: ok(CARD))

    async def run() -> list[object]:
        async with httpx.AsyncClient(
            **client_options(limits=httpx.Limits(max_connections=8))
        ) as client:

            async def one(url: str, seconds: float) -> object:
                try:
                    return await fetch_async(
                        url,
                        client=client,
                        scope=NO_SCOPE,
                        deadline=Deadline.after(seconds, "too slow"),
                        max_bytes=1000,
                    )
                except FetchTimeoutError as exc:
                    return exc

            return await asyncio.gather(
                one(silent.base_url + "/a.json", 0.4),
                *(one(good.base_url + f"/{n}.json", 3) for n in range(4)),
            )

    started = time.monotonic()
    results = asyncio.run(run())
    assert time.monotonic() - started < 1.5
    assert isinstance(results[0], FetchTimeoutError)
    assert str(results[0]).endswith(": too slow")
    assert [r.body for r in results[1:]] == [CARD] * 4  # type: ignore[attr-defined]


def test_the_sync_fetch_works_inside_a_running_loop(serve: Serve) -> None:
    server: RawServer = serve(lambda request: ok(CARD))

    async def inside() -> FetchResult:
        return get(server.base_url + "/c.json")

    assert asyncio.run(inside()).body == CARD


# --- redirects ---


def _redirects(targets: dict[str, str]) -> RawScript:
    def script(request: bytes) -> bytes:
        path = request.split(b" ", 2)[1].decode()
        if path in targets:
            return head("302 Found", Location=targets[path], Content_Length=0)
        return ok(CARD)

    return script


def test_redirects_are_followed_and_listed(serve: Serve) -> None:
    server: RawServer = serve(_redirects({"/a": "/b", "/b": "/c.json"}))
    result = get(server.base_url + "/a")
    assert result.url == server.base_url + "/c.json"
    assert result.redirects == (server.base_url + "/b", server.base_url + "/c.json")


@pytest.mark.parametrize(
    ("targets", "code", "said"),
    [
        ({"/a": "/b", "/b": "/a"}, "redirect-loop", "already visited (a redirect loop)"),
        ({"/a": "ftp://127.0.0.1/x"}, "redirect-not-http", "only http and https redirects"),
        ({f"/{n}": f"/{n + 1}" for n in range(6)}, "too-many-redirects", "more than 5"),
        ({"/a": ""}, "bad-redirect", "redirect without a Location header"),
        ({"/a": "data:application/json,{}"}, "redirect-not-http", "only http and https"),
        ({"/a": "file:///etc/passwd"}, "redirect-not-http", "only http and https"),
        ({"/a": "javascript:alert(1)"}, "redirect-not-http", "only http and https"),
        ({"/a": "http://[::1/x"}, "bad-redirect", "[::1/x: not a URL (Invalid IPv6 URL)"),
        ({"/a": "http://127.0.0.1:99999/x"}, "bad-redirect", "from 0 to 65535"),
        ({"/a": "http://a\x7fb/x"}, "bad-redirect", "b/x: not a URL (Invalid non-printable"),
        ({"/a": "https:///x"}, "bad-redirect", "https:///x: the URL names no host"),
        ({"/a": "http:///x"}, "bad-redirect", "http:///x: the URL names no host"),
        ({"/a": "http:x.json"}, "bad-redirect", "http:x.json: the URL names no host"),
        ({"/a": "http://exa mple.com/"}, "bad-redirect", "mple.com/: the host has white space"),
        ({"/a": "http://exa\u3000mple.com/"}, "bad-redirect", "the host has white space"),
        ({"/a": "http://exa%20mple.com/"}, "bad-redirect", "the host has '%' in it"),
    ],
)
def test_the_redirect_policy(serve: Serve, targets: dict[str, str], code: str, said: str) -> None:
    first = "/a" if "/a" in targets else "/0"
    server: RawServer = serve(_redirects(targets))
    with pytest.raises(RedirectError) as raised:
        get(server.base_url + first)
    assert raised.value.code == code
    assert said in str(raised.value)


@pytest.mark.parametrize(
    ("targets", "code"),
    [
        ({"/a": "/" + "b" * 20_000, "/" + "b" * 20_000: "/a"}, "redirect-loop"),
        ({"/a": "/" + "b" * 20_000, "/" + "b" * 20_000: "ftp://x/" + "c" * 20_000}, None),
        ({"/a": "http://127.0.0.1:99999/" + "b" * 20_000}, "bad-redirect"),
    ],
    ids=["loop", "not-http", "bad-port"],
)
def test_a_refused_redirect_shows_each_url_cut_to_a_line(
    serve: Serve, targets: dict[str, str], code: str | None
) -> None:
    """A server chooses its Location: 20,000 characters of it are not repeated in the line."""
    server: RawServer = serve(_redirects(targets))
    with pytest.raises(RedirectError) as raised:
        get(server.base_url + "/a")
    assert raised.value.code == (code or "redirect-not-http")
    assert len(str(raised.value)) < 500, str(raised.value)[:300]
    assert "…" in str(raised.value)


def test_five_redirects_are_allowed_and_six_are_not(serve: Serve) -> None:
    server: RawServer = serve(_redirects({f"/{n}": f"/{n + 1}" for n in range(5)}))
    assert len(get(server.base_url + "/0").redirects) == 5
    with pytest.raises(RedirectError):
        get(server.base_url + "/0", max_redirects=4)


def test_headers_follow_a_redirect_only_to_an_allowed_origin(serve: Serve) -> None:
    other: RawServer = serve(lambda request: ok(CARD))
    first: RawServer = serve(_redirects({"/a": other.base_url + "/c.json"}))
    scope = HeaderScope.for_source([("Authorization", "Bearer s3cret")], first.base_url)
    get(first.base_url + "/a", scope=scope)
    assert first.requests[0].headers["authorization"] == "Bearer s3cret"
    assert "authorization" not in other.requests[0].headers
    assert scope.withheld == (origin_of(other.base_url),)


def test_a_caller_header_replaces_the_default_of_the_same_name(serve: Serve) -> None:
    server: RawServer = serve(lambda request: ok(CARD))
    scope = HeaderScope.for_source([("accept", "application/a2a+json")], server.base_url)
    get(server.base_url + "/c.json", scope=scope)
    assert [v for k, v in server.requests[0].fields if k == "accept"] == ["application/a2a+json"]


def test_no_proxy_is_taken_from_the_environment(
    serve: Serve, monkeypatch: pytest.MonkeyPatch
) -> None:
    proxy: RawServer = serve(lambda request: ok(b'{"proxied": true}'))
    server: RawServer = serve(lambda request: ok(CARD))
    for name in ("HTTP_PROXY", "http_proxy", "ALL_PROXY"):
        monkeypatch.setenv(name, proxy.base_url)
    monkeypatch.delenv("NO_PROXY", raising=False)
    assert get(server.base_url + "/c.json").body == CARD
    assert proxy.requests == []


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("http://127.0.0.1:port/x", "the port is not a number from 0 to 65535"),
        ("http://127.0.0.1:65536/x", "the port is not a number from 0 to 65535"),
        ("http:///x", "names no host"),
        ("http://[::1/x", r"not a URL \(Invalid IPv6 URL\)"),
    ],
)
def test_a_malformed_url_is_an_argument_error(url: str, said: str) -> None:
    with pytest.raises(SourceArgumentError, match=said):
        get(url)


# --- a failure named by its type, never by its text ---


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_refused_connection_is_named_from_its_cause() -> None:
    with pytest.raises(FetchError, match=r": connection refused$"):
        get(f"http://127.0.0.1:{_closed_port()}/c.json")


def _chained(outer: Exception, cause: BaseException | None) -> Exception:
    outer.__cause__ = cause
    return outer


@pytest.mark.parametrize(
    ("error", "words", "unreachable"),
    [
        (_chained(httpx.ConnectError("any words"), ConnectionRefusedError(111, "x")),
         "connection refused", True),
        (_chained(httpx.ConnectError("certificate"), None), "connection refused", True),
        (_chained(httpx.ConnectError("x"), socket.gaierror(-2, "Name or service not known")),
         "cannot resolve the host (name or service not known)", True),
        (_chained(httpx.ConnectError("x"), _chained(OSError("All attempts"),
                                                    ConnectionRefusedError(111, "r"))),
         "connection refused", True),
        (_chained(httpx.ConnectError("x"), ssl.SSLCertVerificationError(1, "bad")),
         "TLS: certificate verify failed", True),
        (httpx.ConnectTimeout("connection refused"), "no connection in time", True),
        (_chained(httpx.ReadError("connection refused"), ConnectionResetError(104, "Reset")),
         "the connection failed (reset)", False),
        (httpx.RemoteProtocolError("peer closed connection without sending complete message body"),
         "the HTTP exchange failed (peer closed connection without sending complete message body)",
         False),
        (httpx.RemoteProtocolError("illegal status line: bytearray(b'\\x00\\x01garbage')"),
         "the HTTP exchange failed (illegal status line: '\\x00\\x01garbage')", False),
        (ValueError("All connection attempts failed"),
         "ValueError: All connection attempts failed", False),
    ],
)  # fmt: skip
def test_a_wire_error_is_named_by_its_type(error: Exception, words: str, unreachable: bool) -> None:
    assert describe(error) == words
    assert cannot_connect(error) is unreachable


# --- retries ---


def get_retrying(url: str, retries: int, timeout: float = 5) -> tuple[object, list[Retry]]:
    """``fetch_async`` with ``retries``: its result or error, and the retries it made."""
    retried: list[Retry] = []

    async def run() -> object:
        async with httpx.AsyncClient(**client_options(), timeout=None) as client:
            try:
                return await fetch_async(
                    url,
                    client=client,
                    scope=NO_SCOPE,
                    deadline=Deadline.after(timeout, f"no complete answer within {timeout:g} s"),
                    max_bytes=1000,
                    retries=retries,
                    retried=retried,
                )
            except FetchError as exc:
                return exc

    return asyncio.run(run()), retried


def busy(times: int, status: str = "503 Service Unavailable", **fields: str | int) -> RawScript:
    """``status`` for the first ``times`` requests, then the card."""
    count = [0]

    def script(request: bytes) -> bytes:
        count[0] += 1
        return head(status, Content_Length=0, **fields) if count[0] <= times else ok(CARD)

    return script


@pytest.mark.parametrize("status", ["429 Too Many Requests", "502 Bad Gateway", "503 No", "504 X"])
def test_a_status_that_may_pass_is_tried_again(serve: Serve, status: str) -> None:
    server: RawServer = serve(busy(2, status))
    result, retried = get_retrying(server.base_url + "/c.json", retries=2)
    assert isinstance(result, FetchResult) and result.body == CARD
    assert len(server.requests) == 3
    assert [r.reason for r in retried] == [f"{server.base_url}/c.json: HTTP {status}"] * 2
    # Exponential backoff with jitter: the first waits 0.25 to 0.5 s, the second 0.5 to 1 s.
    assert 0.25 <= retried[0].wait <= 0.5 and 0.5 <= retried[1].wait <= 1.0
    assert retried[0].to_dict()["url"] == server.base_url + "/c.json"


@pytest.mark.parametrize("status", ["400 Bad Request", "403 Forbidden", "404 Not Found", "500 X"])
def test_no_other_status_is_tried_again(serve: Serve, status: str) -> None:
    server: RawServer = serve(busy(5, status))
    result, retried = get_retrying(server.base_url + "/c.json", retries=3)
    assert isinstance(result, HTTPStatusCodeError) and not retried
    assert len(server.requests) == 1


def test_without_retries_a_busy_server_is_asked_once(serve: Serve) -> None:
    server: RawServer = serve(busy(1))
    result, retried = get_retrying(server.base_url + "/c.json", retries=0)
    assert isinstance(result, HTTPStatusCodeError) and result.status == 503
    assert str(result).endswith("HTTP 503 Service Unavailable") and not retried
    assert len(server.requests) == 1


def test_a_server_busy_for_ever_fails_after_the_retries_within_the_timeout(serve: Serve) -> None:
    server: RawServer = serve(busy(1000))
    started = time.monotonic()
    result, retried = get_retrying(server.base_url + "/c.json", retries=10, timeout=3)
    assert time.monotonic() - started < 4.5  # the timeout, and a loaded machine
    assert isinstance(result, HTTPStatusCodeError) and result.status == 503
    # The backoff doubles: within 3 s there is time for a few retries, not ten.
    assert 2 <= len(retried) < 10
    assert str(result).endswith(f"(no time to retry, after {len(retried)} retries)")


def test_retry_after_in_seconds_is_honoured(serve: Serve) -> None:
    server: RawServer = serve(busy(1, Retry_After=1))
    started = time.monotonic()
    result, retried = get_retrying(server.base_url + "/c.json", retries=1)
    assert isinstance(result, FetchResult)
    assert time.monotonic() - started >= 1.0
    assert [r.wait for r in retried] == [1.0]


def test_retry_after_as_a_date_is_honoured(serve: Serve) -> None:
    when = email.utils.formatdate(time.time() + 2, usegmt=True)
    server: RawServer = serve(busy(1, Retry_After=when))
    result, retried = get_retrying(server.base_url + "/c.json", retries=1)
    assert isinstance(result, FetchResult)
    assert 0.5 <= retried[0].wait <= 2.0


@pytest.mark.parametrize(
    ("value", "said"),
    [("31536000", "31536000 s"), (email.utils.formatdate(time.time() + 366 * 86400), "-0000")],
    ids=["a-year-in-seconds", "a-date-next-year"],
)
def test_a_retry_after_past_the_timeout_ends_the_fetch_at_once(
    serve: Serve, value: str, said: str
) -> None:
    server: RawServer = serve(busy(5, Retry_After=value))
    started = time.monotonic()
    result, retried = get_retrying(server.base_url + "/c.json", retries=3)
    assert time.monotonic() - started < 1.0
    assert isinstance(result, HTTPStatusCodeError) and not retried
    assert "ends after the timeout)" in str(result) and said in str(result)
    assert len(server.requests) == 1


@pytest.mark.parametrize("value", ["soon", "-5", "1e9", "Mon, 99 Foo 2024", "\u00e9"])
def test_a_retry_after_that_means_nothing_falls_back_to_the_backoff(
    serve: Serve, value: str
) -> None:
    server: RawServer = serve(busy(1, Retry_After=value))
    result, retried = get_retrying(server.base_url + "/c.json", retries=1)
    assert isinstance(result, FetchResult)
    assert len(retried) == 1 and retried[0].wait <= 0.5


def test_a_refused_connection_is_tried_again_and_named(serve: Serve) -> None:
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    result, retried = get_retrying(f"http://127.0.0.1:{port}/c.json", retries=2)
    assert isinstance(result, FetchConnectError) and result.code == "network-error"
    assert str(result) == f"http://127.0.0.1:{port}/c.json: connection refused (after 2 retries)"
    refused = f"http://127.0.0.1:{port}/c.json: connection refused"
    assert [r.reason for r in retried] == [refused] * 2


# --- httpx's own transport ---


def test_the_package_builds_nothing_on_httpcore() -> None:
    """No transport, pool or network backend of th-ext's own: httpcore is never imported."""
    package = Path(__file__).resolve().parents[3] / "cli" / "th_ext"
    importing = [
        str(path.relative_to(package))
        for path in sorted(package.rglob("*.py"))
        if re.search(r"^\s*(import|from)\s+httpcore\b", path.read_text("utf-8"), re.MULTILINE)
    ]
    assert importing == []


def test_every_client_is_on_httpxs_own_transport() -> None:
    options = client_options()
    assert type(options["transport"]) is httpx.AsyncHTTPTransport
    assert options["trust_env"] is False and options["follow_redirects"] is False
