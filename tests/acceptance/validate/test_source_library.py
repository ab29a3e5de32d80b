"""``load_card`` and ``read_source`` over real HTTP, as the other commands call them."""

from __future__ import annotations

import time
import zlib
from http.server import BaseHTTPRequestHandler

import pytest

from tests.acceptance.validate.conftest import CardServer, good_card, respond
from th_ext._exceptions import (
    CardDocumentError,
    FetchTimeoutError,
    HTTPStatusCodeError,
    RedirectError,
    SourceTooLargeError,
)
from th_ext.sources._source import SourceLimits, read_source
from th_ext.validate import load_card

WELL_KNOWN = "/.well-known/agent-card.json"


def test_load_card_from_a_base_url(card_server: CardServer) -> None:
    card_server.route(WELL_KNOWN, respond(200, good_card()))
    loaded = load_card(card_server.url("/"))
    assert loaded.card == good_card()
    assert loaded.location == card_server.url(WELL_KNOWN)


def test_load_card_errors_carry_their_codes(card_server: CardServer) -> None:
    card_server.route("/teapot.json", respond(418, "no"))
    card_server.route("/list.json", respond(200, "[]"))
    with pytest.raises(HTTPStatusCodeError) as caught:
        load_card(card_server.url("/teapot.json"))
    assert (caught.value.code, caught.value.status) == ("http-error", 418)
    with pytest.raises(CardDocumentError) as document:
        load_card(card_server.url("/list.json"))
    assert document.value.code == "not-an-object"


def test_deprecated_fallback_notice(card_server: CardServer) -> None:
    card_server.route("/.well-known/agent.json", respond(200, good_card()))
    loaded = load_card(card_server.url())
    assert [(p.code, p.severity) for p in loaded.problems] == [
        ("deprecated-well-known-path", "warning")
    ]


def test_timeout_bounds_the_whole_fetch(silent_server: str) -> None:
    started = time.monotonic()
    with pytest.raises(FetchTimeoutError):
        read_source(silent_server, SourceLimits(timeout=0.5))
    assert time.monotonic() - started < 0.5 + 1


@pytest.mark.parametrize(
    ("head", "drip"),
    [
        (b"HTTP/1.1 200 OK\r\n", b"X-Slow: 1\r\n"),  # headers that never end
        (b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{", b" "),  # a body of known length
    ],
    ids=["headers", "announced-body"],
)
def test_a_trickling_server_cannot_outlast_the_timeout(
    card_server: CardServer, head: bytes, drip: bytes
) -> None:
    def trickle(request: BaseHTTPRequestHandler) -> None:
        request.wfile.write(head)
        for _ in range(100):
            request.wfile.write(drip)
            request.wfile.flush()
            time.sleep(0.1)

    card_server.route("/slow.json", trickle)
    started = time.monotonic()
    with pytest.raises(FetchTimeoutError):
        read_source(card_server.url("/slow.json"), SourceLimits(timeout=1))
    assert time.monotonic() - started < 1 + 1


def test_content_length_over_the_cap_is_refused_before_reading(card_server: CardServer) -> None:
    card_server.route("/big.json", respond(200, b" " * 5000))
    with pytest.raises(SourceTooLargeError, match="announces 5000 bytes"):
        read_source(card_server.url("/big.json"), SourceLimits(max_bytes=4999))


def test_deflate_body(card_server: CardServer) -> None:
    body = zlib.compress(b'{"name": "deflated"}')
    card_server.route("/d.json", respond(200, body, {"Content-Encoding": "deflate"}))
    assert load_card(card_server.url("/d.json")).card == {"name": "deflated"}


def test_headers_stay_with_their_origin(card_server: CardServer) -> None:
    other = card_server.url("/final.json").replace("127.0.0.1", "localhost")
    card_server.route("/start.json", respond(302, headers={"Location": other}))
    card_server.route("/same.json", respond(302, headers={"Location": "/final.json"}))
    card_server.route("/final.json", respond(200, good_card()))
    limits = SourceLimits(headers=(("Authorization", "Bearer s3cret"),))
    load_card(card_server.url("/same.json"), limits)
    load_card(card_server.url("/start.json"), limits)
    sent = [(path, headers.get("Authorization")) for path, headers in card_server.seen]
    assert sent == [
        ("/same.json", "Bearer s3cret"),
        ("/final.json", "Bearer s3cret"),
        ("/start.json", "Bearer s3cret"),
        ("/final.json", None),
    ]


def test_redirect_without_location(card_server: CardServer) -> None:
    card_server.route("/r.json", respond(302))
    with pytest.raises(RedirectError) as caught:
        read_source(card_server.url("/r.json"))
    assert caught.value.code == "bad-redirect"


def test_paths_with_spaces_and_non_ascii_are_encoded(card_server: CardServer) -> None:
    card_server.route("/k%C3%A4rte%20eins.json", respond(200, good_card()))
    assert load_card(card_server.url("/kärte eins.json")).card == good_card()
    assert load_card(card_server.url("/k%C3%A4rte%20eins.json")).card == good_card()
