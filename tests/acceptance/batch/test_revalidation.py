"""A batch that asks for each card again politely (``check_cards`` with a ``Revalidation``),
against real servers on 127.0.0.1: ``If-None-Match`` with the tag recorded, the earlier line
carried over on a 304 that can stand for the card, and the card fetched whole otherwise."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest

from tests.acceptance.validate.conftest import CardServer, good_card, serve_routes
from tests.support.raw_http import raw_server
from th_ext.batch import FETCHED_UNCHANGED, FETCHED_WHOLE, Outcome, Revalidation, check_cards
from th_ext.demo import DemoServer
from th_ext.validate import Report

WELL_KNOWN = "/.well-known/agent-card.json"


def check(sources: list[str], revalidation: Revalidation | None = None) -> list[Outcome]:
    async def run() -> list[Outcome]:
        return [o async for o in check_cards(sources, revalidation=revalidation)]

    return sorted(asyncio.run(run()), key=lambda outcome: outcome.index)


def held(outcome: Outcome) -> Revalidation:
    """What a run that recorded ``outcome`` holds for its source."""
    assert outcome.document is not None
    tag, document = outcome.etag, outcome.document
    return Revalidation(lambda source: tag, lambda source: dict(document))


def conditional(
    etag: str, *, not_modified: dict[str, str] | None = None, changed: bool = False
) -> Any:
    """A card route with ``etag`` that answers ``If-None-Match`` with 304 (and ``not_modified``
    as its fields, by default the same ETag); ``changed`` answers every request whole."""
    body = json.dumps(good_card()).encode()

    def handle(request: BaseHTTPRequestHandler) -> None:
        if "If-None-Match" in request.headers and not changed:
            request.send_response(304)
            for name, value in (
                not_modified if not_modified is not None else {"ETag": etag}
            ).items():
                request.send_header(name, value)
            request.send_header("Content-Length", "0")
            request.end_headers()
            return
        request.send_response(200)
        request.send_header("Content-Type", "application/json")
        request.send_header("Cache-Control", "max-age=60")
        request.send_header("ETag", etag)
        request.send_header("Content-Length", str(len(body)))
        request.end_headers()
        request.wfile.write(body)

    return handle


@pytest.fixture
def server() -> Iterator[CardServer]:
    with serve_routes() as state:
        yield state


def conditions(server: CardServer) -> list[str | None]:
    return [headers.get("If-None-Match") for _, headers in server.seen]


def test_an_unchanged_card_carries_the_earlier_line_over(server: CardServer) -> None:
    server.route(WELL_KNOWN, conditional('"v1"'))
    (first,) = check([server.url()], Revalidation(lambda s: None, lambda s: None))
    assert first.document is not None and first.document["fetch"] == FETCHED_WHOLE
    assert (first.etag, first.exit_code) == ('"v1"', 0)
    (again,) = check([server.url()], held(first))
    assert conditions(server) == [None, '"v1"']
    assert again.report is None and again.exit_code == first.exit_code
    assert again.document == {**first.document, "fetch": FETCHED_UNCHANGED}
    assert again.etag == '"v1"'


def test_a_changed_card_is_fetched_whole_and_checked_again(server: CardServer) -> None:
    server.route(WELL_KNOWN, conditional('"v1"'))
    (first,) = check([server.url()])
    assert first.document is not None and "fetch" not in first.document  # no revalidation
    server.route(WELL_KNOWN, conditional('"v2"', changed=True))
    (again,) = check([server.url()], held(first))
    assert again.document is not None and again.document["fetch"] == FETCHED_WHOLE
    assert again.report is not None and again.etag == '"v2"'


@pytest.mark.parametrize(
    "fields",
    [{"ETag": '"v2"'}, {}, {"ETag": '"v1", "v2"'}],
    ids=["another tag", "no tag", "two tags"],
)
def test_a_304_that_cannot_stand_for_the_card_is_followed_by_a_whole_fetch(
    server: CardServer, fields: dict[str, str]
) -> None:
    server.route(WELL_KNOWN, conditional('"v1"'))
    (first,) = check([server.url()])
    server.route(WELL_KNOWN, conditional('"v1"', not_modified=fields))
    (again,) = check([server.url()], held(first))
    assert conditions(server) == [None, '"v1"', None]
    assert again.document is not None and again.document["fetch"] == FETCHED_WHOLE
    assert again.report is not None


def test_a_304_for_a_card_read_elsewhere_before_is_not_its_verdict(server: CardServer) -> None:
    server.route(WELL_KNOWN, conditional('"v1"'))
    (first,) = check([server.url()])
    assert first.document is not None
    elsewhere = {**first.document, "location": server.url("/another/card.json")}
    revalidation = Revalidation(lambda s: '"v1"', lambda s: elsewhere)
    (again,) = check([server.url()], revalidation)
    assert again.document is not None and again.document["fetch"] == FETCHED_WHOLE
    assert again.document["location"] == server.url(WELL_KNOWN)


def test_a_tag_with_a_control_character_is_never_recorded(server: CardServer) -> None:
    server.route(WELL_KNOWN, conditional('"v\x011"'))
    (first,) = check([server.url()])
    assert first.etag is None
    assert first.document is not None
    assert "card-etag-malformed" in [p["code"] for p in first.document["problems"]]


def test_a_304_to_a_request_without_a_condition_is_the_source_s_one_error() -> None:
    answer = b'HTTP/1.1 304 Not Modified\r\nETag: "v1"\r\nContent-Length: 2\r\n\r\n{}'
    with raw_server(lambda request: answer) as raw:
        (outcome,) = check([raw.base_url], Revalidation(lambda s: None, lambda s: None))
    assert outcome.exit_code == 2 and isinstance(outcome.report, Report)
    (problem,) = outcome.report.problems
    assert problem.code == "http-error"
    assert problem.message.endswith(
        "to a request that sent no condition (If-None-Match, If-Modified-Since)"
    )


def test_the_demo_agent_s_card_is_found_unchanged() -> None:
    with DemoServer() as agent:
        (first,) = check([agent.base_url])
        assert first.etag is not None and first.etag.startswith('W/"')
        (again,) = check([agent.base_url], held(first))
    assert again.document is not None and again.document["fetch"] == FETCHED_UNCHANGED
    assert again.exit_code == 0 and again.last_modified == first.last_modified
