"""``th-ext validate`` given several sources: each checked and reported, the worst exit code.

Text output shows each report in turn, then one line counting the cards by verdict; a source
that cannot be read is its one-line error on standard error, and the others are still checked.
``--format json`` prints one JSON array of the reports, ``junit`` one ``<testsuites>`` document
holding every report's suites, ``github`` every report's annotations.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from th_ext.cli._output import error_line

if TYPE_CHECKING:
    from th_ext._exceptions import SourceError
    from th_ext.cli._validate import _Options
    from th_ext.validate import Report

__all__ = ["merged_junit", "validate_many"]


def validate_many(
    sources: Sequence[str],
    check: Callable[[str], tuple[Report, SourceError | None]],
    options: _Options,
) -> int:
    """Check and report every source; the worst exit code."""
    from th_ext.cli._validate import ReportFormat, render, write_junit

    reports: list[Report] = []
    for source in sources:
        report, error = check(source)
        if error is not None:  # text formats: the one-line error, then the next source
            sys.stdout.flush()
            error_line(str(error))
        elif options.output_format in (
            ReportFormat.text,
            ReportFormat.concise,
            ReportFormat.github,
        ):
            after = options.output_format is ReportFormat.text and any(r.card_read for r in reports)
            shown = render(report, options.output_format, quiet=options.quiet)
            sys.stdout.write(("\n" if after else "") + shown)
        reports.append(report)
    if options.output_format is ReportFormat.json:
        from th_ext.cli._json import to_json

        sys.stdout.write(to_json([r.to_dict() for r in reports]) + "\n")
    elif options.output_format is ReportFormat.junit:
        sys.stdout.write(merged_junit(reports))
    elif options.output_format is ReportFormat.text:
        sys.stdout.write("\n" + _verdicts(reports) + "\n")
    elif options.output_format is ReportFormat.concise:
        from th_ext.cli._validate_output import concise_count

        sys.stdout.write(concise_count(reports) + "\n")
    if options.junit_file is not None:
        write_junit(merged_junit(reports), options.junit_file)
    return max(report.exit_code for report in reports)


def _verdicts(reports: list[Report]) -> str:
    valid = sum(1 for r in reports if r.exit_code == 0)
    invalid = sum(1 for r in reports if r.exit_code == 1)
    unreadable = sum(1 for r in reports if r.exit_code == 2)
    parts = [f"{valid} valid", f"{invalid} invalid"]
    if unreadable:
        parts.append(f"{unreadable} could not be read")
    return f"{len(reports)} cards: " + ", ".join(parts)


def merged_junit(reports: list[Report]) -> str:
    """One JUnit document with every report's test suites."""
    import xml.etree.ElementTree as ET

    from th_ext.problems._junit_xml import junit_text
    from th_ext.validate import to_junit

    root = ET.Element("testsuites", name="th-ext validate")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for report in reports:
        document = ET.fromstring(to_junit(report))
        for key in totals:
            totals[key] += int(document.get(key, "0"))
        root.extend(list(document))
    root.attrib.update({key: str(value) for key, value in totals.items()})
    return junit_text(root)
