"""Which interfaces conform checks: each JSON-RPC and HTTP+JSON one with an http(s) url, the same
URL and binding once, up to the limit; every other one listed with the reason and noted."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from th_ext._exceptions import ConformError
from th_ext.conform import InterfaceInfo
from th_ext.conform._run import interface_info, select_interfaces, unreachable_wires
from th_ext.conform._runner import GroupResult, Interface
from th_ext.net._exchange import RpcExchange


def card(*interfaces: Any) -> dict[str, Any]:
    return {"supportedInterfaces": list(interfaces)}


def entry(binding: str, url: Any, **extra: Any) -> dict[str, Any]:
    return {"protocolBinding": binding, "url": url, **extra}


def test_the_interfaces_checked_keep_their_url_and_tenant() -> None:
    notes: list[str] = []
    chosen, not_checked, listed = select_interfaces(
        card(
            entry("JSONRPC", "https://u:p@a/rpc", tenant="acme"),
            entry("HTTP+JSON", "http://a/rest", tenant=3),
        ),
        (),
        8,
        notes,
    )
    assert chosen == [
        Interface("JSONRPC", "https://u:p@a/rpc", "acme"),
        Interface("HTTP+JSON", "http://a/rest", ""),
    ]
    assert (not_checked, notes) == ([], [])
    assert listed == [
        InterfaceInfo("JSONRPC", "https://***@a/rpc", "checked"),
        InterfaceInfo("HTTP+JSON", "http://a/rest", "checked"),
    ]


def test_every_interface_left_out_is_listed_with_its_reason_and_noted() -> None:
    notes: list[str] = []
    chosen, not_checked, listed = select_interfaces(
        card(
            entry("JSONRPC", "http://a/rpc"),
            "not an interface",
            entry("GRPC", "a:50051"),
            entry("JSONRPC", "http://a/rpc"),
            entry("HTTP+JSON", "http://a/rest"),
            entry("JSONRPC", "ftp://a/x"),
            entry("JSONRPC", None),
            entry("JSONRPC", "http://a/two"),
            entry("JSONRPC", "http://a/three"),
        ),
        ("JSONRPC",),
        1,
        notes,
    )
    assert chosen == [Interface("JSONRPC", "http://a/rpc", "")]
    assert not_checked == ["GRPC"]
    assert listed == [
        InterfaceInfo("JSONRPC", "http://a/rpc", "checked"),
        InterfaceInfo("GRPC", "a:50051", "not checked", "conform speaks JSON-RPC and HTTP+JSON"),
        InterfaceInfo("HTTP+JSON", "http://a/rest", "not checked", "left out by --binding"),
        InterfaceInfo("JSONRPC", "ftp://a/x", "not checked", "no http(s) url"),
        InterfaceInfo("JSONRPC", "None", "not checked", "no http(s) url"),
        InterfaceInfo("JSONRPC", "http://a/two", "not checked", "over --max-interfaces"),
        InterfaceInfo("JSONRPC", "http://a/three", "not checked", "over --max-interfaces"),
    ]
    assert notes == [
        "GRPC interface at a:50051: not checked (conform speaks JSON-RPC and HTTP+JSON)",
        "JSONRPC interface has no http(s) url ('ftp://a/x'); not checked",
        "JSONRPC interface has no http(s) url ('None'); not checked",
        "2 interfaces over --max-interfaces 1 were not checked: JSONRPC http://a/two, "
        "JSONRPC http://a/three",
    ]


def test_the_limit_counts_the_interfaces_checked() -> None:
    interfaces = [entry("JSONRPC", f"http://a/{n}") for n in range(3)]
    chosen, _, _ = select_interfaces(card(*interfaces), (), 2, [])
    assert [i.url for i in chosen] == ["http://a/0", "http://a/1"]
    notes: list[str] = []
    chosen, _, _ = select_interfaces(card(*interfaces), (), 3, notes)
    assert len(chosen) == 3
    assert notes == []


@pytest.mark.parametrize(
    ("declared", "bindings", "error"),
    [
        ({}, (), "the card declares no JSONRPC or HTTP+JSON interface with an http(s) url"),
        (
            card(entry("GRPC", "a:1")),
            (),
            "the card declares no JSONRPC or HTTP+JSON interface with an http(s) url",
        ),
        (
            {"supportedInterfaces": "x"},
            ("HTTP+JSON",),
            "the card declares no HTTP+JSON interface with an http(s) url",
        ),
    ],
)
def test_a_card_with_nothing_to_check_is_an_error(
    declared: dict[str, Any], bindings: tuple[str, ...], error: str
) -> None:
    with pytest.raises(ConformError) as raised:
        select_interfaces(declared, bindings, 8, [])
    assert str(raised.value) == f"{error} to check"


@dataclass(eq=False)
class Unused:
    """A wire the selection only names; nothing is sent over it."""

    binding: str
    url: str

    async def send(
        self, message: dict[str, Any], *, stream: bool, extensions: bool = True
    ) -> RpcExchange:
        raise AssertionError("nothing is sent")

    async def get_task(self, task_id: str) -> RpcExchange:
        raise AssertionError("nothing is read")


def test_an_interface_is_unreachable_when_every_group_of_it_found_no_server() -> None:
    one, two = Unused("JSONRPC", "http://u:p@a/1"), Unused("HTTP+JSON", "http://a/2")
    groups = [
        GroupResult(unreachable="refused"),
        GroupResult(unreachable="timed out"),
        GroupResult(unreachable="refused"),
        GroupResult(),
    ]
    found = unreachable_wires([one, two], groups, 2)
    assert found == {one: "refused"}
    listed = InterfaceInfo("JSONRPC", "http://***@a/1", "checked")
    assert interface_info(listed, [two, one], found) == InterfaceInfo(
        "JSONRPC", "http://***@a/1", "unreachable", "refused"
    )
    other = InterfaceInfo("HTTP+JSON", "http://a/2", "checked")
    assert interface_info(other, [one, two], found) is other
    unknown = InterfaceInfo("JSONRPC", "http://x", "checked")
    assert interface_info(unknown, [one], found) is unknown
