"""The report's first table: one row per interface, with its checks' totals and the
requirements it failed (a MUST fails the row, a SHOULD only warns)."""

from __future__ import annotations

from th_ext.conform import (
    AgentInfo,
    Check,
    CheckStatus,
    ConformReport,
    InterfaceInfo,
    InterfaceRow,
    RequirementResult,
    interface_rows,
)

RPC, REST = "http://a/rpc", "http://a/rest"


def check(id_: str, status: CheckStatus, url: str, binding: str = "JSONRPC") -> Check:
    return Check(id_, status, binding, "/help, new task", "stream", "d", url)


def report(*interfaces: InterfaceInfo, streaming: bool = True) -> ConformReport:
    must = RequirementResult(
        "CMD-1",
        "MUST",
        "agent",
        "s",
        "#cmd-1",
        "fail",
        [
            check("CMD-1", "pass", RPC),
            check("CMD-1", "fail", REST, "HTTP+JSON"),
            check("CMD-1", "fail", REST, "HTTP+JSON"),
            check("CMD-1", "skip", RPC),
            check("CMD-1", "fail", REST, "JSONRPC"),  # the same URL over another binding
        ],
    )
    should = RequirementResult(
        "CMD-19",
        "SHOULD",
        "agent",
        "s",
        "#cmd-19",
        "warn",
        [check("CMD-19", "fail", RPC), check("CMD-19", "fail", REST, "HTTP+JSON")],
    )
    agent = AgentInfo(
        "a", "http://a/card", "uri", ["help"], ["JSONRPC"], [], streaming, list(interfaces)
    )
    return ConformReport(False, False, agent, [must, should], [], [], 1, 0.1)


def test_a_row_per_interface_with_its_totals_and_the_requirements_it_failed() -> None:
    rows = interface_rows(
        report(
            InterfaceInfo("JSONRPC", RPC, "checked"), InterfaceInfo("HTTP+JSON", REST, "checked")
        )
    )
    assert rows == [
        InterfaceRow("JSONRPC", RPC, "warn", "stream, send", 2, 1, ("CMD-19",)),
        InterfaceRow("HTTP+JSON", REST, "fail", "stream, send", 3, 3, ("CMD-1", "CMD-19")),
    ]


def test_an_interface_without_failures_passes_and_without_streaming_is_send_only() -> None:
    clean = report(InterfaceInfo("JSONRPC", "http://a/other", "checked"), streaming=False)
    assert interface_rows(clean) == [
        InterfaceRow("JSONRPC", "http://a/other", "pass", "send", 0, 0, ())
    ]


def test_an_interface_not_checked_or_unreachable_keeps_its_reason() -> None:
    rows = interface_rows(
        report(
            InterfaceInfo("GRPC", "a:1", "not checked", "conform speaks JSON-RPC and HTTP+JSON"),
            InterfaceInfo("JSONRPC", RPC, "unreachable", "cannot connect"),
        )
    )
    assert rows == [
        InterfaceRow(
            "GRPC", "a:1", "not checked", "", 0, 0, (), "conform speaks JSON-RPC and HTTP+JSON"
        ),
        InterfaceRow("JSONRPC", RPC, "unreachable", "", 0, 0, (), "cannot connect"),
    ]
