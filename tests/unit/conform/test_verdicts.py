"""From checks to verdicts: each requirement's status and reason, and when a run fails (a MUST
failed; with ``--strict``, a warning too)."""

from __future__ import annotations

import pytest

from th_ext.catalog._reader import Requirement
from th_ext.checks import CORE_RULES
from th_ext.conform import Check, CheckStatus, RequirementResult, RequirementStatus
from th_ext.conform._model import core_results, requirement_results, run_passed

SPEC = "https://example.com/ext/commands/v1"


def requirement(id_: str, level: str = "MUST", **extra: str) -> Requirement:
    return Requirement(id_, level, "agent", f"summary of {id_}", "text", True, **extra)  # type: ignore[arg-type]


def check(id_: str, status: CheckStatus) -> Check:
    return Check(id_, status, "JSONRPC", "/model, new task", "stream", f"{id_} {status}")


def result(status: RequirementStatus, id_: str = "CMD-1") -> RequirementResult:
    return RequirementResult(id_, "MUST", "agent", "s", f"{SPEC}#x", status)


def test_each_requirement_gets_its_own_checks_its_anchor_and_its_words() -> None:
    checks = [check("CMD-1", "pass"), check("CMD-2", "fail"), check("CMD-1", "skip")]
    [first, second] = requirement_results(
        [requirement("CMD-1"), requirement("CMD-2", "SHOULD")], checks, SPEC
    )
    assert first == RequirementResult(
        "CMD-1",
        "MUST",
        "agent",
        "summary of CMD-1",
        f"{SPEC}#cmd-1",
        "pass",
        [checks[0], checks[2]],
        "",
    )
    assert (second.id, second.level, second.status, second.checks) == (
        "CMD-2",
        "SHOULD",
        "warn",
        [checks[1]],
    )


@pytest.mark.parametrize(
    ("level", "statuses", "verdict"),
    [
        ("MUST", ["pass", "fail"], "fail"),
        ("MUST", ["fail", "skip"], "fail"),
        ("SHOULD", ["pass", "fail"], "warn"),
        ("MAY", ["fail"], "warn"),
        ("MUST", ["pass", "skip"], "pass"),
        ("SHOULD", ["pass"], "pass"),
    ],
)
def test_a_failed_check_fails_a_must_and_warns_on_a_should_or_may(
    level: str, statuses: list[CheckStatus], verdict: str
) -> None:
    checks = [check("CMD-4", status) for status in statuses]
    [found] = requirement_results([requirement("CMD-4", level)], checks, SPEC)
    assert (found.status, found.reason) == (verdict, "")


def test_a_requirement_no_check_ran_on_is_skipped_with_the_reason() -> None:
    skipped = [check("CMD-6", "skip")]
    [none, unrun, why] = requirement_results(
        [
            requirement("CMD-5"),
            requirement("CMD-6"),
            requirement("CMD-7", why_not="a client requirement"),
        ],
        skipped,
        SPEC,
    )
    assert (none.status, none.reason) == ("skip", "no scenario checks it on this agent")
    assert (unrun.status, unrun.reason) == ("skip", "no scenario applied")
    assert (why.status, why.reason) == ("skip", "a client requirement")


def test_a_retired_requirement_gets_no_verdict() -> None:
    found = requirement_results(
        [requirement("CMD-8", retired="2026-01-01"), requirement("CMD-9")],
        [check("CMD-8", "fail")],
        SPEC,
    )
    assert [r.id for r in found] == ["CMD-9"]


def test_a_core_rule_that_failed_only_warns() -> None:
    rule = CORE_RULES[0]
    checks = [check(rule.id, "pass"), check(rule.id, "fail"), check("CMD-1", "fail")]
    [found] = core_results(checks)
    assert found == RequirementResult(
        rule.id, "MUST", "agent", rule.summary, rule.url, "warn", checks[:2], ""
    )


@pytest.mark.parametrize(
    ("statuses", "verdict", "reason"),
    [
        (["pass", "skip"], "pass", ""),
        (["skip"], "skip", "no stream was checked"),
        ([], "skip", "no stream was checked"),
    ],
)
def test_a_core_rule_passes_on_a_passing_check_and_is_skipped_without_one(
    statuses: list[CheckStatus], verdict: str, reason: str
) -> None:
    [found] = core_results([check(CORE_RULES[0].id, status) for status in statuses])
    assert (found.status, found.reason) == (verdict, reason)


def test_a_failed_requirement_fails_the_run_strict_or_not() -> None:
    results = [result("pass"), result("fail", "CMD-2"), result("skip", "CMD-3")]
    assert run_passed(results, strict=False) is False
    assert run_passed(results, strict=True) is False


def test_a_warning_fails_the_run_only_when_it_is_strict() -> None:
    results = [result("pass"), result("warn", "CMD-19"), result("skip", "CMD-3")]
    assert run_passed(results, strict=False) is True
    assert run_passed(results, strict=True) is False


def test_passes_and_skips_pass_a_strict_run() -> None:
    assert run_passed([result("pass"), result("skip", "CMD-2")], strict=True) is True
    assert run_passed([], strict=True) is True
