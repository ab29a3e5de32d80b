"""Every conformance report counts in words that agree with the number: ``1 check``,
``2 checks``, never ``check(s)``."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from th_ext.conform import (
    AgentInfo,
    Check,
    CheckStatus,
    ConformReport,
    InterfaceInfo,
    RequirementResult,
    RequirementStatus,
)
from th_ext.conform._family import OtherExtensionResult
from th_ext.report import render

PASSING = "http://a/passing"
FAILING = "http://a/failing"
TEXT_LISTED = 10
"""How many failed checks of a requirement the text report lists before it counts the rest."""
GITHUB_LISTED = 5
"""How many the GitHub annotations list."""


def checks(requirement: str, status: CheckStatus, count: int, interface: str = "") -> list[Check]:
    mode = "stream" if interface else "card"
    return [
        Check(requirement, status, "JSONRPC", f"/help {i}", mode, "detail", interface)
        for i in range(count)
    ]


def requirement(
    id_: str, level: str, status: RequirementStatus, found: list[Check]
) -> RequirementResult:
    summary, anchor = f"summary of {id_}", f"https://x#{id_}"
    return RequirementResult(id_, level, "agent", summary, anchor, status, found)


def counted_report(count: int) -> ConformReport:
    """A report with ``count`` of everything the reports count: the checks of the passing
    interface and of the passing requirement, the checks of the failing interface (one of them
    failed), the failed checks not listed, the warnings, the core A2A warnings, the requests and
    the payloads of another extension."""
    requirements = [
        requirement("CMD-1", "MUST", "pass", checks("CMD-1", "pass", count, PASSING)),
        requirement(
            "CMD-2",
            "MUST",
            "fail",
            checks("CMD-2", "fail", 1, FAILING) + checks("CMD-2", "pass", count - 1, FAILING),
        ),
        requirement("CMD-3", "MUST", "fail", checks("CMD-3", "fail", GITHUB_LISTED + count)),
        requirement("CMD-4", "MUST", "fail", checks("CMD-4", "fail", TEXT_LISTED + count)),
        *(
            requirement(f"CMD-{5 + i}", "SHOULD", "warn", checks(f"CMD-{5 + i}", "fail", 1))
            for i in range(count)
        ),
    ]
    core = [
        requirement(f"A2A-{i}", "MUST", "warn", checks(f"A2A-{i}", "fail", 1)) for i in range(count)
    ]
    agent = AgentInfo(
        name="agent",
        card_url="http://a/card.json",
        extension_uri="uri",
        commands=["help"],
        bindings_checked=["JSONRPC"],
        bindings_not_checked=[],
        streaming=True,
        interfaces=[
            InterfaceInfo("JSONRPC", PASSING, "checked"),
            InterfaceInfo("JSONRPC", FAILING, "checked"),
        ],
    )
    other = [OtherExtensionResult("https://x/task/v1", "task/v1", "pass", count)]
    return ConformReport(
        False, False, agent, requirements, [], ["/help"], count, 0.1, core=core, other=other
    )


WORDS = {
    1: {
        "checks": "1 check",
        "failed": "1 of 1 check failed",
        "more": "and 1 more failing check",
        "more github": "and 1 more check",
        "warnings": "1 warning",
        "core": "1 core A2A warning",
        "requests": "1 request in",
        "payloads": "1 payload checked",
    },
    2: {
        "checks": "2 checks",
        "failed": "1 of 2 checks failed",
        "more": "and 2 more failing checks",
        "more github": "and 2 more checks",
        "warnings": "2 warnings",
        "core": "2 core A2A warnings",
        "requests": "2 requests in",
        "payloads": "2 payloads checked",
    },
}


@pytest.mark.parametrize("count", [1, 2])
def test_the_text_report_counts_in_the_singular_and_the_plural(count: int) -> None:
    words = WORDS[count]
    lines = render(counted_report(count), "text").splitlines()
    assert "(s)" not in "\n".join(lines)
    passing, failing = (next(line for line in lines if url in line) for url in (PASSING, FAILING))
    assert passing.endswith(f"stream, send; {words['checks']}")
    assert failing.endswith(f"stream, send; {words['failed']}: CMD-2")
    assert f"        {words['checks']}: JSONRPC stream" in lines
    assert f"        {words['more']}" in lines
    assert lines[-1] == (
        f"FAILED: 1 passed, 3 failed, {words['warnings']}, 0 skipped, {words['core']}; "
        f"{words['requests']} 0.10 s"
    )
    assert f"  pass  task/v1: {words['payloads']}" in lines


@pytest.mark.parametrize("count", [1, 2])
def test_the_html_report_counts_in_the_singular_and_the_plural(count: int) -> None:
    words = WORDS[count]
    html = render(counted_report(count), "html")
    assert "(s)" not in html
    assert f"<td>{words['checks']} passed</td>" in html
    assert f"<td>{words['failed']}: " in html
    assert f"<summary>{words['checks']} passed</summary>" in html
    assert f"<summary>{words['failed']}</summary>" in html
    assert f'<span class="warn">{words["warnings"]}</span>' in html
    assert f"<td>{words['payloads']}</td>" in html


@pytest.mark.parametrize("count", [1, 2])
def test_the_junit_report_counts_in_the_singular_and_the_plural(count: int) -> None:
    words = WORDS[count]
    root = ET.fromstring(render(counted_report(count), "junit").encode("utf-8"))
    said = {
        case.get("name"): case.findtext("system-out")
        for case in root.iter("testcase")
        if case.find("system-out") is not None
    }
    assert said["CMD-1: summary of CMD-1"] == f"{words['checks']} passed"
    assert said["task/v1"] == words["payloads"]


@pytest.mark.parametrize("count", [1, 2])
def test_the_github_annotations_count_in_the_singular_and_the_plural(count: int) -> None:
    words = WORDS[count]
    lines = render(counted_report(count), "github").splitlines()
    annotated = next(line for line in lines if "title=CMD-3::" in line)
    assert annotated.endswith(f"%0A{words['more github']}")
    assert lines[-1].endswith(
        f"failed (1 passed, 3 failed, {words['warnings']}, 0 skipped, {words['core']})"
    )
