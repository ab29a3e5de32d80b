"""A report as JUnit XML, the format CI systems show as test results.

One ``<testsuite>`` per layer (source, document, card, extension). Each problem is a
``<testcase>`` named after its code and path: an error (or, under ``strict``, a warning) holds a
``<failure>``; a warning otherwise passes with the message in ``<system-out>``. A layer without
problems has one passing test case, and a layer that did not run (no card could be read) has
one skipped test case, so every report shows all four layers.
"""

from __future__ import annotations

from th_ext.problems._junit_xml import junit_text
from th_ext.problems._problem import LAYERS, Problem
from th_ext.problems._text import clean
from th_ext.validate._report import Report

__all__ = ["to_junit"]

_LAYER_TITLES = {
    "source": "reading the card",
    "document": "the card is a JSON object",
    "card": "the card is an A2A 1.0 agent card",
    "extension": "the declared extensions are valid",
}


def to_junit(report: Report) -> str:
    """The report as a JUnit XML document (a ``<testsuites>`` element), ending in a newline."""
    import xml.etree.ElementTree as ET

    grouped = report.by_layer()
    root = ET.Element("testsuites", name="th-ext validate")
    totals = {"tests": 0, "failures": 0, "skipped": 0}
    for layer in LAYERS:
        classname = f"th-ext.validate.{layer}"
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
        totals["tests"] += tests
        totals["failures"] += failures
        totals["skipped"] += skipped
    root.attrib.update(
        tests=str(totals["tests"]),
        failures=str(totals["failures"]),
        errors="0",
        skipped=str(totals["skipped"]),
    )
    return junit_text(root)


def _case_name(problem: Problem) -> str:
    return f"{problem.code} at {problem.path or '/'}"


def _problem_text(problem: Problem) -> str:
    text = f"{problem.severity}: {clean(problem.message)}"
    if problem.hint:
        text += f"\nhint: {clean(problem.hint)}"
    return text + f"\npath: {clean(problem.path) or '(the whole document)'}"
