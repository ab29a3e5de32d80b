"""The report's first table: one row per interface of the card, with what its checks found.

A bug often lives in one binding's wiring, so the text and HTML reports open with it: which
interfaces were checked, which failed which requirements, which could not be reached or were
left out, before the requirement-by-requirement detail.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from th_ext.conform._model import ConformReport

__all__ = ["InterfaceRow", "interface_rows"]


@dataclass(frozen=True, slots=True)
class InterfaceRow:
    """One interface's line: its checks' totals and the requirements it failed or warned on."""

    binding: str
    url: str
    status: str
    """``pass``, ``fail``, ``warn``, ``unreachable`` or ``not checked``."""
    modes: str
    checks: int
    failed: int
    requirements: tuple[str, ...]
    """The IDs of the requirements a check on this interface failed, in report order."""
    reason: str = ""


def interface_rows(report: ConformReport) -> list[InterfaceRow]:
    """A row for every interface the card lists, in card order."""
    rows = []
    levels = {r.id: r.level for r in report.requirements}
    modes = "stream, send" if report.agent.streaming else "send"
    for interface in report.agent.interfaces:
        if interface.status != "checked":
            rows.append(
                InterfaceRow(
                    interface.binding,
                    interface.url,
                    interface.status,
                    "",
                    0,
                    0,
                    (),
                    interface.reason,
                )
            )
            continue
        own = [
            c
            for r in report.requirements
            for c in r.checks
            if c.interface == interface.url and c.binding == interface.binding
        ]
        failing = [c for c in own if c.status == "fail"]
        ids = tuple(dict.fromkeys(c.requirement for c in failing))
        must = any(levels.get(rid) == "MUST" for rid in ids)
        status = "fail" if must else "warn" if ids else "pass"
        ran = sum(1 for c in own if c.status != "skip")
        rows.append(
            InterfaceRow(interface.binding, interface.url, status, modes, ran, len(failing), ids)
        )
    return rows
