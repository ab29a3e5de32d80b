"""``--header`` values reach only the origin of the URL given and the origins named with
``header_origins`` (``th_ext.net.HeaderScope``), for the card fetch and every request to the
agent alike. Checked in-process on the demo app, recording what each host saw."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from th_ext import SourceLimits
from th_ext.conform import ConformOptions, run_conform
from th_ext.demo import build_demo_app

pytestmark = pytest.mark.slow

SECRET = ("Authorization", "Bearer s3cret")


class Recorder(httpx.AsyncBaseTransport):
    """The demo app behind an ASGI transport, noting the Authorization header per host."""

    def __init__(self, interfaces_at: str) -> None:
        self.inner = httpx.ASGITransport(app=build_demo_app(interfaces_at))
        self.seen: dict[str, set[str]] = {}

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        value = request.headers.get("authorization", "")
        self.seen.setdefault(request.url.host, set()).add(value)
        return await self.inner.handle_async_request(request)


def options(*origins: str) -> ConformOptions:
    return ConformOptions(
        commands=("help",), limits=SourceLimits(headers=(SECRET,), header_origins=origins)
    )


def test_same_origin_the_header_goes_with_every_request() -> None:
    transport = Recorder("http://agent.test")
    assert run_conform("http://agent.test", options(), transport=transport).passed
    assert transport.seen == {"agent.test": {SECRET[1]}}


def test_another_origin_never_sees_the_header_and_the_report_says_so() -> None:
    transport = Recorder("http://elsewhere.test")
    report = run_conform("http://agent.test", options(), transport=transport)
    assert report.passed
    assert transport.seen["agent.test"] == {SECRET[1]}  # the card fetch
    assert transport.seen["elsewhere.test"] == {""}
    assert any("not sent to http://elsewhere.test" in note for note in report.notes)
    assert all(SECRET[1] not in note for note in report.notes)


def test_an_origin_named_explicitly_gets_the_header() -> None:
    transport = Recorder("http://elsewhere.test")
    run_conform("http://agent.test", options("http://elsewhere.test"), transport=transport)
    assert transport.seen == {"agent.test": {SECRET[1]}, "elsewhere.test": {SECRET[1]}}


def test_a_card_file_sends_the_header_only_to_origins_named(tmp_path: Path) -> None:
    transport = Recorder("http://agent.test")

    async def card() -> dict[str, Any]:
        async with httpx.AsyncClient(transport=transport) as client:
            response = await client.get("http://agent.test/.well-known/agent-card.json")
            document: dict[str, Any] = response.json()
            return document

    import asyncio

    path = tmp_path / "card.json"
    path.write_text(json.dumps(asyncio.run(card())))
    transport.seen.clear()
    assert run_conform(str(path), options(), transport=transport).passed
    assert transport.seen == {"agent.test": {""}}
    transport.seen.clear()
    run_conform(str(path), options("http://agent.test/"), transport=transport)
    assert transport.seen == {"agent.test": {SECRET[1]}}
