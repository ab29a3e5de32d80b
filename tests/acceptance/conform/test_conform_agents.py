"""``run_conform`` against real agents: the correct ones pass every requirement it checks, and
each broken demo variant fails the requirement it breaks, on the bindings where it shows."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from a2a.server.tasks import InMemoryTaskStore

from tests.support.asgi_server import serve_app
from tests.support.js_agent import start_js_agent
from th_ext import find
from th_ext.catalog._reader import load_requirements
from th_ext.conform import ConformOptions, ConformReport, run_conform
from th_ext.demo import DemoVariant, build_demo_app

pytestmark = pytest.mark.slow

Report = Callable[[DemoVariant], ConformReport]
ALL = {"JSONRPC/stream", "JSONRPC/send", "HTTP+JSON/stream", "HTTP+JSON/send"}
STREAMS = {"JSONRPC/stream", "HTTP+JSON/stream"}
SENDS = {"JSONRPC/send", "HTTP+JSON/send"}

# The requirement each broken variant breaks, and where: every other requirement must hold.
EXPECTED: dict[DemoVariant, dict[str, set[str]]] = {
    # with no command metadata anywhere, a client takes the reply for a model answer
    DemoVariant.NO_METADATA: {"CMD-3": STREAMS},
    DemoVariant.CHANGED_STATE: {"CMD-5": ALL},
    DemoVariant.MISSING_TASK_REF: {"CMD-4": ALL},
    DemoVariant.REPLY_AS_ARTIFACT: {"CMD-2": ALL},
    DemoVariant.WORKING_FIRST: {"CMD-14": STREAMS},
    DemoVariant.REPLY_AS_MESSAGE: {"CMD-2": ALL},
    DemoVariant.UNREGISTERED_AS_COMMAND: {"CMD-6": ALL},
    DemoVariant.USER_ROLE: {"CMD-9": ALL},
    DemoVariant.SLASHED_COMMAND: {"CMD-3": ALL},
    DemoVariant.REACHES_MODEL: {"CMD-1": STREAMS},
    DemoVariant.UNNAMED_TASK: {"CMD-11": ALL},
}


# The model's answer follows the reply in the background. A stream shows it every time; to
# SendMessage it shows only when it lands before conform reads the task, so on those bindings,
# and in the state and the reply message it leaves behind, the run may or may not see it.
MAY_ALSO_FAIL: dict[DemoVariant, dict[str, set[str]]] = {
    DemoVariant.REACHES_MODEL: {"CMD-1": ALL, "CMD-5": ALL, "CMD-14": STREAMS},
}


def failures(report: ConformReport) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for requirement in report.requirements:
        for check in requirement.checks:
            if check.status == "fail":
                found.setdefault(requirement.id, set()).add(f"{check.binding}/{check.mode}")
    return found


def test_every_broken_variant_is_listed() -> None:
    assert set(EXPECTED) == {v for v in DemoVariant if v.broken}
    for variant, expected in EXPECTED.items():
        assert variant.requirement in expected


@pytest.mark.parametrize("variant", [DemoVariant.CORRECT, DemoVariant.NO_STREAMING])
def test_the_demo_agent_passes_every_requirement_conform_checks(
    conform_report: Report, variant: DemoVariant
) -> None:
    report = conform_report(variant)
    checked = {r.id for r in load_requirements(find("commands/v1")) if r.conform}
    assert report.passed
    assert {r.id for r in report.requirements if r.status == "pass"} == checked - (
        {"CMD-14", "CMD-19"} if variant is DemoVariant.NO_STREAMING else set()
    )
    assert report.agent.bindings_checked == ["JSONRPC", "HTTP+JSON"]
    assert report.agent.streaming is (variant is DemoVariant.CORRECT)
    assert [(r.id, r.status) for r in report.core] == [
        ("A2A-3.1.2", "pass" if variant is DemoVariant.CORRECT else "skip"),
        ("A2A-8.6", "pass"),
    ]


@pytest.mark.parametrize("variant", [DemoVariant.MESSAGE_ONLY, DemoVariant.EVENT_ONLY], ids=str)
def test_metadata_in_either_place_passes_with_a_warning_on_both_places(
    conform_report: Report, variant: DemoVariant
) -> None:
    report = conform_report(variant)
    assert report.passed
    assert failures(report) == {"CMD-19": STREAMS}
    assert {r.id: r.status for r in report.requirements}["CMD-19"] == "warn"
    assert not run_conform(conform_agent_url(report), ConformOptions(strict=True)).passed


def conform_agent_url(report: ConformReport) -> str:
    return report.agent.card_url


def test_metadata_in_neither_place_fails_on_cmd_3_alone(conform_report: Report) -> None:
    report = conform_report(DemoVariant.NO_METADATA)
    assert not report.passed
    assert report.failed() == ["CMD-3"]
    details = {c.detail for r in report.requirements for c in r.checks if c.status == "fail"}
    assert any("a client takes this answer for the model's" in d for d in details)


@pytest.mark.parametrize("variant", list(EXPECTED), ids=str)
def test_a_broken_variant_fails_its_requirement_on_the_right_bindings(
    conform_report: Report, variant: DemoVariant
) -> None:
    report = conform_report(variant)
    assert report.passed is (variant is DemoVariant.UNNAMED_TASK)  # a SHOULD only warns
    found = failures(report)
    if variant not in MAY_ALSO_FAIL:
        assert found == EXPECTED[variant]
        return
    allowed = MAY_ALSO_FAIL[variant]
    for requirement, where in EXPECTED[variant].items():
        assert where <= found.get(requirement, set()), requirement
    for requirement, where in found.items():
        assert where <= allowed.get(requirement, set()), requirement


def test_the_correct_demo_leaves_no_command_metadata_on_its_tasks(conform_report: Report) -> None:
    assert not any(
        "still holds command" in note for note in conform_report(DemoVariant.CORRECT).notes
    )


def test_every_check_names_a_requirement_of_the_spec(conform_report: Report) -> None:
    ids = {r.id for r in load_requirements(find("commands/v1")) if r.in_force}
    report = conform_report(DemoVariant.CORRECT)
    assert {r.id for r in report.requirements} == ids  # a retired requirement is not reported
    for requirement in report.requirements:
        assert requirement.id in ids
        assert requirement.anchor_url.endswith(f"/commands/v1#{requirement.id.lower()}")
        assert all(check.requirement == requirement.id for check in requirement.checks)


def test_the_stale_task_metadata_is_noted_and_never_taken_for_a_reply() -> None:
    """The demo agent on the SDK's own task store, which keeps each reply's command metadata on
    its task (the demo's own store does not: the correct demo's report has no such note)."""

    def build(base_url: str) -> object:
        return build_demo_app(base_url, task_store=InMemoryTaskStore())

    with serve_app(build) as base_url:
        report = run_conform(base_url, ConformOptions())
    assert any("still holds command 'review'" in note for note in report.notes)
    ordinary = next(r for r in report.requirements if r.id == "CMD-8")
    assert ordinary.status == "pass"
    # the plain question on (new, existing) x 4 bindings/modes, and the 7 edges of the rule that
    # name no command (a leading space, a lone slash, the four part edges) once per interface
    assert len(ordinary.checks) == 2 * 4 + 7 * 2


def test_it_runs_in_process_through_an_injected_transport() -> None:
    app = build_demo_app("http://agent.test")
    report = run_conform("http://agent.test", transport=httpx.ASGITransport(app=app))
    assert report.passed
    assert report.agent.card_url == "http://agent.test/.well-known/agent-card.json"
    assert report.requests > 100


def test_the_js_sdk_agent_passes_every_requirement_conform_checks(js_agent: str) -> None:
    report = run_conform(js_agent)
    assert report.passed, failures(report)
    checked = {r.id for r in load_requirements(find("commands/v1")) if r.conform}
    assert {r.id for r in report.requirements if r.status == "pass"} == checked
    assert report.agent.bindings_checked == ["JSONRPC", "HTTP+JSON"]


@pytest.mark.parametrize("place", ["message", "event"])
def test_the_js_sdk_agent_passes_with_the_metadata_in_one_place(js_agent: str, place: str) -> None:
    with start_js_agent(metadata_on=place) as agent:
        report = run_conform(agent.base_url)
    assert report.passed, failures(report)
    assert failures(report) == {"CMD-19": STREAMS}
    detail = next(c.detail for r in report.requirements for c in r.checks if c.status == "fail")
    kept = "reply message" if place == "message" else "status update"
    assert detail.startswith(f"only the {kept} carries the command metadata")
