"""The conformance report as data, and how checks become its verdicts and its first table."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, get_args

from th_ext.catalog._reader import Requirement
from th_ext.checks import CORE_RULES, Check, CheckStatus
from th_ext.conform._family import OtherExtensionResult

__all__ = [
    "AgentInfo",
    "Check",
    "CheckStatus",
    "ConformReport",
    "InterfaceInfo",
    "InterfaceRow",
    "RequirementResult",
    "RequirementStatus",
    "core_results",
    "interface_rows",
    "requirement_results",
    "run_passed",
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
        document["exit_code"] = 0 if self.passed else 1
        document["summary"] = self.counts()
        document["core_summary"] = self.core_counts()
        return document


def _counts(results: list[RequirementResult]) -> dict[str, int]:
    return {
        status: sum(r.status == status for r in results) for status in get_args(RequirementStatus)
    }


def _status(own: list[Check], failed: RequirementStatus) -> RequirementStatus:
    """``failed`` when one of ``own`` failed, else ``pass`` when one passed, else ``skip``."""
    if any(c.status == "fail" for c in own):
        return failed
    return "pass" if any(c.status == "pass" for c in own) else "skip"


def requirement_results(
    requirements: Iterable[Requirement], checks: list[Check], spec_url: str
) -> list[RequirementResult]:
    """The verdict on each requirement in force: a failed check fails a MUST and warns on a
    SHOULD or MAY; with no check that ran it is skipped, with the reason."""
    results = []
    for requirement in requirements:
        if not requirement.in_force:
            continue
        own = [c for c in checks if c.requirement == requirement.id]
        status = _status(own, "fail" if requirement.level == "MUST" else "warn")
        reason = ""
        if status == "skip":
            reason = requirement.why_not or (
                "no scenario applied" if own else "no scenario checks it on this agent"
            )
        results.append(
            RequirementResult(
                id=requirement.id,
                level=requirement.level,
                subject=requirement.subject,
                summary=requirement.summary,
                anchor_url=f"{spec_url}#{requirement.anchor}",
                status=status,
                checks=own,
                reason=reason,
            )
        )
    return results


def core_results(checks: list[Check]) -> list[RequirementResult]:
    """The verdict on every core A2A rule the checks judged; a failure is a warning."""
    results = []
    for rule in CORE_RULES:
        own = [c for c in checks if c.requirement == rule.id]
        status = _status(own, "warn")
        results.append(
            RequirementResult(
                id=rule.id,
                level="MUST",
                subject="agent",
                summary=rule.summary,
                anchor_url=rule.url,
                status=status,
                checks=own,
                reason="" if status != "skip" else "no stream was checked",
            )
        )
    return results


def run_passed(results: list[RequirementResult], *, strict: bool) -> bool:
    """Whether no requirement failed (nor warned, when ``strict``)."""
    bad = {"fail", "warn"} if strict else {"fail"}
    return not any(r.status in bad for r in results)


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
    """A row for every interface the card lists, in card order: the report opens with them, as
    a bug often lives in one binding's wiring."""
    rows = []
    levels = {r.id: r.level for r in report.requirements}
    modes = "stream, send" if report.agent.streaming else "send"
    for interface in report.agent.interfaces:
        if interface.status != "checked":
            row = InterfaceRow(
                interface.binding, interface.url, interface.status, "", 0, 0, (), interface.reason
            )
            rows.append(row)
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
