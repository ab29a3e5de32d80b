"""``th-ext conform`` over several agents: the library's batch (``check_agents``), rendered.

Text shows each agent's report as it comes (an agent that cannot be checked is its one-line
error on standard error), then the summary. ``jsonl`` is one line per agent as soon as it is
checked: the ``--format json`` report with its ``source``, or the error document of an agent
that could not be checked. ``json`` is one array of those objects in list order, ``junit`` one
``<testsuites>`` document of every agent's suites, ``github`` every agent's annotations.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from collections.abc import AsyncIterator
from pathlib import Path

from th_ext.batch import BatchCounts, ListEntry, Outcome, SeenSources, check_agents
from th_ext.cli._fleet import Renderers, run_fleet
from th_ext.cli._fleet_options import FleetOptions
from th_ext.cli._terminal import use_color
from th_ext.conform import ConformOptions, ConformReport
from th_ext.report import error_document, junit_text, render, to_json

__all__ = ["conform_fleet"]


def conform_fleet(
    sources: list[str],
    fleet: FleetOptions,
    output_format: str,
    options: ConformOptions,
    junit_file: Path | None,
) -> int:
    """Check every agent and render the outcomes; the worst exit code."""
    color = fleet.output is None and use_color(sys.stdout)

    def one(outcome: Outcome, output: str) -> str:
        if not isinstance(outcome.report, ConformReport):
            assert outcome.error is not None
            return error_document(outcome.error, output, command="conform", source=outcome.source)
        return render(outcome.report, output, color=color)

    def many(outcomes: list[Outcome], output: str) -> str:
        if output == "json":
            return to_json([o.document for o in outcomes]) + "\n"
        root = ET.Element("testsuites", name="th-ext conform")
        totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        for outcome in outcomes:
            if isinstance(outcome.report, ConformReport):
                text = render(outcome.report, "junit")
            else:
                assert outcome.error is not None
                text = error_document(
                    outcome.error, "junit", command="conform", source=outcome.source
                )
            document = ET.fromstring(text)
            for key in totals:
                totals[key] += int(document.get(key, "0"))
            root.extend(list(document))
        root.attrib.update({key: str(value) for key, value in totals.items()})
        return junit_text(root)

    def start(
        entries: AsyncIterator[ListEntry], counts: BatchCounts, skip: SeenSources | None
    ) -> AsyncIterator[Outcome]:
        return check_agents(
            entries,
            options=options,
            jobs=fleet.jobs,
            per_origin=fleet.per_origin,
            skip=skip,
            counts=counts,
        )

    renderers = Renderers(one, many, "agents", "passed", "failed")
    return run_fleet("conform", sources, fleet, output_format, start, renderers, junit_file)
