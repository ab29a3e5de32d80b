"""The card's part of conformance: CMD-7 on what the card says, and the card read through the
run's own client (an in-process agent here) with the card reader's limits and errors."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from tests.support.asgi_server import serve_app
from tests.support.raw_http import raw_server
from th_ext._exceptions import (
    CardDocumentError,
    FetchError,
    HTTPStatusCodeError,
    RedirectError,
    SourceTooLargeError,
)
from th_ext.commands._card import CardCommand, CardCommands
from th_ext.conform import Check
from th_ext.conform._run import card_check, read_card
from th_ext.net import HeaderScope
from th_ext.sources._source import SourceLimits

CARD = {"name": "agent", "supportedInterfaces": []}
WELL_KNOWN = "http://agent.test/.well-known/agent-card.json"
FULL = b'{"name": "' + b"x" * 9_988 + b'"}'
"""A card of exactly 10,000 bytes."""


def test_a_card_listing_its_commands_passes_cmd_7_and_names_them() -> None:
    listed = CardCommands(True, commands=(CardCommand("model", "m"), CardCommand("help", "h")))
    assert card_check(listed) == Check(
        "CMD-7",
        "pass",
        "card",
        "the agent card",
        "card",
        "params list the registered commands: /model, /help",
    )
    assert card_check(CardCommands(True)).detail == "params list the registered commands: none"


def test_a_card_without_the_extension_or_with_bad_params_fails_cmd_7() -> None:
    assert card_check(CardCommands(False)) == Check(
        "CMD-7", "fail", "card", "the agent card", "card", "the card does not declare the extension"
    )
    broken = card_check(CardCommands(True, problems=("a problem", "another")))
    assert (broken.status, broken.detail) == ("fail", "a problem; another")


async def _card(request: Request) -> Response:
    seen = {"accept": request.headers.get("accept"), "auth": request.headers.get("authorization")}
    return Response(json.dumps({**CARD, "seen": seen}), media_type="application/json")


async def _slow(request: Request) -> Response:
    await asyncio.sleep(5)
    return Response("{}")


async def _endless(request: Request) -> StreamingResponse:
    async def chunks() -> Any:
        for _ in range(100):
            yield b" " * 1024

    return StreamingResponse(chunks(), media_type="application/json")


async def _chunked(request: Request) -> StreamingResponse:
    async def chunks() -> Any:
        for piece in (b'{"name": ', b'"agent", "supportedInterfaces"', b": []}"):
            yield piece
            await asyncio.sleep(0.02)  # each piece is its own read

    return StreamingResponse(chunks(), media_type="application/json")


def _fixed(status: int, body: bytes) -> Any:
    async def endpoint(request: Request) -> Response:
        return Response(body, status_code=status, media_type="application/json")

    return endpoint


def _to(location: str) -> Any:
    async def endpoint(request: Request) -> Response:
        return Response(b"", status_code=302, headers={"Location": location})

    return endpoint


APP = Starlette(
    routes=[
        Route("/.well-known/agent-card.json", _card),
        Route("/other/card.json", _card),
        Route("/slow/.well-known/agent-card.json", _slow),
        Route("/big/.well-known/agent-card.json", _endless),
        Route("/gone/.well-known/agent-card.json", _fixed(404, b"")),
        Route("/moved/.well-known/agent-card.json", _fixed(301, b"")),
        Route("/broken/.well-known/agent-card.json", _fixed(200, b'{"name": ')),
        Route("/list/.well-known/agent-card.json", _fixed(200, b"[1, 2]")),
        Route("/chunked/.well-known/agent-card.json", _chunked),
        Route("/full/.well-known/agent-card.json", _fixed(200, FULL)),
        Route("/choice/.well-known/agent-card.json", _fixed(300, b"")),
        Route("/old/.well-known/agent.json", _card),
        Route("/elsewhere/.well-known/agent-card.json", _to("/other/card.json")),
    ]
)


def fetch(
    source: str,
    *,
    timeout: float = 5,
    max_bytes: int = 10_000,
    scope: HeaderScope | None = None,
    over_http: bool = False,
) -> tuple[dict[str, Any], str]:
    """Read the card from ``APP`` in-process, or ``over_http`` from a loopback server."""

    async def run() -> tuple[dict[str, Any], str]:
        transport = None if over_http else httpx.ASGITransport(app=APP)
        async with httpx.AsyncClient(transport=transport) as client:
            limits = SourceLimits(timeout=timeout, max_bytes=max_bytes)
            card, location, _ = await read_card(client, source, limits, scope or HeaderScope())
            return card, location

    return asyncio.run(run())


def test_the_card_is_read_at_the_well_known_path_with_the_headers_its_origin_may_have() -> None:
    given = [("Authorization", "Bearer t"), ("Accept", "text/html")]
    scope = HeaderScope.for_source(given, "http://agent.test")
    card, url = fetch("http://agent.test", scope=scope)
    assert url == WELL_KNOWN
    # The caller's own Accept replaces th-ext's, as it does for validate.
    assert card == {**CARD, "seen": {"accept": "text/html", "auth": "Bearer t"}}
    elsewhere = HeaderScope.for_source([("Authorization", "Bearer t")], "http://other.test")
    card, _ = fetch("http://agent.test/other/card.json", scope=elsewhere)
    assert card["seen"] == {"accept": "application/json, */*;q=0.5", "auth": None}


def test_the_card_is_read_as_validate_reads_it_through_the_fallback_and_redirects() -> None:
    card, url = fetch("http://agent.test/old")
    assert (card["name"], url) == (CARD["name"], "http://agent.test/old/.well-known/agent.json")
    card, url = fetch("http://agent.test/elsewhere")
    assert (card["name"], url) == (CARD["name"], "http://agent.test/other/card.json")


@pytest.mark.parametrize(
    ("source", "error", "message"),
    [
        (
            "http://agent.test/gone",
            HTTPStatusCodeError,
            "gone/.well-known/agent-card.json: HTTP 404 Not Found"
            " (and 404 at the deprecated /.well-known/agent.json)",
        ),
        (
            "http://agent.test/moved",
            RedirectError,
            "moved/.well-known/agent-card.json: HTTP 301 redirect without a Location header",
        ),
        (
            "http://agent.test/choice",
            HTTPStatusCodeError,
            "choice/.well-known/agent-card.json: HTTP 300 Multiple Choices",
        ),
        (
            "http://agent.test/big",
            SourceTooLargeError,
            "big/.well-known/agent-card.json: the body is larger than the cap of 10000 bytes",
        ),
    ],
)
def test_a_card_that_cannot_be_read_is_a_one_line_error(
    source: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as raised:
        fetch(source)
    assert str(raised.value) == f"http://agent.test/{message}"


def test_an_http_error_keeps_its_status_and_url() -> None:
    with pytest.raises(HTTPStatusCodeError) as raised:
        fetch("http://agent.test/gone")
    assert (raised.value.status, raised.value.url) == (
        404,
        "http://agent.test/gone/.well-known/agent-card.json",
    )


def test_a_card_sent_in_pieces_is_read_whole_up_to_the_cap_itself() -> None:
    with serve_app(lambda base: APP) as base:
        card, _ = fetch(f"{base}/chunked", max_bytes=44, over_http=True)
        assert card == CARD
        with pytest.raises(SourceTooLargeError):
            fetch(f"{base}/chunked", max_bytes=43, over_http=True)
    assert len(FULL) == 10_000
    card, _ = fetch("http://agent.test/full", max_bytes=10_000)
    assert card["name"] == "x" * 9_988
    with pytest.raises(SourceTooLargeError):
        fetch("http://agent.test/full", max_bytes=9_999)


def test_a_card_that_does_not_come_in_time_is_a_timeout() -> None:
    with pytest.raises(FetchError) as raised:
        fetch("http://agent.test/slow", timeout=0.2)
    assert str(raised.value) == (
        "http://agent.test/slow/.well-known/agent-card.json: no complete answer within 0.2 s"
    )
    assert raised.value.code == "timeout"


def test_a_transport_failure_names_the_url_and_what_went_wrong() -> None:
    with raw_server(lambda request: b"") as server, pytest.raises(FetchError) as raised:
        fetch(server.base_url + "/card.json", over_http=True)
    assert str(raised.value) == (
        f"{server.base_url}/card.json: the HTTP exchange failed "
        "(server disconnected without sending a response)"
    )
    assert raised.value.code == "network-error"
    assert type(raised.value) is FetchError


@pytest.mark.parametrize(
    ("source", "code"),
    [("broken", "invalid-json"), ("list", "not-an-object")],
)
def test_a_card_that_is_not_a_json_object_is_a_document_error(source: str, code: str) -> None:
    with pytest.raises(CardDocumentError) as raised:
        fetch(f"http://agent.test/{source}")
    assert str(raised.value).startswith(f"http://agent.test/{source}/.well-known/agent-card.json: ")
    assert raised.value.code == code
    assert raised.value.path == ""


def test_the_card_check_lists_ten_commands_each_cut_and_counts_the_rest() -> None:
    names = ["x" * 100_000, *(f"c{n}" for n in range(11))]
    extension = CardCommands(True, commands=tuple(CardCommand(n, "d") for n in names))
    check = card_check(extension)
    assert check.status == "pass"
    assert check.detail == (
        "params list the registered commands: /" + "x" * 38 + "…, /c0, /c1, /c2, /c3, /c4, "
        "/c5, /c6, /c7, /c8, … (12 in all)"
    )
