"""A whole conform run, in-process: the demo agent's ASGI app behind httpx's ASGI transport (no
port), so that every option and every branch of the run is checked in a fraction of a second.
What the run reads from the card, which scenarios go where, the CMD-15 header check's four
outcomes, the notes, and the report's every field."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

import httpx
import pytest
from a2a.server.context import ServerCallContext
from a2a.server.tasks import InMemoryTaskStore
from a2a.types import Task

from tests.support.signing import SigningKey, make_key
from th_ext import SourceLimits
from th_ext._exceptions import AgentUnreachableError, ConformError, SourceArgumentError
from th_ext.commands._entry import EXTENSION_URI
from th_ext.conform import Check, ConformOptions, ConformReport, RequirementResult, run_conform
from th_ext.demo._server import DemoTaskStore, build_demo_app
from th_ext.demo._variants import DemoVariant
from th_ext.net import HarRecorder
from th_ext.problems import Selection
from th_ext.report import render
from th_ext.signatures import SignatureOptions, parse_jwks, sign_card

BASE = "http://agent.test"
RPC, REST = f"{BASE}/a2a", f"{BASE}/rest"
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")


class _Hosts(httpx.AsyncBaseTransport):
    """agent.test in-process; any other host through a real transport (loopback only)."""

    def __init__(self, apps: dict[str, App]) -> None:
        self.apps = {host: httpx.ASGITransport(app=app) for host, app in apps.items()}
        self.real = httpx.AsyncHTTPTransport(trust_env=False)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        inner = self.apps.get(request.url.host, self.real)
        return await inner.handle_async_request(request)


def run(
    variant: DemoVariant = DemoVariant.CORRECT,
    source: str = BASE,
    *,
    app: App | None = None,
    others: dict[str, App] | None = None,
    **options: Any,
) -> ConformReport:
    options.setdefault("rule_edges", False)
    limits = {key: options.pop(key) for key in _LIMITS if key in options}
    apps = {"agent.test": app or build_demo_app(BASE, variant), **(others or {})}
    options = {"limits": SourceLimits(**limits), **options}
    return run_conform(source, ConformOptions(**options), transport=_Hosts(apps))


_LIMITS = ("headers", "timeout", "max_bytes", "header_origins")


def demo_card(variant: DemoVariant = DemoVariant.CORRECT) -> dict[str, Any]:
    """The demo agent's card, as its app serves it."""

    async def fetch() -> dict[str, Any]:
        transport = httpx.ASGITransport(app=build_demo_app(BASE, variant))
        async with httpx.AsyncClient(transport=transport) as client:
            card: dict[str, Any] = (await client.get(f"{BASE}/.well-known/agent-card.json")).json()
            return card

    return asyncio.run(fetch())


def card_file(
    tmp_path: Path,
    change: Callable[[dict[str, Any]], None],
    variant: DemoVariant = DemoVariant.CORRECT,
) -> str:
    """The demo agent's card, changed by ``change``, as a file (read without the transport)."""
    card = demo_card(variant)
    change(card)
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card), encoding="utf-8")
    return str(path)


def closed_port() -> str:
    with socket.socket() as bound:  # bound, not listening, closed at once: refused
        bound.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{bound.getsockname()[1]}"


def statuses(report: ConformReport) -> dict[str, str]:
    return {r.id: r.status for r in report.requirements}


# --- the report of a conformant agent ---


def sdk_store_app() -> App:
    """The demo agent on the SDK's own task store, which keeps each reply's command metadata
    on the task: what conform's note about a task's stale metadata is for."""
    return build_demo_app(BASE, task_store=InMemoryTaskStore())


def test_the_demo_agent_s_report_in_every_field() -> None:
    report = run(app=sdk_store_app())
    assert report.passed and not report.strict
    assert report.failed() == []
    agent = report.agent
    assert agent.name == "th-ext demo agent"
    assert agent.card_url == f"{BASE}/.well-known/agent-card.json"
    assert agent.extension_uri == EXTENSION_URI
    assert agent.commands == ["model", "help", "review"]
    assert agent.bindings_checked == ["JSONRPC", "HTTP+JSON"]
    assert agent.bindings_not_checked == []
    assert agent.streaming is True
    assert [(i.binding, i.url, i.status) for i in agent.interfaces] == [
        ("JSONRPC", RPC, "checked"),
        ("HTTP+JSON", REST, "checked"),
    ]
    assert report.commands_run == [
        "/model (10 times)",
        "/help (8 times)",
        "/review th-ext conform (8 times)",
    ]
    assert report.requests == 99
    # seconds, not milliseconds (the bound leaves room for a loaded machine)
    assert 0 < report.seconds < 30 and report.seconds == round(report.seconds, 3)
    assert set(statuses(report).values()) <= {"pass", "skip"}
    core, caching = report.core
    assert (core.id, core.status) == ("A2A-3.1.2", "pass")
    # the demo's card response says how long it may be kept, and carries its validators
    assert (caching.id, caching.level, caching.status) == ("A2A-8.6", "SHOULD", "pass")
    assert [c.detail for c in caching.checks] == [
        "the card response carries Cache-Control, ETag, Last-Modified"
    ]
    assert {(c.binding, c.mode) for c in core.checks} == {
        ("JSONRPC", "stream"),
        ("HTTP+JSON", "stream"),
    }
    assert report.other == []
    # the stale task metadata is noted once per binding
    assert len(report.notes) == len(set(report.notes)) == 2
    assert report.notes[0].startswith("JSONRPC: after an ordinary message the task's metadata")
    # every check names the interface and the mode it ran in
    checks = [c for r in report.requirements for c in r.checks if c.binding != "card"]
    assert {(c.binding, c.interface) for c in checks} == {("JSONRPC", RPC), ("HTTP+JSON", REST)}
    assert {c.mode for c in checks} == {"stream", "send"}
    labels = {(c.binding, c.mode, c.scenario) for c in checks}
    for binding in ("JSONRPC", "HTTP+JSON"):
        for mode in ("stream", "send"):
            assert (binding, mode, "/model, new task") in labels
            assert (binding, mode, "/model, existing task") in labels
            assert (binding, mode, "an ordinary message, existing task") in labels
    assert all(c.excerpt == "" for c in checks)
    # the card's own checks
    card_checks = sorted(
        (c.requirement, c.status, c.scenario, c.mode, c.detail)
        for r in report.requirements for c in r.checks if c.binding == "card"
    )  # fmt: skip
    assert ("CMD-15", "pass", "the agent card", "card", "required is not true") in card_checks
    # CMD-15: the command runs without the header, on each interface in its first mode
    header = _header_check(report)
    assert [(c.binding, c.mode, c.status, c.detail, c.interface) for c in header] == [
        ("JSONRPC", "stream", "pass", "the reply names the command", RPC),
        ("HTTP+JSON", "stream", "pass", "the reply names the command", REST),
    ]
    assert {c.scenario for c in header} == {"/model without A2A-Extensions, new task"}


def test_without_streaming_only_send_is_checked() -> None:
    report = run(DemoVariant.NO_STREAMING)
    assert report.passed and report.agent.streaming is False
    checks = [c for r in report.requirements for c in r.checks if c.binding != "card"]
    assert {c.mode for c in checks} == {"send"}
    assert report.core[0].status == "skip"
    assert report.requests == 51


# --- broken agents ---

FAILS = {
    DemoVariant.NO_METADATA: ["CMD-3"],
    DemoVariant.CHANGED_STATE: ["CMD-5"],
    DemoVariant.MISSING_TASK_REF: ["CMD-4"],
    DemoVariant.REPLY_AS_ARTIFACT: ["CMD-2"],
    DemoVariant.WORKING_FIRST: ["CMD-14"],
    DemoVariant.REPLY_AS_MESSAGE: ["CMD-2"],
    DemoVariant.UNREGISTERED_AS_COMMAND: ["CMD-6"],
    DemoVariant.USER_ROLE: ["CMD-9"],
    DemoVariant.SLASHED_COMMAND: ["CMD-3"],
    DemoVariant.REACHES_MODEL: ["CMD-1", "CMD-3", "CMD-5", "CMD-8", "CMD-14"],
}


@pytest.mark.parametrize("variant", list(FAILS), ids=str)
def test_a_broken_agent_fails_what_it_breaks(variant: DemoVariant) -> None:
    report = run(variant, rule_edges=variant is DemoVariant.UNREGISTERED_AS_COMMAND)
    assert report.failed() == FAILS[variant]
    assert not report.passed
    failing = [c for r in report.requirements for c in r.checks if c.status == "fail"]
    assert failing and all(c.excerpt for c in failing if c.binding != "card")


@pytest.mark.parametrize("variant", [DemoVariant.CHANGED_STATE, DemoVariant.REPLY_AS_MESSAGE])
def test_a_task_that_ended_is_replaced_and_noted(variant: DemoVariant) -> None:
    state = "COMPLETED" if variant is DemoVariant.CHANGED_STATE else "FAILED"
    report = run(variant)
    assert report.notes == [
        f"{where} {mode}: the task ended in TASK_STATE_{state}, so the next scenarios use a "
        "new task"
        for where in (f"JSONRPC {RPC}", f"HTTP+JSON {REST}")
        for mode in ("stream", "send")
    ]
    # every scenario still ran, each existing-task one on a new task
    assert (
        report.requests
        == {DemoVariant.CHANGED_STATE: 123, DemoVariant.REPLY_AS_MESSAGE: 115}[variant]
    )
    if variant is DemoVariant.CHANGED_STATE:
        failing = [c for r in report.requirements if r.id == "CMD-5" for c in r.checks]
        assert any(c.status == "fail" and "existing task" in c.scenario for c in failing)


@pytest.mark.parametrize(
    ("variant", "strict", "passed"),
    [
        (DemoVariant.UNNAMED_TASK, False, True),
        (DemoVariant.UNNAMED_TASK, True, False),
        (DemoVariant.EVENT_ONLY, False, True),
        (DemoVariant.EVENT_ONLY, True, False),
        (DemoVariant.CORRECT, True, True),
    ],
)
def test_a_should_fails_the_run_only_when_strict(
    variant: DemoVariant, strict: bool, passed: bool
) -> None:
    report = run(variant, strict=strict)
    assert report.passed is passed and report.strict is strict


# --- options ---


def test_commands_and_skip_commands_choose_what_runs() -> None:
    assert run(commands=("help",)).commands_run == ["/help (10 times)"]
    only = run(skip_commands=("help", "model")).commands_run
    assert only == ["/review th-ext conform (10 times)"]


@pytest.mark.parametrize("option", ["commands", "skip_commands"])
def test_a_command_not_on_the_card_is_refused_before_anything_is_sent(option: str) -> None:
    with pytest.raises(ConformError) as raised:
        options: dict[str, Any] = {option: ("help", "nope")}
        run(**options)
    assert (
        str(raised.value)
        == "/nope is not registered on the card (registered: /model, /help, /review)"
    )


def test_max_commands_names_the_commands_it_leaves_out(tmp_path: Path) -> None:
    extra = [{"name": f"c{n}", "description": "x"} for n in range(57)]

    def more(card: dict[str, Any]) -> None:
        entry = card["capabilities"]["extensions"][0]
        entry["params"]["commands"] += extra

    report = run(source=card_file(tmp_path, more), max_commands=1)
    named = ", ".join(["/help", "/review", *[f"/c{n}" for n in range(48)]])
    assert report.notes[0] == (
        f"59 commands over --max-commands 1 were not exercised: {named} and 9 more"
    )
    assert report.commands_run == ["/model (10 times)"]
    report = run(max_commands=2)
    assert report.notes[0] == "1 command over --max-commands 2 was not exercised: /review"
    assert run(max_commands=3, app=sdk_store_app()).notes[0].startswith("JSONRPC: after")


def test_bindings_and_levels_narrow_the_run() -> None:
    report = run(bindings=("HTTP+JSON",), levels=("SHOULD",))
    assert report.agent.bindings_checked == ["HTTP+JSON"]
    assert {r.level for r in report.requirements} == {"SHOULD"}
    checks = [c for r in report.requirements for c in r.checks if c.binding != "card"]
    assert checks and {c.binding for c in checks} == {"HTTP+JSON"}


def test_levels_narrow_the_core_section_too() -> None:
    assert [r.id for r in run(levels=("SHOULD",)).core] == ["A2A-8.6"]
    assert [r.id for r in run(levels=("MUST",)).core] == ["A2A-3.1.2"]
    assert [r.id for r in run(levels=("MAY",)).core] == []
    assert [r.id for r in run(selection=Selection(ignore=("A2A-8.6",))).core] == ["A2A-3.1.2"]


def test_the_edges_of_the_rule_go_to_each_interface_once_in_its_first_mode() -> None:
    plain, edged = run(), run(rule_edges=True)
    assert edged.requests > plain.requests
    edges = {c.scenario for r in edged.requirements for c in r.checks} - {
        c.scenario for r in plain.requirements for c in r.checks
    }
    assert edges
    edge_checks = [c for r in edged.requirements for c in r.checks if c.scenario in edges]
    assert {c.mode for c in edge_checks} == {"stream"}
    assert {c.binding for c in edge_checks} == {"JSONRPC", "HTTP+JSON"}


def test_the_callers_headers_go_only_to_the_origins_allowed(tmp_path: Path) -> None:
    source = card_file(tmp_path, lambda card: None)
    secret = (("Authorization", "Bearer s3cret"),)
    withheld = run(source=source, headers=secret)
    assert withheld.notes[-1] == (
        "the --header value was not sent to http://agent.test: it is not the origin of the URL "
        "given (allow it with --header-origin)"
    )
    allowed = run(source=source, headers=secret, header_origins=(BASE,))
    assert not any("--header" in note for note in allowed.notes)


# --- cards conform cannot check ---


def test_an_a2a_0_3_card_is_refused(tmp_path: Path) -> None:
    def old(card: dict[str, Any]) -> None:
        del card["supportedInterfaces"]
        card["url"] = RPC

    with pytest.raises(ConformError) as raised:
        run(source=card_file(tmp_path, old))
    assert str(raised.value) == "this is an A2A 0.3 card; conform needs an A2A 1.0 card"


def test_a_card_without_the_extension_is_refused(tmp_path: Path) -> None:
    def bare(card: dict[str, Any]) -> None:
        card["capabilities"]["extensions"] = [{"uri": "https://x.test/ext/v1"}]

    with pytest.raises(ConformError) as raised:
        run(source=card_file(tmp_path, bare))
    assert (
        str(raised.value) == f"the card does not declare the commands extension ({EXTENSION_URI})"
    )


def test_an_agent_that_cannot_be_reached_is_one_error(tmp_path: Path) -> None:
    gone = closed_port()

    def moved(card: dict[str, Any]) -> None:
        for entry in card["supportedInterfaces"]:
            entry["url"] = entry["url"].replace(BASE, gone)

    with pytest.raises(AgentUnreachableError) as raised:
        run(source=card_file(tmp_path, moved))
    assert str(raised.value).startswith(
        f"the agent cannot be reached at {gone}/a2a: cannot connect"
    )


def test_one_unreachable_interface_is_shown_and_the_others_are_checked(tmp_path: Path) -> None:
    gone = closed_port()

    def half(card: dict[str, Any]) -> None:
        card["supportedInterfaces"][1]["url"] = f"{gone}/rest"

    report = run(source=card_file(tmp_path, half))
    assert report.passed
    assert report.agent.bindings_checked == ["JSONRPC"]
    (rpc, rest) = report.agent.interfaces
    assert (rpc.status, rest.status) == ("checked", "unreachable")
    assert rest.reason.startswith("cannot connect")
    # CMD-15's header check goes only to the interface that answered
    header = [c for r in report.requirements if r.id == "CMD-15" for c in r.checks]
    assert {c.binding for c in header} == {"card", "JSONRPC"}


def test_an_interface_that_cannot_be_reached_is_a_core_warning_in_every_format(
    tmp_path: Path,
) -> None:
    gone = closed_port()

    def half(card: dict[str, Any]) -> None:
        card["supportedInterfaces"][1]["url"] = f"{gone}/rest"

    source = card_file(tmp_path, half)
    report = run(source=source)
    assert report.passed
    assert report.agent.bindings_not_checked == ["HTTP+JSON"]
    (warned,) = [r for r in report.core if r.id == "A2A-5.1"]
    assert warned.status == "warn"
    (failed,) = warned.checks
    assert failed.binding == "HTTP+JSON"
    assert failed.detail.startswith(f"{gone}/rest cannot be reached: cannot connect")
    assert not run(source=source, strict=True).passed
    assert "A2A-5.1" not in [r.id for r in run(source=source, levels=("SHOULD",)).core]
    for format_name in ("text", "json", "junit", "github", "sarif", "html"):
        assert f"{gone}/rest cannot be reached" in render(report, format_name), format_name
    assert "; not checked: HTTP+JSON" in render(report, "text")


async def _status(send: Send, status: int, body: bytes) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json")]})  # fmt: skip
    await send({"type": "http.response.body", "body": body})


def _failing(status: int) -> App:
    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        await _status(send, status, b'{"error": {"message": "down"}}')

    return app


def test_an_interface_that_answers_with_an_error_is_noted_and_left(tmp_path: Path) -> None:
    def second(card: dict[str, Any]) -> None:
        card["supportedInterfaces"][1]["url"] = "http://broken.test/rest"

    report = run(source=card_file(tmp_path, second), others={"broken.test": _failing(500)})
    assert (
        "HTTP+JSON http://broken.test/rest stream: no answer (HTTP 500 Internal Server Error: "
        "down); the other scenarios on it were not run"
    ) in report.notes
    assert "HTTP+JSON http://broken.test/rest send: no answer" in "\n".join(report.notes)
    assert not report.passed


# --- CMD-15: the command runs without the A2A-Extensions header ---


async def _body(receive: Receive) -> bytes:
    body = b""
    while True:
        message = await receive()
        body += bytes(message.get("body", b""))
        if not message.get("more_body"):
            return body


def _replay(body: bytes, receive: Receive) -> Receive:
    """``receive`` that gives ``body`` first, as the request's whole body."""
    sent = False

    async def again() -> MutableMapping[str, Any]:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return again


async def _empty_stream(send: Send) -> None:
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"text/event-stream")]})  # fmt: skip
    await send({"type": "http.response.body", "body": b""})


def _gated(how: str, variant: DemoVariant = DemoVariant.CORRECT) -> App:
    """The demo agent, except for a message sent without ``A2A-Extensions``: refused with HTTP
    400 (``refuse``), answered with an empty stream (``empty``), or taken as plain text, its
    slash taken off (``model``)."""
    inner = build_demo_app(BASE, variant)

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope.get("headers") or [])
        if scope["type"] != "http" or b"a2a-extensions" in headers or scope["method"] != "POST":
            await inner(scope, receive, send)
            return
        body = await _body(receive)
        if how == "refuse":
            await _status(send, 400, b'{"error": {"message": "extension required"}}')
        elif how == "empty":
            await _empty_stream(send)
        elif how == "garbage":
            await _status(send, 200, b"not json")
        else:
            await inner(scope, _replay(body.replace(b'"text": "/', b'"text": "'), receive), send)

    return app


def test_an_empty_answer_without_the_header_fails_as_no_answer() -> None:
    checks = _header_check(run(app=_gated("empty")))
    assert [c.detail for c in checks] == ["no answer: the agent sent nothing"] * 2
    assert [c.mode for c in checks] == ["stream"] * 2


def test_an_answer_that_is_not_one_without_the_header_is_no_refusal() -> None:
    checks = _header_check(run(app=_gated("garbage")))
    assert {c.status for c in checks} == {"fail"}
    assert all(c.detail.startswith("no answer: ") for c in checks), checks


def _header_check(report: ConformReport) -> list[Any]:
    return [
        c for r in report.requirements if r.id == "CMD-15" for c in r.checks if c.binding != "card"
    ]


def test_a_request_refused_without_the_header_fails_cmd_15() -> None:
    report = run(app=_gated("refuse"))
    checks = _header_check(report)
    assert {c.status for c in checks} == {"fail"}
    assert checks[1].detail == "refused: HTTP 400 Bad Request: extension required"
    assert all(c.excerpt for c in checks)
    assert report.failed() == ["CMD-15"]
    assert report.commands_run[0] == "/model (10 times)"


def test_a_command_that_reaches_the_model_without_the_header_fails_cmd_15() -> None:
    report = run(app=_gated("model"))
    checks = _header_check(report)
    assert [c.detail for c in checks] == [
        "with the header the reply names the command; without it no answer does "
        "(the command did not run)"
    ] * 2
    assert all(c.excerpt for c in checks)
    assert report.failed() == ["CMD-15"]
    assert report.commands_run[0] == "/model (12 times)"


def test_with_the_metadata_on_the_event_only_send_compares_the_two_replies(tmp_path: Path) -> None:
    def no_stream(card: dict[str, Any]) -> None:
        card["capabilities"]["streaming"] = False

    report = run(
        DemoVariant.EVENT_ONLY, source=card_file(tmp_path, no_stream, DemoVariant.EVENT_ONLY)
    )
    checks = _header_check(report)
    assert [(c.status, c.detail) for c in checks] == [
        ("pass", "neither reply names the command; without the header the reply says the same")
    ] * 2
    assert all(c.excerpt == "" for c in checks)


def test_it_runs_inside_a_running_event_loop() -> None:
    async def inside() -> ConformReport:
        return run()

    assert asyncio.run(inside()).passed


def test_with_the_metadata_on_the_event_only_a_different_answer_fails(tmp_path: Path) -> None:
    def no_stream(card: dict[str, Any]) -> None:
        card["capabilities"]["streaming"] = False

    source = card_file(tmp_path, no_stream, DemoVariant.EVENT_ONLY)
    report = run(source=source, app=_gated("model", DemoVariant.EVENT_ONLY))
    checks = _header_check(report)
    assert [(c.status, c.detail) for c in checks] == [
        ("fail", "neither reply names the command, and without the header the answer differs")
    ] * 2
    assert all(c.excerpt for c in checks)
    assert report.commands_run[0] == "/model (8 times)"


def test_the_card_s_required_true_fails_cmd_15(tmp_path: Path) -> None:
    def required(card: dict[str, Any]) -> None:
        card["capabilities"]["extensions"][0]["required"] = True

    report = run(source=card_file(tmp_path, required))
    (card_check,) = [
        c for r in report.requirements if r.id == "CMD-15" for c in r.checks if c.binding == "card"
    ]
    assert (card_check.status, card_check.mode, card_check.scenario) == (
        "fail", "card", "the agent card"
    )  # fmt: skip
    assert card_check.detail == (
        "the card marks the extension required: true, so an A2A server refuses a request "
        "without A2A-Extensions (-32008) and its commands never run"
    )
    assert card_check.interface == card_check.excerpt == ""
    assert report.failed() == ["CMD-15"]


# --- what goes to each interface ---


Seen = list[tuple[str, str, bytes, dict[bytes, bytes]]]


def _recording(inner: App, seen: Seen) -> App:
    """``inner``, keeping each request's method, path, body and headers."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await inner(scope, receive, send)
            return
        body = await _body(receive)
        seen.append((scope["method"], scope["path"], body, dict(scope["headers"])))
        await inner(scope, _replay(body, receive), send)

    return app


def test_each_interface_s_tenant_goes_with_every_request(tmp_path: Path) -> None:
    def tenants(card: dict[str, Any]) -> None:
        for entry in card["supportedInterfaces"]:
            entry["tenant"] = "acme"

    seen: Seen = []
    run(source=card_file(tmp_path, tenants), app=_recording(build_demo_app(BASE), seen))
    rest = [path for _, path, _, _ in seen if path.startswith("/rest")]
    rpc = [json.loads(body) for _, path, body, _ in seen if path == "/a2a"]
    # every request says the A2A version; all but CMD-15's declare the extension
    assert {headers[b"a2a-version"] for *_, headers in seen} == {b"1.0"}
    declared = [headers.get(b"a2a-extensions") for *_, headers in seen]
    assert declared.count(None) == 2 and set(declared) == {EXTENSION_URI.encode(), None}
    assert rest and all(path.startswith("/rest/acme/") for path in rest)
    assert rpc and all(call["params"]["tenant"] == "acme" for call in rpc)


def _silent(seconds: float) -> App:
    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        await asyncio.sleep(seconds)
        await _status(send, 500, b"{}")

    return app


def test_the_timeout_bounds_every_exchange(tmp_path: Path) -> None:
    def second(card: dict[str, Any]) -> None:
        card["supportedInterfaces"][1]["url"] = "http://slow.test/rest"

    report = run(source=card_file(tmp_path, second), others={"slow.test": _silent(5)}, timeout=0.5)
    rest = report.agent.interfaces[1]
    assert (rest.status, rest.reason) == ("unreachable", "no complete answer within 0.5 s")
    assert report.seconds < 4


def _no_get_task(answer: bytes) -> App:
    """The demo agent, except that ``GetTask`` (either binding) answers ``answer`` as its
    JSON-RPC result, or for HTTP+JSON as the body (HTTP 404 when it is an error)."""
    inner = build_demo_app(BASE)

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET" and "/tasks/" in scope["path"]:
            error = answer.startswith(b'{"error"')
            await _status(send, 404 if error else 200, answer)
            return
        if scope["type"] != "http" or scope["path"] != "/a2a":
            await inner(scope, receive, send)
            return
        body = await _body(receive)
        call = json.loads(body)
        if call.get("method") != "GetTask":
            await inner(scope, _replay(body, receive), send)
            return
        value = json.loads(answer)
        reply = {"jsonrpc": "2.0", "id": call["id"]}
        reply |= value if "error" in value else {"result": value}
        await _status(send, 200, json.dumps(reply).encode())

    return app


@pytest.mark.parametrize(
    ("answer", "rpc_why", "rest_why"),
    [
        (
            b'{"error": {"code": -32001, "message": "Task not found"}}',
            "JSON-RPC error -32001: Task not found",
            "HTTP 404 Not Found: Task not found",
        ),
        (b'"a task"', "the answer is not a task (it has no id)", "the answer is not a JSON object"),
        # A task has an id, which the next scenario is sent to: these are no tasks.
        *(
            (
                answer,
                "the answer is not a task (it has no id)",
                "the answer is not a task (it has no id)",
            )
            for answer in (
                b'{"task": {"id": "t1", "contextId": "c1"}}',
                b'{"contextId": "c1", "status": {"state": "TASK_STATE_WORKING"}}',
                b'{"id": 7, "contextId": "c1"}',
                b'{"id": ""}',
            )
        ),
    ],
)
def test_a_task_get_task_cannot_read_is_noted_with_why_and_its_scenarios_left(
    answer: bytes, rpc_why: str, rest_why: str
) -> None:
    report = run(app=_no_get_task(answer))
    assert report.notes == [
        f"{where} {mode}: an ordinary message created no task that GetTask can read "
        f"(GetTask: {why}); the existing-task scenarios were not run"
        for where, why in ((f"JSONRPC {RPC}", rpc_why), (f"HTTP+JSON {REST}", rest_why))
        for mode in ("stream", "send")
    ]
    existing = [c for r in report.requirements for c in r.checks if "existing" in c.scenario]
    assert existing == []


def _get_task_breaks_off() -> App:
    """The demo agent, except that HTTP+JSON ``GetTask`` answers with a stream whose first
    event is the task and whose second is not JSON."""
    inner = build_demo_app(BASE)

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/rest/tasks/"):
            await inner(scope, receive, send)
            return
        task = {**TASK, "id": scope["path"].rsplit("/", 1)[-1]}
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"text/event-stream")]})  # fmt: skip
        body = f"data: {json.dumps(task)}\n\ndata: {{\n\n".encode()
        await send({"type": "http.response.body", "body": body})

    return app


def test_a_task_whose_get_task_answer_breaks_off_is_not_read() -> None:
    report = run(app=_get_task_breaks_off())
    assert report.notes == [
        f"HTTP+JSON {REST} {mode}: an ordinary message created no task that GetTask can read "
        "(GetTask: the answer is not valid JSON); the existing-task scenarios were not run"
        for mode in ("stream", "send")
    ]
    existing = {
        c.binding for r in report.requirements for c in r.checks if "existing" in c.scenario
    }
    assert existing == {"JSONRPC"}


@pytest.mark.parametrize(
    ("variant", "fresh", "reads"),
    [(DemoVariant.CORRECT, 1, 14), (DemoVariant.CHANGED_STATE, 2, 16)],
)
def test_each_group_sends_every_message_in_its_own_mode(
    variant: DemoVariant, fresh: int, reads: int
) -> None:
    seen: Seen = []
    app = _recording(build_demo_app(BASE, variant), seen)
    run(variant, app=app, commands=("help",), bindings=("JSONRPC",))
    methods = [json.loads(body)["method"] for _, path, body, _ in seen if path == "/a2a"]
    # each mode: three scenarios on a new task, a fresh task (two when /help ends the first),
    # the three on it; then the header check in the first mode (streaming); GetTask after
    # every message but the check
    assert methods.count("SendStreamingMessage") == 3 + fresh + 3 + 1
    assert methods.count("SendMessage") == 3 + fresh + 3
    assert methods.count("GetTask") == reads


def test_an_existing_task_s_state_is_compared_with_get_task_before_the_message() -> None:
    report = run(commands=("model",), bindings=("JSONRPC",))
    details = {
        (c.scenario, c.mode): c.detail
        for r in report.requirements
        if r.id == "CMD-5"
        for c in r.checks
    }
    steady = "TASK_STATE_INPUT_REQUIRED"
    assert details == {
        ("/model, new task", mode): "TASK_STATE_SUBMITTED in the reply, TASK_STATE_SUBMITTED after"
        for mode in ("stream", "send")
    } | {
        ("/model, existing task", mode): (
            f"{steady} before (GetTask before), {steady} in the reply, {steady} after"
        )
        for mode in ("stream", "send")
    }


def _rpc_error_for(text: bytes, inner: App) -> App:
    """``inner``, except that a JSON-RPC message holding ``text`` is answered with an error."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != "/a2a":
            await inner(scope, receive, send)
            return
        body = await _body(receive)
        call = json.loads(body)
        if call["method"] == "GetTask" or text not in body:
            await inner(scope, _replay(body, receive), send)
            return
        error = {"code": -32603, "message": "busy"}
        await _status(
            send, 200, json.dumps({"jsonrpc": "2.0", "id": call["id"], "error": error}).encode()
        )

    return app


def test_an_error_answer_after_the_first_message_leaves_the_group_running() -> None:
    plain = run(bindings=("JSONRPC",))
    report = run(app=_rpc_error_for(b'"/help"', build_demo_app(BASE)), bindings=("JSONRPC",))
    assert report.notes == []  # no group stopped
    assert report.commands_run == plain.commands_run
    assert report.requests == plain.requests - 2  # no task to read after the errors on a new task
    failing = {c.scenario for r in report.requirements for c in r.checks if c.status == "fail"}
    assert failing == {"/help, new task", "/help, existing task"}


def _no_snapshot() -> App:
    """The demo agent, except that a stream's first event (the Task) is left out."""
    inner = build_demo_app(BASE)

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        dropped = False

        async def without_the_task(message: MutableMapping[str, Any]) -> None:
            nonlocal dropped
            body = message.get("body", b"")
            if message["type"] == "http.response.body" and not dropped and b'"task"' in body:
                dropped = b"data:" in body
                message = {**message, "body": b""} if dropped else message
            await send(message)

        await inner(scope, receive, without_the_task)

    return app


def test_a_stream_that_does_not_begin_with_the_task_warns_on_a2a_3_1_2() -> None:
    report = run(app=_no_snapshot())
    core, _ = report.core
    assert core.status == "warn"
    failing = [c for c in core.checks if c.status == "fail"]
    assert failing and {c.mode for c in failing} == {"stream"}
    assert failing[0].detail == "the stream began with statusUpdate, not the Task"
    assert all(c.excerpt.startswith("statusUpdate ") for c in failing)
    assert report.passed and report.failed() == []


def test_the_host_extensions_payloads_are_gathered_from_every_answer(tmp_path: Path) -> None:
    from tests.support.host_schemas import make_host_schemas
    from tests.support.tiny_harness_agent import build_tiny_harness_app
    from th_ext.catalog._family import schemas_from_folder

    commands = (Path(__file__).parents[3] / "extensions/commands/v1/schema.json").read_bytes()
    family = tuple(schemas_from_folder(make_host_schemas(tmp_path / "ext", commands)))
    base = f"{BASE}/"
    report = run(source=base, app=build_tiny_harness_app(base, media=False), family=family)
    by_key = {r.key: r for r in report.other}
    assert [(key, r.status) for key, r in by_key.items()] == [
        ("task/v1", "pass"), ("channel/v1", "skip"), ("status/v1", "pass")
    ]  # fmt: skip
    # every answer's payloads, from every group: dozens, not the last answer's few
    assert by_key["task/v1"].checked > 40 and by_key["status/v1"].checked > 40


@pytest.mark.parametrize("strict", [False, True])
def test_a_host_extension_s_warning_fails_the_run_only_when_strict(
    tmp_path: Path, strict: bool
) -> None:
    from tests.support.host_schemas import make_host_schemas, status_schema
    from tests.support.tiny_harness_agent import build_tiny_harness_app
    from th_ext.catalog._family import schemas_from_folder

    commands = (Path(__file__).parents[3] / "extensions/commands/v1/schema.json").read_bytes()
    folder = make_host_schemas(tmp_path / "ext", commands)
    narrow = status_schema()
    narrow["properties"]["sub_state"]["enum"] = ["awaiting-answer"]
    (folder / "status.json").write_text(json.dumps(narrow), encoding="utf-8")
    base = f"{BASE}/"
    report = run(
        source=base,
        app=build_tiny_harness_app(base, media=False),
        family=tuple(schemas_from_folder(folder)),
        commands=("model",),
        strict=strict,
    )
    status = next(r for r in report.other if r.key == "status/v1")
    assert status.status == "warn"
    assert report.passed is (not strict and report.failed() == [])


def test_a_card_url_without_a_transport_is_fetched_and_counted() -> None:
    from tests.support.asgi_server import serve_app

    seen: Seen = []
    secret = (("Authorization", "Bearer s3cret"),)
    with serve_app(lambda url: _recording(build_demo_app(url), seen)) as base:
        report = run_conform(
            base, ConformOptions(rule_edges=False, limits=SourceLimits(headers=secret))
        )
    assert report.passed
    assert not any("--header" in note for note in report.notes)
    assert all(headers[b"authorization"] == b"Bearer s3cret" for *_, headers in seen)
    assert seen[0][:2] == ("GET", "/.well-known/agent-card.json")
    assert report.requests == 99  # the card, then 98 exchanges, as in-process


def _changing(inner: App) -> App:
    """``inner``, given every ordinary message changed (as an agent that rewrites a message
    before its model would record it)."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await inner(scope, receive, send)
            return
        body = (await _body(receive)).replace(b"What is A2A?", b"What is A2A, really?")
        await inner(scope, _replay(body, receive), send)

    return app


def test_an_agent_that_changes_the_message_fails_cmd_8_on_new_and_existing_tasks() -> None:
    report = run(app=_changing(build_demo_app(BASE)))
    assert report.failed() == ["CMD-8"]
    failing = [c for r in report.requirements if r.id == "CMD-8" for c in r.checks]
    scenarios = {c.scenario for c in failing if c.status == "fail"}
    assert {"an ordinary message, new task", "an ordinary message, existing task"} <= scenarios


def _fails_once(inner: App) -> App:
    """``inner``, except that the very first message it is sent gets HTTP 500."""
    failed = False

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        nonlocal failed
        if scope["type"] == "http" and scope["method"] == "POST" and not failed:
            failed = True
            await _body(receive)
            await _status(send, 500, b"{}")
            return
        await inner(scope, receive, send)

    return app


def test_a_group_whose_first_message_gets_no_answer_stops_with_a_note() -> None:
    report = run(app=_fails_once(build_demo_app(BASE)))
    stopped = [note for note in report.notes if "no answer" in note]
    assert len(stopped) == 1
    assert stopped[0].endswith(
        ": no answer (HTTP 500 Internal Server Error); the other scenarios on it were not run"
    )


TASK: dict[str, Any] = {"id": "t1", "contextId": "c1", "status": {"state": "TASK_STATE_WORKING"}}


def _mute(inner: App, reply: Any = None) -> App:
    """``inner`` for the card; every message is answered with ``reply`` (by default a working
    task that says nothing: no status message), and GetTask with that task."""
    reply = {"task": TASK} if reply is None else reply

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith("/.well-known"):
            await inner(scope, receive, send)
            return
        body = await _body(receive)
        if scope["path"] == "/a2a":
            call = json.loads(body)
            result = TASK if call["method"] == "GetTask" else reply
            answer = {"jsonrpc": "2.0", "id": call["id"], "result": result}
        else:
            answer = TASK if scope["method"] == "GET" else reply
        await _status(send, 200, json.dumps(answer).encode())

    return app


def test_two_replies_that_say_nothing_are_not_the_same_reply(tmp_path: Path) -> None:
    def no_stream(card: dict[str, Any]) -> None:
        card["capabilities"]["streaming"] = False

    report = run(source=card_file(tmp_path, no_stream), app=_mute(build_demo_app(BASE)))
    assert [(c.status, c.detail) for c in _header_check(report)] == [
        ("fail", "neither reply names the command, and without the header the answer differs")
    ] * 2


def _saying(*parts: Any) -> dict[str, Any]:
    message = {"role": "ROLE_AGENT", "messageId": "m1", "parts": list(parts)}
    return {"task": {**TASK, "status": {**TASK["status"], "message": message}}}


@pytest.mark.parametrize(
    "reply",
    [_saying(), _saying({"data": {"a": 1}}, {"text": "x"}), "a reply"],
    ids=["no part", "data first", "not an object"],
)
def test_replies_with_no_text_first_are_not_the_same_reply(tmp_path: Path, reply: Any) -> None:
    def no_stream(card: dict[str, Any]) -> None:
        card["capabilities"]["streaming"] = False

    report = run(source=card_file(tmp_path, no_stream), app=_mute(build_demo_app(BASE), reply))
    (rpc,) = [c for c in _header_check(report) if c.binding == "JSONRPC"]
    assert (rpc.status, rpc.detail) == (
        "fail",
        "neither reply names the command, and without the header the answer differs",
    )


def test_a_card_s_odd_corners(tmp_path: Path) -> None:
    def odd(card: dict[str, Any]) -> None:
        del card["name"]
        card["url"] = RPC  # beside supportedInterfaces: still a 1.0 card
        card["supportedInterfaces"].append({"protocolBinding": "GRPC", "url": f"{BASE}:1"})

    report = run(source=card_file(tmp_path, odd))
    assert report.passed
    assert report.agent.name == ""
    assert report.agent.bindings_not_checked == ["GRPC"]
    assert any("GRPC" in note for note in report.notes)
    assert report.requests == 98  # a card file is read without a request
    assert report.requirements[0].anchor_url == f"{EXTENSION_URI}#cmd-1"


def test_a_card_without_commands_says_none_are_registered(tmp_path: Path) -> None:
    def empty(card: dict[str, Any]) -> None:
        card["capabilities"]["extensions"][0]["params"]["commands"] = []

    with pytest.raises(ConformError) as raised:
        run(source=card_file(tmp_path, empty), commands=("help",))
    assert str(raised.value) == "/help is not registered on the card (registered: none)"


def _redirect(to: str) -> App:
    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        await _body(receive)
        await send({"type": "http.response.start", "status": 307,
                    "headers": [(b"location", (to + scope["path"]).encode())]})  # fmt: skip
        await send({"type": "http.response.body", "body": b""})

    return app


def test_a_redirect_is_not_followed(tmp_path: Path) -> None:
    def moved(card: dict[str, Any]) -> None:
        card["supportedInterfaces"][1]["url"] = "http://moved.test/rest"

    report = run(source=card_file(tmp_path, moved), others={"moved.test": _redirect(BASE)})
    assert any(
        note.startswith("HTTP+JSON http://moved.test/rest stream: no answer (")
        for note in report.notes
    )


def test_exactly_fifty_commands_left_out_are_all_named(tmp_path: Path) -> None:
    def more(card: dict[str, Any]) -> None:
        entry = card["capabilities"]["extensions"][0]
        entry["params"]["commands"] += [{"name": f"c{n}", "description": "x"} for n in range(50)]

    report = run(source=card_file(tmp_path, more), max_commands=3, commands=())
    named = ", ".join(f"/c{n}" for n in range(50))
    assert report.notes[0] == (f"50 commands over --max-commands 3 were not exercised: {named}")


def test_a_card_file_over_max_bytes_is_refused(tmp_path: Path) -> None:
    from th_ext._exceptions import ThExtError

    source = card_file(tmp_path, lambda card: None)
    with pytest.raises(ThExtError) as raised:
        run(source=source, max_bytes=100)
    assert "100" in str(raised.value)


def test_the_callers_headers_go_to_a_card_url_s_own_origin() -> None:
    report = run(headers=(("Authorization", "Bearer s3cret"),), commands=("help",))
    assert not any("--header" in note for note in report.notes)


def test_a_schema_that_changed_from_its_pin_is_a_warning(tmp_path: Path) -> None:
    from tests.support.host_schemas import URIS
    from tests.support.tiny_harness_agent import build_tiny_harness_app

    base = f"{BASE}/"
    changed = ((URIS["status"], "the fetched schema differs from its pin"),)
    report = run(
        source=base,
        app=build_tiny_harness_app(base, media=False),
        commands=("model",),
        family_changed=changed,
    )
    status = next(r for r in report.other if r.key == "status/v1")
    assert (status.status, status.problems) == ("warn", ["the fetched schema differs from its pin"])


def test_the_demo_agent_leaves_no_command_metadata_on_its_tasks() -> None:
    """The reference agent's tasks keep no reply's command metadata, so a run of it has no note
    about it; the SDK's own store keeps it, and the note appears (the note can fire)."""
    assert run().notes == []
    assert run(rule_edges=True).notes == []
    noted = run(app=sdk_store_app()).notes
    assert [note.split(":")[0] for note in noted] == ["JSONRPC", "HTTP+JSON"]
    assert all("still holds command" in note for note in noted)


def test_the_demo_task_store_drops_only_the_reply_metadata() -> None:
    store = DemoTaskStore()
    context = ServerCallContext()
    task = Task(id="t1", context_id="c1")
    task.metadata.update({"command": "review", "task_ref": "t2", "parent_task": "t0"})
    asyncio.run(store.save(task, context))
    saved = asyncio.run(store.get("t1", context))
    assert saved is not None
    assert dict(saved.metadata) == {"parent_task": "t0"}
    assert dict(task.metadata)["command"] == "review"  # the caller's task is left as it was


# --- what the caller is told, and the card beyond its commands ---


def test_progress_counts_every_message_up_to_the_plan() -> None:
    told: list[tuple[int, int]] = []
    report = run(
        commands=("help",), progress=lambda done, total: told.append((done, total)),
        app=_gated("refuse"),
    )  # fmt: skip
    # two interfaces, two modes: /help and two ordinary messages on a new task, a fresh task,
    # the three again on it; then the header check on each interface
    assert told == [(done, 30) for done in range(1, 31)]
    # the messages told of are the run's own: the header check still goes without the header
    assert report.failed() == ["CMD-15"]
    assert [c.detail for c in _header_check(report)] == [
        "refused: HTTP 400 Bad Request: extension required"
    ] * 2
    assert report.commands_run == ["/help (10 times)"]
    # and the report names each interface as a run without progress does
    assert report.agent.bindings_checked == ["JSONRPC", "HTTP+JSON"]
    assert [(c.binding, c.interface) for c in _header_check(report)] == [
        ("JSONRPC", RPC), ("HTTP+JSON", REST)
    ]  # fmt: skip


def test_progress_never_counts_past_the_plan() -> None:
    told: list[tuple[int, int]] = []
    report = run(
        DemoVariant.NO_STREAMING,
        app=_gated("model", DemoVariant.NO_STREAMING),
        rule_edges=True,
        progress=lambda done, total: told.append((done, total)),
    )
    # each header check sends its command twice, where the plan counts once
    assert told == [(done, 66) for done in range(1, 67)] + [(66, 66)] * 2
    assert report.commands_run == [
        "/model (8 times)", "/help (16 times)", "/review th-ext conform (4 times)"
    ]  # fmt: skip


def _refusing_messages(inner: App) -> App:
    """``inner`` for the card; every message is answered HTTP 500."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            await _body(receive)
            await _status(send, 500, b"{}")
            return
        await inner(scope, receive, send)

    return app


def test_commands_never_sent_are_not_listed_as_run() -> None:
    report = run(app=_refusing_messages(build_demo_app(BASE)))
    # each group stops after its first message (/model); then the header check sends /model
    assert report.commands_run == ["/model (6 times)"]
    assert report.failed() == ["CMD-2", "CMD-15"]


def test_without_options_every_check_runs() -> None:
    transport = _Hosts({"agent.test": build_demo_app(BASE)})
    report = run_conform(BASE, transport=transport)
    assert report.passed and not report.strict
    assert {r.level for r in report.requirements} == {"MUST", "SHOULD"}
    assert report.requests == run(rule_edges=True).requests > 99  # the rule's edges are sent


def test_a_card_that_registers_no_command_is_checked_with_ordinary_messages(
    tmp_path: Path,
) -> None:
    def empty(card: dict[str, Any]) -> None:
        card["capabilities"]["extensions"][0]["params"]["commands"] = []

    report = run(source=card_file(tmp_path, empty))
    assert report.commands_run == [] and report.agent.commands == []
    cmd_7 = [c for r in report.requirements if r.id == "CMD-7" for c in r.checks]
    assert [(c.status, c.detail) for c in cmd_7] == [
        ("pass", "params list the registered commands: none")
    ]
    assert _header_check(report) == []  # no command to send without the header
    checks = [c for r in report.requirements for c in r.checks if c.binding != "card"]
    assert {c.scenario.split(",")[0] for c in checks} == {
        "an ordinary message", "unregistered /th-ext-unregistered"
    }  # fmt: skip


def test_a_card_without_interfaces_or_url_has_nothing_to_check(tmp_path: Path) -> None:
    with pytest.raises(ConformError) as raised:
        run(source=card_file(tmp_path, lambda card: card.pop("supportedInterfaces")))
    assert str(raised.value) == (
        "the card declares no JSONRPC or HTTP+JSON interface with an http(s) url to check"
    )


@pytest.mark.parametrize(
    ("limit", "message"),
    [
        ({"timeout": 0}, "the timeout must be a positive number of seconds, at most"),
        ({"max_bytes": 0}, "the byte cap must be at least 1, at most"),
    ],
)
def test_limits_out_of_range_are_refused_before_the_card_url_is_read(
    limit: dict[str, Any], message: str
) -> None:
    seen: Seen = []
    with pytest.raises(SourceArgumentError) as raised:
        run(app=_recording(build_demo_app(BASE), seen), **limit)
    assert str(raised.value).startswith(message)
    assert seen == []


def test_other_extensions_are_read_from_the_card_s_well_formed_entries(tmp_path: Path) -> None:
    from tests.support.host_schemas import URIS

    def more(card: dict[str, Any]) -> None:
        extensions = card["capabilities"]["extensions"]
        extensions += ["not an entry", {"uri": 5}, {"uri": URIS["status"]}, {"uri": URIS["task"]}]

    report = run(source=card_file(tmp_path, more), commands=("help",))
    assert [(r.key, r.status) for r in report.other] == [("task/v1", "skip"), ("status/v1", "skip")]
    assert report.passed


@pytest.mark.parametrize("strict", [False, True])
def test_a_schema_changed_from_its_pin_fails_the_run_only_when_strict(
    tmp_path: Path, strict: bool
) -> None:
    from tests.support.host_schemas import URIS

    def hosted(card: dict[str, Any]) -> None:
        card["capabilities"]["extensions"].append({"uri": URIS["status"]})

    changed = ((URIS["status"], "the fetched schema differs from its pin"),)
    report = run(
        source=card_file(tmp_path, hosted),
        commands=("help",),
        family_changed=changed,
        strict=strict,
    )
    assert [(r.key, r.status) for r in report.other] == [("status/v1", "warn")]
    assert report.failed() == []  # the demo agent passes every requirement, strict or not
    assert report.passed is not strict


def test_the_report_s_seconds_are_the_time_the_run_took() -> None:
    started = time.perf_counter()
    report = run(commands=("help",), bindings=("JSONRPC",))
    took = time.perf_counter() - started
    assert 0 < report.seconds <= round(took, 3) + 0.001


class _Closing(_Hosts):
    closed = False

    async def aclose(self) -> None:
        self.closed = True


def test_the_transport_given_is_closed_when_the_run_ends() -> None:
    transport = _Closing({"agent.test": build_demo_app(BASE)})
    assert run_conform(
        BASE, ConformOptions(commands=("help",), rule_edges=False), transport=transport
    ).passed
    assert transport.closed


# --- the card's signatures (A2A 1.0 section 8.4), with --keys ---

SIGNATURE_RULE = {
    "id": "A2A-8.4",
    "level": "MUST",
    "subject": "agent card",
    "summary": "A signed Agent Card's signatures verify over the canonical form of "
    "section 8.4.1 (RFC 8785 after the Protocol Buffer presence rules).",
    "anchor_url": "https://a2a-protocol.org/latest/specification/#84-agent-card-signing",
}


def signed(
    key: SigningKey,
    card: dict[str, Any] | None = None,
    *,
    jku: str | None = None,
    tamper: bool = False,
) -> dict[str, Any]:
    """``card`` (the demo agent's by default), signed with ``key`` (and changed after, when
    ``tamper``)."""
    data = json.dumps(card or demo_card()).encode()
    out: dict[str, Any] = json.loads(sign_card(data, key.pem, kid=key.kid, jku=jku).data)
    if tamper:
        out["name"] = "Not the signed name"
    return out


def _serving(card: dict[str, Any], inner: App) -> App:
    """``inner``, with ``card`` as its agent card."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == "/.well-known/agent-card.json":
            await _status(send, 200, json.dumps(card).encode())
            return
        await inner(scope, receive, send)

    return app


def signature_verdict(source: str, options: SignatureOptions, app: App | None = None) -> Any:
    """The run's ``A2A-8.4`` result, between the rules every run has (``A2A-3.1.2``, and
    ``A2A-8.6`` on the card's response)."""
    report = run(source=source, app=app, commands=("help",), signatures=options)
    assert [r.id for r in report.core] == ["A2A-3.1.2", "A2A-8.4", "A2A-8.6"]
    assert report.passed is (report.core[1].status != "fail")
    return report.core[1]


def as_file(tmp_path: Path, card: dict[str, Any]) -> str:
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card), encoding="utf-8")
    return str(path)


HINT = "/capabilities/extensions/0/params/commands/1/argument_hint"
"""The demo card's one empty value, which a2a-sdk's form of the card drops."""


def test_a_signature_that_verifies_passes_a2a_8_4(tmp_path: Path) -> None:
    key = make_key("ES256", "conform-key")
    keys = parse_jwks(json.dumps(key.jwks()).encode(), "keys.json")
    card = demo_card()
    del card["capabilities"]["extensions"][0]["params"]["commands"][1]["argument_hint"]
    verified = Check(
        "A2A-8.4", "pass", "card", "/signatures/0", "card",
        "signature-verified: signature 0 verified: kid 'conform-key', ES256, key from keys.json",
    )  # fmt: skip
    verdict = signature_verdict(
        as_file(tmp_path, signed(key, card)), SignatureOptions(keys=(keys,))
    )
    assert verdict == RequirementResult(**SIGNATURE_RULE, status="pass", checks=[verified])
    # a card a2a-sdk's verifier reads otherwise verifies, with a warning
    verdict = signature_verdict(as_file(tmp_path, signed(key)), SignatureOptions(keys=(keys,)))
    assert verdict == RequirementResult(
        **SIGNATURE_RULE,
        status="warn",
        checks=[
            verified,
            Check(
                "A2A-8.4", "fail", "card", HINT, "card",
                f"signature-sdk-rejects: a2a-sdk's verifier will reject the card: it drops {HINT} "
                "before it checks, so the bytes differ from the ones signed",
            ),
        ],
    )  # fmt: skip


def test_a_card_changed_after_signing_fails_a2a_8_4_and_the_run(tmp_path: Path) -> None:
    key = make_key("ES256", "conform-key")
    keys = parse_jwks(json.dumps(key.jwks()).encode(), "keys.json")
    card = signed(key, tamper=True)
    verdict = signature_verdict(as_file(tmp_path, card), SignatureOptions(keys=(keys,)))
    assert (verdict.status, verdict.reason) == ("fail", "")
    assert [(c.status, c.scenario) for c in verdict.checks] == [("fail", "/signatures/0")]
    assert verdict.checks[0].detail.startswith(
        "signature-invalid: signature 0 (kid 'conform-key', ES256) does not verify with its key"
    )


def test_an_unsigned_card_skips_a2a_8_4_unless_a_signature_is_required(tmp_path: Path) -> None:
    keys = parse_jwks(json.dumps(make_key().jwks()).encode(), "keys.json")
    source = card_file(tmp_path, lambda card: None)
    verdict = signature_verdict(source, SignatureOptions(keys=(keys,)))
    assert verdict == RequirementResult(
        **SIGNATURE_RULE, status="skip", checks=[], reason="the card carries no signature"
    )
    required = signature_verdict(source, SignatureOptions(require=True))
    assert required == RequirementResult(
        **SIGNATURE_RULE,
        status="fail",
        checks=[
            Check(
                "A2A-8.4", "fail", "card", "the agent card", "card",
                "signature-unverified: the card carries no signature, and one is required",
            )
        ],
    )  # fmt: skip


def test_a_jku_is_judged_from_where_the_card_was_read(tmp_path: Path) -> None:
    jwks = "http://keys.test/jwks.json"
    card = signed(make_key("ES256", "k1"), jku=jwks)
    options = SignatureOptions(fetch_keys=True)
    head = f"signature-unverified: signature 0 (kid 'k1', ES256) has no trusted key; jku {jwks}"
    # read from a URL: a jku on another origin is not contacted
    verdict = signature_verdict(BASE, options, app=_serving(card, build_demo_app(BASE)))
    assert (verdict.status, verdict.reason) == ("warn", "")
    assert [(c.status, c.scenario, c.detail) for c in verdict.checks] == [
        ("fail", "/signatures/0", f"{head} not contacted: it is not on the card's origin ({BASE})")
    ]
    # read from a file: there is no origin to allow
    verdict = signature_verdict(as_file(tmp_path, card), options)
    assert [c.detail for c in verdict.checks] == [
        f"{head} not contacted (the card was not read from a URL)"
    ]


def test_an_agent_that_answers_with_a_message_and_no_task_is_noted() -> None:
    reply = {"message": {"messageId": "m", "role": "ROLE_AGENT", "parts": [{"text": "hi"}]}}
    report = run(app=_mute(build_demo_app(BASE), reply=reply), bindings=("JSONRPC",))
    assert report.notes == [
        f"JSONRPC {RPC} {mode}: an ordinary message created no task that GetTask can read "
        "(no task id); the existing-task scenarios were not run"
        for mode in ("stream", "send")
    ]


def test_a_recorder_holds_every_exchange_with_the_agent_on_each_binding() -> None:
    recorder = HarRecorder(title="th-ext conform")
    apps: dict[str, App] = {"agent.test": build_demo_app(BASE)}
    options = ConformOptions(rule_edges=False, limits=SourceLimits())
    report = run_conform(BASE, options, transport=_Hosts(apps), recorder=recorder)
    urls = [entry["request"]["url"] for entry in recorder.document()["log"]["entries"]]
    assert len(urls) == report.requests
    assert urls[0] == f"{BASE}/.well-known/agent-card.json"
    assert RPC in urls  # the JSON-RPC interface's exchanges,
    assert any(url.startswith(REST + "/") for url in urls)  # and the HTTP+JSON one's
