"""``th-ext validate`` over several sources: the library's batch (``check_cards``), rendered.

Text shows each report as it comes (an unreadable source is its one-line error on standard
error), then the summary, ending in one line counting the cards by verdict. ``jsonl`` is one
line per source as soon as it is checked; ``json`` one array of the reports in list order,
``junit`` one ``<testsuites>`` document holding every report's suites, ``github`` every
report's annotations. The exit code is the worst of the sources'.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from th_ext import SourceLimits
from th_ext.batch import BatchCounts, ListEntry, Outcome, SeenSources, check_cards
from th_ext.cli._fleet import Renderers, run_fleet
from th_ext.cli._fleet_options import FleetOptions
from th_ext.cli._terminal import use_color
from th_ext.report import error_document, render, to_json
from th_ext.validate import Report, ValidateOptions

__all__ = ["validate_fleet"]


def validate_fleet(  # noqa: PLR0917 (the run's settings, each from its own option)
    sources: list[str],
    fleet: FleetOptions,
    output_format: str,
    limits: SourceLimits,
    options_for: Callable[[str | None, float], ValidateOptions],
    junit_file: Path | None,
) -> int:
    """Check every source and render the outcomes; the worst exit code."""
    color = fleet.output is None and use_color(sys.stdout)

    def one(outcome: Outcome, output: str) -> str:
        if not isinstance(outcome.report, Report):  # checked too long: the error document
            assert outcome.error is not None
            return error_document(outcome.error, output, command="validate", source=outcome.source)
        return render(outcome.report, output, color=color)

    def many(outcomes: list[Outcome], output: str) -> str:
        if output == "junit":
            return render([o.report for o in outcomes if isinstance(o.report, Report)], "junit")
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
