"""``th-ext conform`` reports the card response's caching fields as the core rule ``A2A-8.6``
(A2A 1.0 section 8.6.1, a SHOULD), against real agents on 127.0.0.1: a pass on the demo agent,
a warning (failing only a strict run) on one whose card response forbids caching, and a skip
for a card read from a file."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from tests.support.asgi_server import serve_app
from th_ext.cli import app as cli_app
from th_ext.conform import ConformOptions, RequirementResult, run_conform
from th_ext.demo import DemoVariant
from th_ext.demo._server import CARD_PATH, build_demo_app

from .conftest import Agent

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
App = Callable[[Scope, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]], Any]
CACHING_FIELDS = (b"cache-control", b"etag", b"last-modified", b"expires")


def caching(source: str, **options: Any) -> RequirementResult:
    report = run_conform(source, ConformOptions(commands=("help",), rule_edges=False, **options))
    (found,) = [r for r in report.core if r.id == "A2A-8.6"]
    return found


def test_the_demo_agent_passes_a2a_8_6(conform_agent: Agent) -> None:
    result = caching(conform_agent(DemoVariant.CORRECT).base_url)
    assert (result.level, result.status, result.reason) == ("SHOULD", "pass", "")
    assert result.anchor_url == "https://a2a-protocol.org/latest/specification/#86-caching"
    assert [(c.status, c.detail) for c in result.checks] == [
        ("pass", "the card response carries Cache-Control, ETag, Last-Modified")
    ]


def test_a_card_read_from_a_file_skips_a2a_8_6(conform_agent: Agent, tmp_path: Path) -> None:
    card = httpx.get(conform_agent(DemoVariant.CORRECT).card_url, trust_env=False).json()
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card), encoding="utf-8")
    result = caching(str(path))
    assert (result.status, result.checks) == ("skip", [])
    assert result.reason == "the card was read from a file, not over HTTP"


def served_with(fields: list[tuple[bytes, bytes]]) -> Callable[[str], App]:
    """The demo agent, its card response's caching fields replaced by ``fields``."""

    def build(base_url: str) -> App:
        inner = build_demo_app(base_url)

        async def app(scope: Scope, receive: Any, send: Any) -> None:
            if scope["type"] != "http" or scope["path"] != CARD_PATH:
                await inner(scope, receive, send)
                return

            async def sending(message: Message) -> None:
                if message["type"] == "http.response.start":
                    kept = [(n, v) for n, v in message["headers"] if n not in CACHING_FIELDS]
                    message = {**message, "headers": [*kept, *fields]}
                await send(message)

            await inner(scope, receive, sending)

        return app

    return build


@pytest.fixture(scope="module")
def uncacheable() -> Iterator[str]:
    fields = [(b"cache-control", b"no-store"), (b"etag", b'"card\x01"')]
    with serve_app(served_with(fields)) as base_url:
        yield base_url


def test_a_card_response_that_forbids_caching_warns_on_a2a_8_6(uncacheable: str) -> None:
    result = caching(uncacheable)
    assert result.status == "warn"
    assert [(c.status, c.detail.split(":")[0]) for c in result.checks] == [
        ("fail", "card-cache-forbidden"),
        ("fail", "card-etag-malformed"),
    ]
    assert "it holds a control character" in result.checks[1].detail


@pytest.mark.parametrize(("strict", "code"), [(False, 0), (True, 1)])
def test_the_warning_fails_the_run_only_when_strict(
    uncacheable: str, strict: bool, code: int
) -> None:
    args = ["conform", uncacheable, "--command", "help", "--format", "json"]
    outcome = CliRunner().invoke(cli_app, args + (["--strict"] if strict else []))
    assert outcome.exit_code == code, outcome.stdout
    document = json.loads(outcome.stdout)
    assert document["passed"] is not strict
    assert {r["id"]: r["status"] for r in document["core"]}["A2A-8.6"] == "warn"
    assert document["core_summary"]["warn"] >= 1
