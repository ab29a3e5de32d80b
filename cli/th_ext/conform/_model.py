"""The conformance report as data: checks, requirement verdicts, and the whole report.

Plain dataclasses that serialise to the JSON ``th-ext conform --format json`` prints, so that a
program (a CI step, a pytest plugin) reads the same thing a person reads.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from th_ext.checks import Check, CheckStatus
from th_ext.conform._family import OtherExtensionResult

__all__ = [
    "AgentInfo",
    "Check",
    "CheckStatus",
    "ConformReport",
    "InterfaceInfo",
    "RequirementResult",
    "RequirementStatus",
]

RequirementStatus = Literal["pass", "fail", "warn", "skip"]


@dataclass(frozen=True, slots=True)
class RequirementResult:
    """A requirement's verdict over all its checks."""

    id: str
    level: str
    subject: str
    summary: str
    anchor_url: str
    status: RequirementStatus
    checks: list[Check] = field(default_factory=list)
    reason: str = ""
    """Why the requirement was skipped, when it was."""


@dataclass(frozen=True, slots=True)
class InterfaceInfo:
    """One interface of the card, and whether conform could check it."""

    binding: str
    url: str
    status: Literal["checked", "unreachable", "not checked"]
    reason: str = ""
    """Why it was not checked, or what the first request met when it was unreachable."""


@dataclass(frozen=True, slots=True)
class AgentInfo:
    """The agent as its card describes it, and what conform did with it."""

    name: str
    card_url: str
    extension_uri: str
    commands: list[str]
    bindings_checked: list[str]
    bindings_not_checked: list[str]
    streaming: bool
    interfaces: list[InterfaceInfo] = field(default_factory=list)
    """Every interface of the card, in card order, the same URL and binding counted once."""


@dataclass(frozen=True, slots=True)
class ConformReport:
    """The whole run: the verdict, the agent, every requirement, notes and side effects."""

    passed: bool
    strict: bool
    agent: AgentInfo
    requirements: list[RequirementResult]
    notes: list[str]
    """Deviations from core A2A noticed on the way, and other remarks; never failures."""
    commands_run: list[str]
    """The command texts conform sent (each may have side effects on the agent)."""
    requests: int
    """HTTP requests made, the card fetch included."""
    seconds: float
    core: list[RequirementResult] = field(default_factory=list)
    """Rules of core A2A the answers showed (``A2A-3.1.2``...): not the extension's
    requirements, and warnings only (a failed one fails the run only when it is strict)."""
    other: list[OtherExtensionResult] = field(default_factory=list)
    """The host's own extensions the card declares: their payloads against their schema
    when it is known (warnings that fail only when the run is strict)."""

    def counts(self) -> dict[str, int]:
        """How many requirements passed, failed, warned and were skipped."""
        return _counts(self.requirements)

    def core_counts(self) -> dict[str, int]:
        """How many core A2A rules passed, warned and were skipped."""
        return _counts(self.core)

    def failed(self) -> list[str]:
        return [r.id for r in self.requirements if r.status == "fail"]

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON (``th-ext conform --format json``)."""
        document = asdict(self)
        document["summary"] = self.counts()
        document["core_summary"] = self.core_counts()
        return document


def _counts(results: list[RequirementResult]) -> dict[str, int]:
    totals = {"pass": 0, "fail": 0, "warn": 0, "skip": 0}
    for result in results:
        totals[result.status] += 1
    return totals
