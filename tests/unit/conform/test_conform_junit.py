"""Conform's JUnit report on a report whose agent answered with text made to break it."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from th_ext.conform import (
    AgentInfo,
    Check,
    CheckStatus,
    ConformReport,
    RequirementResult,
    RequirementStatus,
)
from th_ext.report._junit import run_junit

EVIL = "\x1b[2J\x1b]0;owned\x07]]> & <b> \"q\" 'a' \x00\x0b\ud800\ufffe\u202eevil\u202c 1e400"
SAFE = "]]> & <b> \"q\" 'a'  \ufffdevil 1e400"
"""``EVIL`` as every report shows it: escapes and controls gone, the vertical tab a space, the
surrogate replaced."""


def check(requirement: str, status: CheckStatus, detail: str = EVIL) -> Check:
    return Check(requirement, status, "JSONRPC", f"/model {EVIL}", "stream", detail)


def report(*, strict: bool) -> ConformReport:
    def result(
        id_: str, level: str, status: RequirementStatus, checks: list[Check], reason: str = ""
    ) -> RequirementResult:
        summary = f"Summary {EVIL}"
        return RequirementResult(id_, level, "s", summary, "https://x/#a", status, checks, reason)

    agent = AgentInfo(
        f"agent {EVIL}",
        "http://***@127.0.0.1:8001/\x1b[31mcard?a=1&b=<2>",
        "https://madarauchiha-314.github.io/tiny-harness/a2a/ext/commands/v1",
        ["model"],
        ["JSONRPC"],
        [],
        True,
    )
    requirements = [
        result("CMD-1", "MUST", "pass", [check("CMD-1", "pass"), check("CMD-1", "pass")]),
        result("CMD-2", "MUST", "fail", [check("CMD-2", "fail"), check("CMD-2", "pass", "ok")]),
        result("CMD-3", "SHOULD", "warn", [check("CMD-3", "fail", "late & <slow>")]),
        result("CMD-4", "MUST", "skip", [], f"no sub-task {EVIL}"),
    ]
    return ConformReport(False, strict, agent, requirements, [], [], 9, 1.2345)


def parse(strict: bool) -> ET.Element:
    document = run_junit("conform", [report(strict=strict)])
    for char in ("\x1b", "\x07", "\x00", "\x0b", "\ufffe", "\u202e"):
        assert char not in document
    suite = ET.fromstring(document.encode("utf-8")).find("testsuite")
    assert suite is not None
    return suite


def test_hostile_text_reads_back_as_the_text_report_shows_it() -> None:
    suite = parse(strict=False)
    counts = ("tests", "failures", "errors", "skipped", "time")
    assert [suite.get(key) for key in counts] == ["4", "1", "0", "1", "1.234"]
    properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert properties == {
        "agent": "http://***@127.0.0.1:8001/card?a=1&b=<2>",
        "extension": "https://madarauchiha-314.github.io/tiny-harness/a2a/ext/commands/v1",
    }
    cases = suite.findall("testcase")
    assert [(c.get("classname"), c.get("name")) for c in cases] == [
        ("th-ext.conform.MUST", f"CMD-1: Summary {SAFE}"),
        ("th-ext.conform.MUST", f"CMD-2: Summary {SAFE}"),
        ("th-ext.conform.SHOULD", f"CMD-3: Summary {SAFE}"),
        ("th-ext.conform.MUST", f"CMD-4: Summary {SAFE}"),
    ]
    assert cases[0].findtext("system-out") == "2 checks passed"
    failure = cases[1].find("failure")
    assert failure is not None
    assert (failure.get("message"), failure.get("type")) == ("CMD-2 (MUST) not met", "MUST")
    assert failure.text == f"JSONRPC stream, /model {SAFE}: {SAFE}"
    warning = f"warning:\nJSONRPC stream, /model {SAFE}: late & <slow>"
    assert cases[2].findtext("system-out") == warning
    skipped = cases[3].find("skipped")
    assert skipped is not None and skipped.get("message") == f"no sub-task {SAFE}"


def test_under_strict_a_warning_fails() -> None:
    suite = parse(strict=True)
    assert suite.get("failures") == "2"
    failure = suite.findall("testcase")[2].find("failure")
    assert failure is not None
    assert (failure.get("message"), failure.get("type")) == ("CMD-3 (SHOULD) not met", "SHOULD")
    assert failure.text == f"JSONRPC stream, /model {SAFE}: late & <slow>"
