"""Every interface is checked once, up to --max-interfaces; the text and HTML reports open with
one line per interface and show what the agent sent for each failed check."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from th_ext._exceptions import ConformError
from th_ext.conform import AgentInfo, Check, ConformReport, InterfaceInfo, RequirementResult
from th_ext.conform._run import caching_result, ran_text, select_interfaces
from th_ext.report import render
from th_ext.report._html import conform_html as render_html
from th_ext.report._text import conform_text as render_text


def card(*interfaces: tuple[str, str]) -> dict[str, Any]:
    return {
        "supportedInterfaces": [
            {"protocolBinding": binding, "url": url, "protocolVersion": "1.0"}
            for binding, url in interfaces
        ]
    }


def test_every_interface_once_and_the_ones_over_the_limit_named() -> None:
    notes: list[str] = []
    chosen, not_checked, listed = select_interfaces(
        card(
            ("JSONRPC", "http://a/rpc"),
            ("JSONRPC", "http://a/rpc"),
            ("JSONRPC", "http://a/rpc2"),
            ("HTTP+JSON", "http://a/rest"),
            ("GRPC", "a:50051"),
            ("JSONRPC", "http://a/rpc3"),
        ),
        (),
        3,
        notes,
    )
    assert [(i.binding, i.url) for i in chosen] == [
        ("JSONRPC", "http://a/rpc"),
        ("JSONRPC", "http://a/rpc2"),
        ("HTTP+JSON", "http://a/rest"),
    ]
    assert not_checked == ["GRPC"]
    assert [(i.url, i.status) for i in listed][-1] == ("http://a/rpc3", "not checked")
    assert any("--max-interfaces 3" in n and "JSONRPC http://a/rpc3" in n for n in notes)


def test_a_binding_left_out_is_listed_and_none_left_is_an_error() -> None:
    notes: list[str] = []
    _, _, listed = select_interfaces(
        card(("JSONRPC", "http://a/rpc"), ("HTTP+JSON", "http://a/rest")), ("JSONRPC",), 8, notes
    )
    assert [(i.binding, i.reason) for i in listed][1] == ("HTTP+JSON", "left out by --binding")
    with pytest.raises(ConformError):
        select_interfaces(card(("GRPC", "a:1")), (), 8, [])


def report() -> ConformReport:
    first, second = "http://a/rpc", "http://a/rpc2"
    failed = Check(
        "CMD-1",
        "fail",
        "JSONRPC",
        "/help, new task",
        "stream",
        "the command did not run on JSONRPC",
        second,
        "task SUBMITTED -> statusUpdate INPUT_REQUIRED agent '\x1b[31manswer'",
    )
    passed = Check("CMD-1", "pass", "JSONRPC", "/help, new task", "stream", "ok", first)
    requirement = RequirementResult(
        "CMD-1", "MUST", "agent", "runs the command", "https://x#cmd-1", "fail", [passed, failed]
    )
    agent = AgentInfo(
        name="agent",
        card_url="http://a/card.json",
        extension_uri="uri",
        commands=["help"],
        bindings_checked=["JSONRPC"],
        bindings_not_checked=[],
        streaming=True,
        interfaces=[
            InterfaceInfo("JSONRPC", first, "checked"),
            InterfaceInfo("JSONRPC", second, "checked"),
            InterfaceInfo("HTTP+JSON", "http://a/rest", "unreachable", "cannot connect"),
        ],
    )
    return ConformReport(False, False, agent, [requirement], [], ["/help (2 times)"], 9, 0.1)


def test_the_text_report_opens_with_the_interfaces_and_quotes_what_was_sent() -> None:
    text = render_text(report())
    head, body = text.split("\nFAIL  CMD-1", 1)
    lines = head.split("interfaces\n", 1)[1].splitlines()
    assert lines[0].split()[:4] == ["JSONRPC", "http://a/rpc", "pass", "stream,"]
    assert "1 of 1 check failed: CMD-1" in lines[1]
    assert "unreachable: cannot connect" in lines[2]
    assert "JSONRPC http://a/rpc2 stream, /help, new task: the command did not run" in body
    assert "got: task SUBMITTED -> statusUpdate INPUT_REQUIRED agent 'answer'" in body
    assert "\x1b" not in text


def test_the_html_report_opens_with_the_interfaces_and_quotes_what_was_sent() -> None:
    html = render_html(report())
    main = html.split("<main>", 1)[1]
    assert main.lstrip().startswith('<table id="interfaces">')
    assert main.index('id="interfaces"') < main.index('id="requirements"')
    assert 'href="#cmd-1">CMD-1</a>' in main
    assert "got: <code>task SUBMITTED" in main
    assert "\x1b" not in html


def test_a_command_sent_once_is_counted_in_the_singular() -> None:
    assert ran_text("/help", 1) == "/help (1 time)"
    assert ran_text("/model", 3) == "/model (3 times)"
    assert ran_text("/" + "m" * 100_000, 2) == "/" + "m" * 78 + "… (2 times)"
    once = replace(report(), commands_run=[ran_text("/help", 1)])
    assert "  commands   ran /help (1 time) (each" in render_text(once)
    assert "/help (1 time)" in render_html(once)


@pytest.mark.parametrize("format_name", ["text", "junit", "github", "sarif", "html"])
def test_a_check_of_the_card_names_the_card_once(format_name: str) -> None:

    cached = caching_result((("content-type", "application/json"),))
    shown = render(replace(report(), core=[cached]), format_name)
    assert "the card response: card-cache-control-missing" in shown
    assert "card card" not in shown


def test_the_github_summary_counts_the_core_warnings_as_the_text_does() -> None:
    cached = caching_result((("content-type", "application/json"),))
    warned = replace(report(), core=[cached], strict=True)
    assert (
        render(warned, "github")
        .splitlines()[-1]
        .endswith("failed (0 passed, 1 failed, 0 warnings, 0 skipped, 1 core A2A warning)")
    )
    assert (
        render(warned, "text")
        .rstrip()
        .endswith(
            "FAILED: 0 passed, 1 failed, 0 warnings, 0 skipped, 1 core A2A warning; "
            "9 requests in 0.10 s (--strict)"
        )
    )
