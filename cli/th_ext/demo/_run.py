"""The whole demo: start the agent, then validate its card, dry-run ``/model fast`` and run
``th-ext conform`` against it."""

from __future__ import annotations

from dataclasses import dataclass

from th_ext._exceptions import SourceError
from th_ext.conform import ConformOptions, ConformReport, run_conform
from th_ext.demo._server import DemoServer
from th_ext.demo._variants import DemoVariant
from th_ext.dispatch import DispatchPlan, plan_dispatch, text_message
from th_ext.sources._source import SourceLimits, read_source
from th_ext.validate import Report, load_card, report_for_source_error, validate_bytes

__all__ = ["DEMO_COMMAND", "DemoRun", "run_demo"]

DEMO_COMMAND = "/model fast"


@dataclass(frozen=True)
class DemoRun:
    """Everything the demo did against the agent at ``base_url``."""

    base_url: str
    card_location: str
    validation: Report
    """The validate report of the agent's card."""
    dry_run: DispatchPlan
    """The dry run of ``/model fast`` on the card alone."""
    conformance: ConformReport
    """The ``th-ext conform`` report of the running agent."""

    @property
    def validation_passed(self) -> bool:
        return self.validation.valid

    @property
    def dry_run_passed(self) -> bool:
        """The dry run found ``/model`` to be a command and a request to send it with."""
        plan = self.dry_run
        return plan.outcome == "command" and plan.command == "model" and plan.request is not None

    @property
    def passed(self) -> bool:
        return self.validation_passed and self.dry_run_passed and self.conformance.passed


def run_demo(variant: DemoVariant = DemoVariant.CORRECT, *, timeout: float = 10.0) -> DemoRun:
    """Start the demo agent on a free local port, run every step against it, and stop it."""
    limits = SourceLimits(timeout=timeout)
    with DemoServer(variant) as server:
        validation = _validate(server.base_url, limits)
        loaded = load_card(server.base_url, limits)
        dry_run = plan_dispatch(loaded.card, text_message(DEMO_COMMAND))
        conformance = run_conform(server.base_url, ConformOptions(limits=limits))
        return DemoRun(
            base_url=server.base_url,
            card_location=loaded.location,
            validation=validation,
            dry_run=dry_run,
            conformance=conformance,
        )


def _validate(base_url: str, limits: SourceLimits) -> Report:
    """Validate the card at ``base_url`` as ``th-ext validate`` does: read it, then check it."""
    try:
        raw = read_source(base_url, limits)
    except SourceError as exc:
        return report_for_source_error(base_url, exc)
    return validate_bytes(raw.data, source=base_url, location=raw.location, notices=raw.notices)
