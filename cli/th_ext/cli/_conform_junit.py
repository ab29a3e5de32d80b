"""The conformance report as JUnit XML, built with ElementTree.

One ``<testsuite>`` (``th-ext.conform``) with one ``<testcase>`` per requirement, named by its
ID: a failed MUST requirement (or, under ``--strict``, a warned SHOULD one) holds a
``<failure>`` listing its failing checks; a warning otherwise passes with the checks in
``<system-out>``; a skipped requirement is ``<skipped>`` with the reason. The core A2A rules
(``A2A-3.1.2``...) are a second suite, ``th-ext.conform.core-a2a``, whose warnings fail only
under ``--strict``; the host's own extensions a third, ``th-ext.conform.other-extensions``,
one test case per extension, failing likewise only under ``--strict``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from th_ext.problems._junit_xml import junit_text
from th_ext.problems._text import clean

if TYPE_CHECKING:
    from th_ext.conform import ConformReport, RequirementResult

__all__ = ["render_junit"]


def _failing(requirement: RequirementResult) -> str:
    return "\n".join(
        f"{c.binding} {c.mode}, {clean(c.scenario)}: {clean(c.detail)}"
        + (f"\n  got: {clean(c.excerpt)}" if c.excerpt else "")
        for c in requirement.checks
        if c.status == "fail"
    )


def render_junit(report: ConformReport) -> str:
    root = ET.Element("testsuites", name="th-ext conform")
    _suite(root, "th-ext.conform", report.requirements, report)
    if report.core:
        _suite(root, "th-ext.conform.core-a2a", report.core, report)
    if report.other:
        _other_suite(root, report)
    return junit_text(root)


def _other_suite(root: ET.Element, report: ConformReport) -> None:
    suite = ET.SubElement(root, "testsuite", name="th-ext.conform.other-extensions")
    failures = skipped = 0
    for result in report.other:
        case = ET.SubElement(
            suite, "testcase", classname="th-ext.conform.other", name=clean(result.key)
        )
        problems = "\n".join(clean(problem) for problem in result.problems)
        if result.status == "warn" and report.strict:
            failures += 1
            failure = ET.SubElement(
                case, "failure", message=f"{clean(result.key)}: payloads refused", type="warning"
            )
            failure.text = problems
        elif result.status == "warn":
            ET.SubElement(case, "system-out").text = "warning:\n" + problems
        elif result.status == "skip":
            skipped += 1
            ET.SubElement(case, "skipped", message=clean(result.reason))
        else:
            ET.SubElement(case, "system-out").text = f"{result.checked} payload(s) checked"
    suite.set("tests", str(len(report.other)))
    suite.set("failures", str(failures))
    suite.set("errors", "0")
    suite.set("skipped", str(skipped))
    suite.set("time", "0.000")


def _suite(
    root: ET.Element, name: str, requirements: list[RequirementResult], report: ConformReport
) -> None:
    suite = ET.SubElement(root, "testsuite", name=name)
    properties = ET.SubElement(suite, "properties")
    ET.SubElement(properties, "property", name="agent", value=clean(report.agent.card_url))
    ET.SubElement(properties, "property", name="extension", value=report.agent.extension_uri)
    failures = skipped = 0
    for requirement in requirements:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=f"th-ext.conform.{requirement.level}",
            name=f"{requirement.id}: {clean(requirement.summary)}",
        )
        failed = requirement.status == "fail" or (requirement.status == "warn" and report.strict)
        if failed:
            failures += 1
            failure = ET.SubElement(
                case,
                "failure",
                message=f"{requirement.id} ({requirement.level}) not met",
                type=requirement.level,
            )
            failure.text = _failing(requirement)
        elif requirement.status == "warn":
            ET.SubElement(case, "system-out").text = "warning:\n" + _failing(requirement)
        elif requirement.status == "skip":
            skipped += 1
            ET.SubElement(case, "skipped", message=clean(requirement.reason))
        else:
            ran = sum(1 for c in requirement.checks if c.status == "pass")
            ET.SubElement(case, "system-out").text = f"{ran} check(s) passed"
    suite.set("tests", str(len(requirements)))
    suite.set("failures", str(failures))
    suite.set("errors", "0")
    suite.set("skipped", str(skipped))
    suite.set("time", f"{report.seconds:.3f}")
