"""Which interfaces of the card conform checks, and what became of each.

Every JSON-RPC and HTTP+JSON interface is checked, the same URL and binding once, up to a limit
(``--max-interfaces``); the others are listed with the reason, and a note names the ones left
over the limit. After the run, an interface whose every request found no server is marked
unreachable. URLs are shown with their credentials redacted.
"""

from __future__ import annotations

from typing import Any

from th_ext._exceptions import ConformError
from th_ext.conform._model import InterfaceInfo
from th_ext.conform._runner import GroupResult, Interface
from th_ext.conform._wire import BINDINGS, Wire
from th_ext.net import redact_url
from th_ext.sources._source import is_url

__all__ = ["interface_info", "select_interfaces", "unreachable_wires"]


def select_interfaces(
    card: dict[str, Any], bindings: tuple[str, ...], limit: int, notes: list[str]
) -> tuple[list[Interface], list[str], list[InterfaceInfo]]:
    """The interfaces to check (every JSON-RPC and HTTP+JSON one, the same URL and binding
    once, at most ``max_interfaces``), the bindings not checked, and every interface listed."""
    chosen: list[Interface] = []
    not_checked: list[str] = []
    listed: list[InterfaceInfo] = []
    seen: set[tuple[str, str]] = set()
    left_out: list[str] = []
    declared = card.get("supportedInterfaces")
    for entry in declared if isinstance(declared, list) else []:
        if not isinstance(entry, dict):
            continue
        binding, url = str(entry.get("protocolBinding")), entry.get("url")
        shown = redact_url(str(url))  # user:password@ is shown as ***@ in every note and report
        if (binding, shown) in seen:
            continue
        seen.add((binding, shown))
        if binding not in BINDINGS:
            not_checked.append(binding)
            reason = "conform speaks JSON-RPC and HTTP+JSON"
            notes.append(f"{binding} interface at {shown}: not checked ({reason})")
            listed.append(InterfaceInfo(binding, shown, "not checked", reason))
        elif bindings and binding not in bindings:
            listed.append(InterfaceInfo(binding, shown, "not checked", "left out by --binding"))
        elif not isinstance(url, str) or not is_url(url):
            notes.append(f"{binding} interface has no http(s) url ({shown!r}); not checked")
            listed.append(InterfaceInfo(binding, shown, "not checked", "no http(s) url"))
        elif len(chosen) >= limit:
            left_out.append(f"{binding} {shown}")
            listed.append(InterfaceInfo(binding, shown, "not checked", "over --max-interfaces"))
        else:
            tenant = entry.get("tenant")
            chosen.append(Interface(binding, url, tenant if isinstance(tenant, str) else ""))
            listed.append(InterfaceInfo(binding, shown, "checked"))
    if left_out:
        notes.append(
            f"{len(left_out)} interface(s) over --max-interfaces {limit} were "
            f"not checked: {', '.join(left_out)}"
        )
    if not chosen:
        wanted = " or ".join(bindings or BINDINGS)
        raise ConformError(f"the card declares no {wanted} interface with an http(s) url to check")
    return chosen, not_checked, listed


def unreachable_wires(wires: list[Wire], groups: list[GroupResult], modes: int) -> dict[Wire, str]:
    """The interfaces whose every group found no server, with what the first request met."""
    found: dict[Wire, str] = {}
    for index, wire in enumerate(wires):
        own = groups[index * modes : (index + 1) * modes]
        if all(group.unreachable for group in own):
            found[wire] = own[0].unreachable
    return found


def interface_info(
    entry: InterfaceInfo, wires: list[Wire], unreachable: dict[Wire, str]
) -> InterfaceInfo:
    shown = (entry.binding, entry.url)  # the report's URLs are redacted
    wire = next((w for w in wires if (w.binding, redact_url(w.url)) == shown), None)
    if wire is not None and wire in unreachable:
        return InterfaceInfo(entry.binding, entry.url, "unreachable", unreachable[wire])
    return entry
