"""A report as JUnit XML, the format CI systems show as test results.

One ``<testsuite>`` per layer (source, document, card, extension). Each problem is a
``<testcase>`` named after its code and path: an error (or, under ``strict``, a warning) holds a
``<failure>``; a warning otherwise passes with the message in ``<system-out>``. A layer without
problems has one passing test case, and a layer that did not run (no card could be read) has
one skipped test case, so every report shows all four layers.
"""

from __future__ import annotations

from th_ext._problem import LAYERS, Problem
from th_ext._text import clean
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
    grouped = report.by_layer()
    suites = []
    total_tests = total_failures = total_skipped = 0
    for layer in LAYERS:
        classname = f"th-ext.validate.{layer}"
        cases: list[str] = []
        failures = skipped = 0
        if layer not in report.layers:
            cases.append(_case(classname, _LAYER_TITLES[layer], "<skipped/>"))
            skipped = 1
        elif not grouped[layer]:
            cases.append(_case(classname, _LAYER_TITLES[layer], ""))
        for problem in grouped[layer]:
            body, failed = _problem_body(problem, report.fails(problem))
            failures += failed
            cases.append(_case(classname, _case_name(problem), body))
        total_tests += len(cases)
        total_failures += failures
        total_skipped += skipped
        suites.append(
            f'  <testsuite name="{classname}" tests="{len(cases)}" failures="{failures}" '
            f'errors="0" skipped="{skipped}">\n'
            f"    <properties>\n"
            f'      <property name="source" value={quoteattr(clean(report.source))}/>\n'
            f"    </properties>\n" + "".join(cases) + "  </testsuite>\n"
        )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<testsuites name="th-ext validate" tests="{total_tests}" failures="{total_failures}" '
        f'errors="0" skipped="{total_skipped}">\n' + "".join(suites) + "</testsuites>\n"
    )


def escape(text: str) -> str:
    """XML character data (``clean`` has already removed what XML 1.0 cannot hold)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def quoteattr(text: str) -> str:
    """An XML attribute value, quoted; line breaks kept as character references."""
    escaped = escape(text).replace('"', "&quot;").replace("\n", "&#10;")
    return f'"{escaped}"'


def _case_name(problem: Problem) -> str:
    return f"{problem.code} at {problem.path or '/'}"


def _case(classname: str, name: str, body: str) -> str:
    open_tag = f"    <testcase classname={quoteattr(classname)} name={quoteattr(clean(name))}"
    if not body:
        return open_tag + "/>\n"
    return f"{open_tag}>\n      {body}\n    </testcase>\n"


def _problem_body(problem: Problem, failed: bool) -> tuple[str, int]:
    text = f"{problem.severity}: {clean(problem.message)}"
    if problem.hint:
        text += f"\nhint: {clean(problem.hint)}"
    text += f"\npath: {clean(problem.path) or '(the whole document)'}"
    if failed:
        return (
            f"<failure message={quoteattr(clean(problem.message))} "
            f"type={quoteattr(problem.code)}>{escape(text)}</failure>",
            1,
        )
    return f"<system-out>{escape(text)}</system-out>", 0
