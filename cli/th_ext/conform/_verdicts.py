"""From checks to verdicts: each requirement's status, and the run's pass or fail.

A failed check fails a MUST requirement and only warns on a SHOULD or MAY one (``strict`` turns
warnings into a failed run). A requirement with no check that ran is skipped, with the reason.
A core A2A rule (``A2A-3.1.2``) only ever warns: the extension's report does not fail an agent
for a rule of A2A itself unless the run is strict.
"""

from __future__ import annotations

from collections.abc import Iterable

from th_ext.catalog._reader import Requirement
from th_ext.checks import CORE_RULES
from th_ext.conform._model import Check, RequirementResult, RequirementStatus

__all__ = ["core_results", "requirement_results", "run_passed"]


def requirement_results(
    requirements: Iterable[Requirement], checks: list[Check], spec_url: str
) -> list[RequirementResult]:
    results = []
    for requirement in requirements:
        if not requirement.in_force:
            continue
        own = [c for c in checks if c.requirement == requirement.id]
        status: RequirementStatus
        reason = ""
        if any(c.status == "fail" for c in own):
            status = "fail" if requirement.level == "MUST" else "warn"
        elif any(c.status == "pass" for c in own):
            status = "pass"
        else:
            status = "skip"
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
        status: RequirementStatus = (
            "warn"
            if any(c.status == "fail" for c in own)
            else "pass"
            if any(c.status == "pass" for c in own)
            else "skip"
        )
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
    bad = {"fail", "warn"} if strict else {"fail"}
    return not any(r.status in bad for r in results)
