"""``conform`` against the agent shaped like tiny-harness 0.9 (tests/support/tiny_harness_agent.py):
it passes over both bindings with the metadata where the owner puts it (the message) and where
the other reading puts it (the event); only the SHOULD of both places, the core A2A rule of
a stream's first event, and the core A2A rule of a card response's caching fields (the SDK's
card route sends an ETag but no Cache-Control) warn. With media on, its v1 card lists a
surface command, which fails CMD-7 with the runsOn explanation and is never sent."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import httpx
import pytest

from tests.support.tiny_harness_agent import STATUS_KEY, TASK_KEY, start_tiny_harness_agent
from th_ext.commands import MetadataPlace
from th_ext.conform import ConformOptions, ConformReport, run_conform

pytestmark = pytest.mark.slow

Reports = Callable[[bool, MetadataPlace], ConformReport]


@pytest.fixture(scope="module")
def reports() -> Iterator[Reports]:
    made: dict[tuple[bool, str], ConformReport] = {}

    def get(media: bool, place: MetadataPlace) -> ConformReport:
        if (media, place) not in made:
            with start_tiny_harness_agent(media=media, metadata_on=place) as url:
                made[media, place] = run_conform(url)
        return made[media, place]

    yield get


def failing(report: ConformReport) -> dict[str, str]:
    return {r.id: r.status for r in [*report.requirements, *report.core] if r.status != "pass"}


@pytest.mark.parametrize("place", ["message", "event"])
def test_it_passes_with_the_metadata_in_either_place(
    reports: Reports, place: MetadataPlace
) -> None:
    report = reports(False, place)
    assert report.passed
    assert report.agent.bindings_checked == ["JSONRPC", "HTTP+JSON"]
    warned = {rid for rid, status in failing(report).items() if status == "warn"}
    assert warned == {"CMD-19", "A2A-3.1.2", "A2A-8.6"}
    assert not [r.id for r in report.requirements if r.status == "fail"]


def test_its_new_task_parking_and_snapshots_pass_the_state_rules(reports: Reports) -> None:
    report = reports(False, "message")
    by_id = {r.id: r for r in report.requirements}
    assert by_id["CMD-5"].status == "pass"
    assert by_id["CMD-14"].status == "pass"
    new_task = [c.detail for c in by_id["CMD-5"].checks if "new task" in c.scenario]
    assert "TASK_STATE_INPUT_REQUIRED in the reply, TASK_STATE_INPUT_REQUIRED after" in new_task
    assert any("then a Task snapshot" in c.detail for c in by_id["CMD-14"].checks)


def test_the_core_warning_names_the_sdk_streams_that_skip_the_task(reports: Reports) -> None:
    report = reports(False, "message")
    core, caching = report.core
    assert core.id == "A2A-3.1.2"
    assert [c.detail.split(":")[0] for c in caching.checks] == ["card-cache-control-missing"]
    failed = [c for c in core.checks if c.status == "fail"]
    assert failed and all(c.scenario.endswith("existing task") for c in failed)
    assert all(c.detail == "the stream began with statusUpdate, not the Task" for c in failed)


def test_strict_turns_the_warnings_into_a_failed_run() -> None:
    with start_tiny_harness_agent(media=False) as url:
        report = run_conform(url, ConformOptions(commands=("status",), strict=True))
    assert not report.passed


def test_with_media_the_surface_command_fails_cmd_7_and_is_never_sent(reports: Reports) -> None:
    report = reports(True, "message")
    assert report.failed() == ["CMD-7"]
    [card] = next(r for r in report.requirements if r.id == "CMD-7").checks
    assert "command 'attach' carries runsOn" in card.detail
    assert "commands v1 as published does not allow it" in card.detail
    assert not any(ran.startswith("/attach") for ran in report.commands_run)


def test_its_card_and_payloads_are_as_the_facts_say() -> None:
    with start_tiny_harness_agent(media=True) as url:
        card = httpx.get(url + ".well-known/agent-card.json").json()
        reply = httpx.post(
            url,
            json={
                "jsonrpc": "2.0",
                "id": 1,
                "method": "SendMessage",
                "params": {
                    "message": {
                        "messageId": "m1",
                        "role": "ROLE_USER",
                        "parts": [{"text": "/model x"}],
                    }
                },
            },
            headers={"A2A-Version": "1.0"},
        ).json()["result"]["task"]
    assert url.endswith("/") and "skills" not in card
    assert [(i["url"], i["protocolBinding"]) for i in card["supportedInterfaces"]] == [
        (url, "JSONRPC"),
        (url, "HTTP+JSON"),
    ]
    extensions = card["capabilities"]["extensions"]
    assert [e["uri"].rsplit("/", 2)[-2] for e in extensions[:5]] == [
        "task",
        "channel",
        "status",
        "commands",
        "media",
    ]
    assert all(not e.get("required", False) for e in extensions)
    commands = extensions[3]["params"]["commands"]
    assert [c["name"] for c in commands] == ["model", "effort", "sub-task", "status", "attach"]
    assert commands[-1]["runsOn"] == "surface"
    assert reply["status"]["state"] == "TASK_STATE_INPUT_REQUIRED"
    assert reply["status"]["message"]["metadata"] == {"command": "model"}
    assert reply["status"]["message"]["messageId"] == f"{reply['id']}:command:1"
    assert reply["metadata"][STATUS_KEY] == {"sub_state": "awaiting-next-message"}
    assert "command" not in reply["metadata"]
    assert TASK_KEY in reply["metadata"]
