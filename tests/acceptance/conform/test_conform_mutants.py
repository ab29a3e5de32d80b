"""Every check conform makes can fail: one correct agent on the official Python SDK, and a mutant
of it for each way of breaking the extension (``tests/support/mutant_agent.py``), each failing
exactly the requirement it breaks, on the binding and interface where it breaks it.

A switch added to the agent without an entry here fails ``test_every_switch_is_expected_to_fail``;
a requirement conform checks that no mutant fails fails ``test_the_mutants_cover_every_...``.
All mutants are served by one server; each conform run is made once for the whole test run and
shared by the pytest-xdist workers, which split the runs between them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.support.mutant_agent import Switch, serve_mutants
from tests.support.run_once import shared_results
from th_ext import find
from th_ext.catalog._reader import load_requirements
from th_ext.checks import CORE_RULES
from th_ext.conform import ConformOptions, ConformReport, run_conform

pytestmark = pytest.mark.slow

RPC_STREAM, RPC_SEND = "JSONRPC stream a2a", "JSONRPC send a2a"
REST_STREAM, REST_SEND = "HTTP+JSON stream rest", "HTTP+JSON send rest"
STREAM = {RPC_STREAM}
BOTH = {RPC_STREAM, RPC_SEND}
CARD = {"card card card"}

# What each mutant must fail: requirement -> where ("binding mode interface").
EXPECTED: dict[Switch, dict[str, set[str]]] = {
    Switch.CASE_INSENSITIVE: {"CMD-6": STREAM},
    Switch.PREFIX_MATCH: {"CMD-6": STREAM},
    Switch.SLASH_STRIPPING: {"CMD-6": STREAM},
    Switch.TRIMMING: {"CMD-8": STREAM},
    Switch.SPACE_ONLY: {"CMD-1": STREAM},
    Switch.UNICODE_WHITESPACE: {"CMD-6": STREAM},
    Switch.EXTRA_PARTS: {"CMD-8": STREAM},
    Switch.MESSAGE_CHANGED: {"CMD-8": BOTH},
    Switch.HEADER_GATED: {"CMD-15": STREAM},
    Switch.REQUIRED_TRUE: {"CMD-15": CARD},
    Switch.BAD_CARD_PARAMS: {"CMD-7": CARD},
    Switch.NO_SNAPSHOT_FIRST: {"A2A-3.1.2": STREAM},
    Switch.REPLY_ON_SUB_TASK: {"CMD-2": BOTH},
    Switch.REPLY_AS_ARTIFACT: {"CMD-2": BOTH},
    Switch.REPLY_AS_MESSAGE: {"CMD-2": BOTH},
    Switch.STATE_MOVED: {"CMD-5": BOTH},
    Switch.WORKING_FIRST: {"CMD-14": STREAM},
    Switch.UPDATE_AFTER: {"CMD-14": STREAM},
    Switch.MODEL_TOO: {"CMD-1": BOTH},
    Switch.NO_METADATA: {"CMD-3": STREAM},
    Switch.EVENT_ONLY_METADATA: {"CMD-19": STREAM},
    Switch.WRONG_NAME: {"CMD-3": BOTH},
    Switch.DANGLING_TASK_REF: {"CMD-4": BOTH},
    Switch.WRONG_ROLE: {"CMD-9": BOTH},
    Switch.UNNAMED_TASK: {"CMD-11": BOTH},
    Switch.UNREGISTERED_ANSWERED: {"CMD-6": BOTH},
    Switch.SECOND_INTERFACE: {"CMD-1": {"JSONRPC stream a2a-model"}},
    Switch.ONE_BINDING: {"CMD-1": {REST_STREAM}},
}

# What a mutant may fail besides, because its one fault shows through another requirement too
# (a reply the SDK refuses to deliver, a model answer that also moves the task).
ALSO: dict[Switch, set[str]] = {
    Switch.REPLY_ON_SUB_TASK: {"CMD-1", "CMD-15"},
    Switch.MESSAGE_CHANGED: {"CMD-6"},
    Switch.UPDATE_AFTER: {"CMD-1", "CMD-2"},
    Switch.MODEL_TOO: {"CMD-5", "CMD-14", "CMD-19"},
    Switch.SPACE_ONLY: {"CMD-3"},
    Switch.SECOND_INTERFACE: {"CMD-3"},
    Switch.ONE_BINDING: {"CMD-3"},
}

RULE_EDGES = {
    Switch.CASE_INSENSITIVE,
    Switch.PREFIX_MATCH,
    Switch.SLASH_STRIPPING,
    Switch.TRIMMING,
    Switch.SPACE_ONLY,
    Switch.UNICODE_WHITESPACE,
    Switch.EXTRA_PARTS,
}
INTERFACES = {Switch.SECOND_INTERFACE, Switch.ONE_BINDING}


def options(switch: Switch) -> ConformOptions:
    """As little as shows the mutant's fault: one binding and one command unless the fault is
    in the wiring or needs a sub-task, the rule's edges only for a fault in the rule."""
    if switch is Switch.CORRECT:
        return ConformOptions()
    return ConformOptions(
        bindings=() if switch in INTERFACES else ("JSONRPC",),
        commands=("review",) if switch is Switch.DANGLING_TASK_REF else ("help",),
        rule_edges=switch in RULE_EDGES,
    )


def where(report: ConformReport) -> dict[str, list[str]]:
    """Every failed check's requirement, and where it failed."""
    found: dict[str, set[str]] = {}
    for requirement in [*report.requirements, *report.core]:
        for check in requirement.checks:
            if check.status == "fail":
                path = urlsplit(check.interface).path.rsplit("/", 1)[-1] or "card"
                found.setdefault(requirement.id, set()).add(f"{check.binding} {check.mode} {path}")
    return {rid: sorted(places) for rid, places in found.items()}


def _runs(claimed: Iterator[str]) -> Iterable[tuple[str, Any]]:
    with contextlib.ExitStack() as stack:
        origin = ""
        for key in claimed:
            origin = origin or stack.enter_context(serve_mutants())
            report = run_conform(f"{origin}/m/{key}", options(Switch(key)))
            passing = sorted(r.id for r in report.requirements if r.status == "pass")
            yield key, {"passed": report.passed, "failed": where(report), "passing": passing}


@pytest.fixture(scope="session")
def mutant_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return shared_results(tmp_path_factory, "conform-mutants", [s.value for s in Switch], _runs)


def test_every_switch_is_expected_to_fail() -> None:
    assert set(EXPECTED) == set(Switch) - {Switch.CORRECT}
    assert all(EXPECTED.values())


def test_the_mutants_cover_every_requirement_conform_checks() -> None:
    checked = {r.id for r in load_requirements(find("commands/v1")) if r.conform}
    checked |= {rule.id for rule in CORE_RULES}
    assert checked <= {rid for expected in EXPECTED.values() for rid in expected}
    assert all(rid in checked for expected in EXPECTED.values() for rid in expected)


def test_the_correct_agent_passes_every_requirement_conform_checks(
    mutant_runs: dict[str, Any],
) -> None:
    run = mutant_runs[Switch.CORRECT.value]
    checked = {r.id for r in load_requirements(find("commands/v1")) if r.conform}
    assert run["failed"] == {}
    assert set(run["passing"]) == checked


@pytest.mark.parametrize("switch", list(EXPECTED), ids=str)
def test_each_mutant_fails_its_requirement_where_it_breaks_it(
    mutant_runs: dict[str, Any], switch: Switch
) -> None:
    run = mutant_runs[switch.value]
    failed = {rid: set(places) for rid, places in run["failed"].items()}
    for requirement, places in EXPECTED[switch].items():
        assert places <= failed.get(requirement, set()), (requirement, failed)
    assert set(failed) <= set(EXPECTED[switch]) | ALSO.get(switch, set()), failed
    # a SHOULD, or a rule of core A2A, only warns
    warns = (Switch.UNNAMED_TASK, Switch.EVENT_ONLY_METADATA, Switch.NO_SNAPSHOT_FIRST)
    assert run["passed"] is (switch in warns)
