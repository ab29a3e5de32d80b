"""``load_card`` and ``parse_card``: a card read from a file or a loopback server, the problems
that did not stop it kept in order, and ``CardDocumentError`` saying where and what went wrong."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from tests.support.raw_http import RawServer, raw_server
from th_ext._exceptions import CardDocumentError, SourceTooLargeError
from th_ext.net import HeaderScope
from th_ext.problems._problem import Problem
from th_ext.sources._source import SourceBytes, SourceLimits
from th_ext.validate import MAX_DEPTH, LoadedCard, load_card, parse_document
from th_ext.validate._document import parse_card

CARD = b'{"name": "agent"}'


def ok(body: bytes) -> bytes:
    """A card response with the caching fields A2A 1.0 section 8.6.1 asks for."""
    head = (
        "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: application/json\r\n"
        'Cache-Control: max-age=60\r\nETag: "card"\r\n'
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


def write(tmp_path: Path, data: bytes) -> str:
    path = tmp_path / "card.json"
    path.write_bytes(data)
    return str(path)


def test_a_card_file_is_read_whole_with_its_warnings_in_document_order(tmp_path: Path) -> None:
    data = b'\xef\xbb\xbf{"name": "a", "name": "b", "score": -Infinity}'
    path = write(tmp_path, data)
    assert load_card(path) == LoadedCard(
        source=path,
        location=path,
        card={"name": "b", "score": -math.inf},
        problems=parse_document(data).problems,
    )
    assert [(p.code, p.path) for p in load_card(path).problems] == [
        ("byte-order-mark", ""),
        ("duplicate-key", "/name"),
        ("non-finite-number", "/score"),
    ]


@pytest.mark.parametrize(
    ("data", "code", "path", "message"),
    [
        (b"", "empty-document", "", "the document is empty"),
        (b" \xff", "invalid-utf8", "", "the document is not valid UTF-8 (byte 1)"),
        (b'{"a" 1}', "invalid-json", "", "not JSON: Expecting ':' delimiter at line 1 column 6"),
        (
            b"[" * 100_000,
            "too-deep",
            "/0" * MAX_DEPTH,
            f"arrays and objects are nested more than {MAX_DEPTH} deep",
        ),
        (
            b'{"a": ' * MAX_DEPTH + b"{}" + b"}" * MAX_DEPTH,
            "too-deep",
            "/a" * MAX_DEPTH,
            f"arrays and objects are nested more than {MAX_DEPTH} deep",
        ),
        (b"[1, 2]", "not-an-object", "", "the document is an array, not a JSON object"),
        (
            b'[{"a": 1, "a": 2}, {"b": 1, "b": 2}]',
            "not-an-object",
            "",
            "the document is an array, not a JSON object",
        ),
        (b'"card"', "not-an-object", "", "the document is a string, not a JSON object"),
        (b"null", "not-an-object", "", "the document is null, not a JSON object"),
    ],
)
def test_a_document_that_is_not_a_card_raises_with_its_place_and_reason(
    tmp_path: Path, data: bytes, code: str, path: str, message: str
) -> None:
    source = write(tmp_path, data)
    with pytest.raises(CardDocumentError) as caught:
        load_card(source)
    assert str(caught.value) == f"{source}: {message}"
    assert (caught.value.code, caught.value.path) == (code, path)


def test_the_byte_cap_applies_to_a_card_file(tmp_path: Path) -> None:
    path = write(tmp_path, CARD)
    with pytest.raises(SourceTooLargeError, match="larger than the cap of 10 bytes"):
        load_card(path, SourceLimits(max_bytes=10))
    assert load_card(path, SourceLimits(max_bytes=len(CARD))).card == {"name": "agent"}


def test_bytes_read_elsewhere_are_parsed_with_the_notices_of_their_reading() -> None:
    notice = Problem("warning", "deprecated-well-known-path", "", "read elsewhere", "", "source")
    raw = SourceBytes(
        "https://agent.example", "https://agent.example/x.json", b'{"a": 1, "a": 2}', "", (notice,)
    )
    loaded = parse_card(raw)
    assert (loaded.source, loaded.location, loaded.card) == (
        "https://agent.example",
        "https://agent.example/x.json",
        {"a": 2},
    )
    assert [p.code for p in loaded.problems] == ["deprecated-well-known-path", "duplicate-key"]


def test_a_card_is_read_from_a_base_url_at_the_well_known_path() -> None:
    with raw_server(lambda request: ok(CARD)) as server:
        loaded = load_card(server.base_url)
    assert (loaded.source, loaded.location, loaded.card, loaded.problems) == (
        server.base_url,
        server.base_url + "/.well-known/agent-card.json",
        {"name": "agent"},
        (),
    )


def test_a_card_that_is_not_an_object_names_the_url_it_came_from() -> None:
    with (
        raw_server(lambda request: ok(b"[]")) as server,
        pytest.raises(CardDocumentError) as caught,
    ):
        load_card(server.base_url + "/card.json")
    assert str(caught.value) == (
        f"{server.base_url}/card.json: the document is an array, not a JSON object"
    )


def _token(server: RawServer) -> str | None:
    return server.requests[0].headers.get("x-token")


def test_the_headers_of_the_limits_go_to_the_source_url() -> None:
    limits = SourceLimits(headers=(("X-Token", "secret"),))
    with raw_server(lambda request: ok(CARD)) as server:
        load_card(server.base_url + "/card.json", limits)
    assert _token(server) == "secret"


def test_a_given_header_scope_decides_where_the_headers_go() -> None:
    with raw_server(lambda request: ok(CARD)) as server:
        allowed = HeaderScope.for_source([("X-Token", "secret")], server.base_url)
        load_card(server.base_url + "/card.json", scope=allowed)
    assert _token(server) == "secret"

    with raw_server(lambda request: ok(CARD)) as server:
        nowhere = HeaderScope([("X-Token", "secret")])
        loaded = load_card(server.base_url + "/card.json", scope=nowhere)
    assert _token(server) is None
    assert [(p.severity, p.code) for p in loaded.problems] == [("warning", "header-withheld")]
