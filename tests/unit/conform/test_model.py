"""The report's totals, its failed requirements and its JSON form."""

from __future__ import annotations

from th_ext.conform import AgentInfo, ConformReport, RequirementResult, RequirementStatus


def result(id_: str, status: RequirementStatus) -> RequirementResult:
    return RequirementResult(id_, "MUST", "agent", "s", f"#{id_}", status)


def report() -> ConformReport:
    agent = AgentInfo("a", "http://a/card", "uri", ["help"], ["JSONRPC"], [], True)
    requirements = [
        result("CMD-1", "fail"),
        result("CMD-2", "pass"),
        result("CMD-3", "fail"),
        result("CMD-19", "warn"),
        result("CMD-5", "skip"),
        result("CMD-9", "pass"),
    ]
    core = [result("A2A-3.1.2", "warn")]
    return ConformReport(False, True, agent, requirements, ["a note"], ["/help"], 7, 0.5, core)


def test_the_totals_count_each_status_and_the_failed_ids_are_in_report_order() -> None:
    found = report()
    assert found.counts() == {"pass": 2, "fail": 2, "warn": 1, "skip": 1}
    assert found.core_counts() == {"pass": 0, "fail": 0, "warn": 1, "skip": 0}
    assert found.failed() == ["CMD-1", "CMD-3"]


def test_the_json_report_holds_every_field_and_both_summaries() -> None:
    document = report().to_dict()
    assert document["summary"] == {"pass": 2, "fail": 2, "warn": 1, "skip": 1}
    assert document["core_summary"] == {"pass": 0, "fail": 0, "warn": 1, "skip": 0}
    assert (document["passed"], document["strict"], document["requests"]) == (False, True, 7)
    assert document["requirements"][0]["id"] == "CMD-1"
    assert document["core"][0]["status"] == "warn"
    assert document["agent"]["card_url"] == "http://a/card"
