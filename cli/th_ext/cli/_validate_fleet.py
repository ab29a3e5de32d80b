"""``th-ext validate`` over several sources: the library's batch (``check_cards``), rendered.

Text shows each report as it comes (an unreadable source is its one-line error on standard
error), then the summary, ending in one line counting the cards by verdict. ``jsonl`` is one
line per source as soon as it is checked; ``json`` one array of the reports in list order,
``junit`` one ``<testsuites>`` document holding every report's suites, ``github`` every
report's annotations. The exit code is the worst of the sources'.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from th_ext.batch import BatchCounts, ListEntry, Outcome, SeenSources, check_cards
from th_ext.cli._error_document import error_document
from th_ext.cli._fleet import Renderers, run_fleet
from th_ext.cli._fleet_options import FleetOptions
from th_ext.cli._json import to_json
from th_ext.problems._junit_xml import junit_text
from th_ext.sources._limits import SourceLimits
from th_ext.validate import Report, ValidateOptions, to_junit

__all__ = ["merged_junit", "validate_fleet"]


def validate_fleet(  # noqa: PLR0917 (the run's settings, each from its own option)
    sources: list[str],
    fleet: FleetOptions,
    output_format: str,
    limits: SourceLimits,
    options_for: Callable[[str | None, float], ValidateOptions],
    junit_file: Path | None,
    render: Callable[[Report, str], str],
) -> int:
    """Check every source and render the outcomes; the worst exit code."""

    def one(outcome: Outcome, output: str) -> str:
        if not isinstance(outcome.report, Report):  # checked too long: the error document
            assert outcome.error is not None
            return error_document(outcome.error, output, command="validate", source=outcome.source)
        return render(outcome.report, output)

    def many(outcomes: list[Outcome], output: str) -> str:
        if output == "junit":
            return merged_junit([o.report for o in outcomes if isinstance(o.report, Report)])
        return to_json([o.document for o in outcomes]) + "\n"

    def start(
        entries: AsyncIterator[ListEntry], counts: BatchCounts, skip: SeenSources | None
    ) -> AsyncIterator[Outcome]:
        return check_cards(
            entries,
            options=options_for,
            limits=limits,
            jobs=fleet.jobs,
            per_origin=fleet.per_origin,
            skip=skip,
            counts=counts,
        )

    renderers = Renderers(one, many, "cards", "valid", "invalid")
    return run_fleet("validate", sources, fleet, output_format, start, renderers, junit_file)


def merged_junit(reports: list[Report]) -> str:
    """One JUnit document with every report's test suites."""
    root = ET.Element("testsuites", name="th-ext validate")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for report in reports:
        document = ET.fromstring(to_junit(report))
        for key in totals:
            totals[key] += int(document.get(key, "0"))
        root.extend(list(document))
    root.attrib.update({key: str(value) for key, value in totals.items()})
    return junit_text(root)
