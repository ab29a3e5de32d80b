"""Real demo agents on 127.0.0.1 for the conformance tests (each variant started once), and one
conform run per variant, shared by the tests that read it."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.support.demo_agents import DemoAgents
from th_ext.conform import ConformOptions, ConformReport, run_conform
from th_ext.demo import DemoServer, DemoVariant

Agent = Callable[[DemoVariant], DemoServer]


@pytest.fixture(scope="session")
def conform_agent() -> Iterator[Agent]:
    agents = DemoAgents()
    yield agents
    agents.stop_all()


@pytest.fixture(scope="session")
def conform_report(conform_agent: Agent) -> Callable[[DemoVariant], ConformReport]:
    """The library's report for a variant, computed once per session. A broken variant's fault
    is in its replies, so its run leaves out the edges of the rule (the mutant agents in
    test_conform_mutants.py break the rule itself)."""
    reports: dict[DemoVariant, ConformReport] = {}

    def get(variant: DemoVariant) -> ConformReport:
        if variant not in reports:
            options = ConformOptions(rule_edges=not variant.broken)
            reports[variant] = run_conform(conform_agent(variant).base_url, options)
        return reports[variant]

    return get
