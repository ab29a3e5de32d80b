"""``th_ext.testing.conform``: the conformance kit against an ASGI application, in-process."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import pytest

from th_ext.conform import ConformOptions
from th_ext.demo._server import DemoServer, build_demo_app
from th_ext.demo._variants import DemoVariant
from th_ext.testing import ConformanceFailed, conform

BASE = "http://agent.test"
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


def test_the_demo_agent_conforms_without_a_port() -> None:
    report = conform(build_demo_app(BASE), base_url=BASE)
    assert report.passed
    assert report.agent.card_url == f"{BASE}/.well-known/agent-card.json"
    assert {r.status for r in report.requirements} <= {"pass", "skip"}
    assert report.requests > 10


def test_a_broken_agent_fails_with_the_requirement_in_the_message() -> None:
    with pytest.raises(ConformanceFailed) as raised:
        conform(build_demo_app(BASE, DemoVariant.USER_ROLE), base_url=BASE)
    assert isinstance(raised.value, AssertionError)
    assert raised.value.report.failed() == ["CMD-9"]
    lines = str(raised.value).splitlines()
    assert lines[0] == (
        f"agent {BASE}/.well-known/agent-card.json does not conform: 1 requirement failed, 0 warned"
    )
    assert lines[1].startswith("  fail CMD-9 (MUST): ")
    assert "role 'ROLE_USER'" in lines[2]


def test_options_narrow_the_run() -> None:
    report = conform(
        build_demo_app(BASE), base_url=BASE, options=ConformOptions(commands=("help",))
    )
    assert report.commands_run and all("/help" in text for text in report.commands_run)


def test_the_application_lifespan_runs_around_the_checks() -> None:
    inner = build_demo_app(BASE)
    events: list[str] = []

    async def app(scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                kind = message["type"].removeprefix("lifespan.")
                events.append(kind)
                await send({"type": f"lifespan.{kind}.complete"})
                if kind == "shutdown":
                    return
        if events[-1] != "request":
            events.append("request")
        await inner(scope, receive, send)

    conform(app, base_url=BASE)
    assert events == ["startup", "request", "shutdown"]


def test_an_application_without_lifespan_is_served_all_the_same() -> None:
    inner = build_demo_app(BASE)

    async def app(scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            raise RuntimeError("no lifespan here")
        await inner(scope, receive, send)

    assert conform(app, base_url=BASE).passed


def test_it_works_from_a_test_that_runs_an_event_loop() -> None:
    async def inside_a_loop() -> bool:
        return conform(build_demo_app(BASE), base_url=BASE).passed

    assert asyncio.run(inside_a_loop())


def test_a_running_agent_is_checked_over_http() -> None:
    with DemoServer() as server:
        assert conform(source=server.base_url).passed


def test_app_and_source_are_exclusive() -> None:
    with pytest.raises(TypeError):
        conform()
    with pytest.raises(TypeError):
        conform(build_demo_app(BASE), source=BASE)
