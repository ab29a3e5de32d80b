"""JUnit XML, the test-result format CI systems show, built once with ElementTree: every JUnit
document th-ext writes (validation and conformance reports, error documents)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, cast

from th_ext.problems import LAYERS, Problem, clean, counted, shown_path

if TYPE_CHECKING:
    from th_ext.conform import ConformReport, RequirementResult
    from th_ext.validate import Report

__all__ = ["junit_text", "run_junit"]


def junit_text(root: ET.Element) -> str:
    """``root`` (a ``<testsuites>`` element) as an indented document, ending in a newline."""
    ET.indent(root, space="  ")
    body = ET.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n"


def _suite_name(name: str, of: str | None) -> str:
    """A suite's or a test case's class name: ``name``, followed by the source or agent it is of
    when the document holds several (``of`` is then given), so that no two sources' suites, nor
    their test cases, share a name."""
    return f"{name} {clean(of)}" if of is not None else name


def _error_suite(
    root: ET.Element, title: str, source: str | None, code: str, message: str, *, several: bool
) -> None:
    name = _suite_name(title, source if several and source else None)
    suite = ET.SubElement(
        root, "testsuite", name=name, tests="1", failures="0", errors="1", skipped="0"
    )
    case = ET.SubElement(
        suite, "testcase", classname=title, name=clean(source) if source else title
    )
    error = ET.SubElement(case, "error", type=code, message=clean(message))
    error.text = clean(message)


def run_junit(command: str | None, items: Iterable[Report | ConformReport | dict[str, Any]]) -> str:
    """One JUnit XML document of a run of ``th-ext command``: each validation or conformance
    report's suites and, for each source that could not be checked (its error document, as
    ``jsonl`` writes it), a suite with one ``<error>``; the totals are those of every suite.
    With several sources, each suite's name, and the class name of its test cases, end with what
    they are of, so that CI systems, which key suites and cases by name, keep them apart: a
    conformance report's with its agent's card URL
    (``th-ext.conform http://agent.example/.well-known/agent-card.json``), a validation
    report's with its source; an error suite's name ends with its source, which names its one
    case. One source's suites keep their plain names and class names (``th-ext.conform``,
    ``th-ext.validate.card``).
    Text from a card or an agent goes through ``clean``: ElementTree escapes, but keeps what XML
    1.0 cannot hold."""
    title = f"th-ext {command}" if command else "th-ext"
    root = ET.Element("testsuites", name=title)
    listed = list(items)
    several = len(listed) > 1
    for item in listed:
        if isinstance(item, dict):
            error = item["error"]
            _error_suite(
                root, title, item["source"], error["code"], error["message"], several=several
            )
        elif hasattr(item, "requirements"):
            report = cast("ConformReport", item)
            _conform_suites(root, report, report.agent.card_url if several else None)
        else:
            _validate_suites(root, item, item.source if several else None)
    for key in ("tests", "failures", "errors", "skipped"):
        root.set(key, str(sum(int(suite.get(key, "0")) for suite in root)))
    return junit_text(root)


_LAYER_TITLES = {
    "source": "reading the card",
    "document": "the card is a JSON object",
    "card": "the card is an A2A 1.0 agent card",
    "extension": "the declared extensions are valid",
}


def _validate_suites(root: ET.Element, report: Report, of: str | None) -> None:
    """``report``'s four suites, one per layer, added to ``root``; ``of`` ends their names."""
    grouped = report.by_layer()
    for layer in LAYERS:
        classname = _suite_name(f"th-ext.validate.{layer}", of)
        suite = ET.SubElement(root, "testsuite", name=classname)
        properties = ET.SubElement(suite, "properties")
        ET.SubElement(properties, "property", name="source", value=clean(report.source))
        tests = failures = skipped = 0
        if layer not in report.layers:
            case = ET.SubElement(suite, "testcase", classname=classname, name=_LAYER_TITLES[layer])
            ET.SubElement(case, "skipped")
            tests, skipped = 1, 1
        elif not grouped[layer]:
            ET.SubElement(suite, "testcase", classname=classname, name=_LAYER_TITLES[layer])
            tests = 1
        for problem in grouped[layer]:
            case = ET.SubElement(
                suite, "testcase", classname=classname, name=clean(_case_name(problem))
            )
            failed = report.fails(problem)
            if failed:
                body = ET.SubElement(
                    case, "failure", message=clean(problem.message), type=problem.code
                )
            else:
                body = ET.SubElement(case, "system-out")
            body.text = _problem_text(problem)
            tests += 1
            failures += failed
        suite.attrib.update(
            tests=str(tests), failures=str(failures), errors="0", skipped=str(skipped)
        )


def _case_name(problem: Problem) -> str:
    return f"{problem.code} at {shown_path(problem.path) or '(the whole document)'}"


def _problem_text(problem: Problem) -> str:
    text = f"{problem.severity}: {clean(problem.message)}"
    if problem.hint:
        text += f"\nhint: {clean(problem.hint)}"
    return text + f"\npath: {shown_path(problem.path) or '(the whole document)'}"


def _failing(requirement: RequirementResult) -> str:
    return "\n".join(
        ("" if c.mode == "card" else f"{c.binding} {c.mode}, ")
        + f"{clean(c.scenario)}: {clean(c.detail)}"
        + (f"\n  got: {clean(c.excerpt)}" if c.excerpt else "")
        for c in requirement.checks
        if c.status == "fail"
    )


def _conform_suites(root: ET.Element, report: ConformReport, of: str | None) -> None:
    """``report``'s suites added to ``root``; ``of`` ends their names."""
    _suite(root, "th-ext.conform", report.requirements, report, of)
    if report.core:
        _suite(root, "th-ext.conform.core-a2a", report.core, report, of)
    if report.other:
        _other_suite(root, report, of)


def _other_suite(root: ET.Element, report: ConformReport, of: str | None) -> None:
    name = _suite_name("th-ext.conform.other-extensions", of)
    suite = ET.SubElement(root, "testsuite", name=name)
    failures = skipped = 0
    for result in report.other:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=_suite_name("th-ext.conform.other", of),
            name=clean(result.key),
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
            ET.SubElement(case, "system-out").text = f"{counted(result.checked, 'payload')} checked"
    _set_totals(suite, len(report.other), failures, skipped, "0.000")


def _set_totals(suite: ET.Element, tests: int, failures: int, skipped: int, time: str) -> None:
    suite.attrib.update(
        tests=str(tests), failures=str(failures), errors="0", skipped=str(skipped), time=time
    )


def _suite(
    root: ET.Element,
    name: str,
    requirements: list[RequirementResult],
    report: ConformReport,
    of: str | None,
) -> None:
    suite = ET.SubElement(root, "testsuite", name=_suite_name(name, of))
    properties = ET.SubElement(suite, "properties")
    ET.SubElement(properties, "property", name="agent", value=clean(report.agent.card_url))
    ET.SubElement(properties, "property", name="extension", value=report.agent.extension_uri)
    failures = skipped = 0
    for requirement in requirements:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=_suite_name(f"th-ext.conform.{requirement.level}", of),
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
            ET.SubElement(case, "system-out").text = f"{counted(ran, 'check')} passed"
    _set_totals(suite, len(requirements), failures, skipped, f"{report.seconds:.3f}")
