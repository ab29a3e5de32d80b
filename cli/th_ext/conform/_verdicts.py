"""From checks to verdicts: each requirement's status, and the run's pass or fail.

A failed check fails a MUST requirement and only warns on a SHOULD or MAY one (``strict`` turns
warnings into a failed run). A requirement with no check that ran is skipped, with the reason.
"""

from __future__ import annotations

from collections.abc import Iterable

from th_ext._requirements import Requirement
from th_ext.conform._model import Check, RequirementResult, RequirementStatus

__all__ = ["requirement_results", "run_passed"]


def requirement_results(
    requirements: Iterable[Requirement], checks: list[Check], spec_url: str
) -> list[RequirementResult]:
    results = []
    for requirement in requirements:
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


def run_passed(results: list[RequirementResult], *, strict: bool) -> bool:
    bad = {"fail", "warn"} if strict else {"fail"}
    return not any(r.status in bad for r in results)
