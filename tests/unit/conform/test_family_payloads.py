"""The host's own extensions in conform's answers: every payload seen under their metadata
keys, where it was seen, and each declared extension's verdict with its reason."""

from __future__ import annotations

from typing import Any

from tests.support.host_schemas import URIS, status_schema
from th_ext.catalog._family import FamilySchema, family_entry
from th_ext.checks import Observation
from th_ext.conform._family import (
    FAMILY_KEYS,
    STATUS_PLACE,
    TASK_PLACE,
    FamilyPayload,
    OtherExtensionResult,
    other_extension_results,
    payloads_of,
)
from th_ext.net._exchange import RpcExchange

STATUS = "io.github.madarauchiha-314.tiny-harness/status"
TASK = "io.github.madarauchiha-314.tiny-harness/task"


def schema(name: str, document: dict[str, Any]) -> FamilySchema:
    entry = family_entry(URIS[name])
    assert entry is not None
    return FamilySchema(entry=entry, document=document, sha256="0" * 64, origin=f"{name}.json")


def test_the_family_keys_are_the_task_and_status_keys() -> None:
    assert FAMILY_KEYS == (TASK, STATUS)


def test_every_payload_of_a_key_asked_for_is_found_where_it_was_seen() -> None:
    results = [
        {"task": {"metadata": {STATUS: {"sub_state": "a"}, TASK: 1, "other": 2}}},
        {"statusUpdate": {"metadata": {STATUS: {"sub_state": "b"}}}},
        {"message": {"metadata": {STATUS: "not seen"}}},
        {"artifactUpdate": {"metadata": {STATUS: "not seen"}}},
        "junk",
    ]
    exchange = RpcExchange("SendStreamingMessage", {}, results)
    after = {"metadata": {STATUS: {"sub_state": "c"}}}
    obs = Observation("JSONRPC", True, True, "/help", exchange, None, after)
    where = "JSONRPC stream /help, existing task"
    assert payloads_of(obs, [STATUS]) == [
        FamilyPayload(STATUS, TASK_PLACE, {"sub_state": "a"}, where),
        FamilyPayload(STATUS, STATUS_PLACE, {"sub_state": "b"}, where),
        FamilyPayload(STATUS, TASK_PLACE, {"sub_state": "c"}, where),
    ]
    no_after = Observation("JSONRPC", False, False, "/help", exchange, None, None)
    assert [p.value for p in payloads_of(no_after, [TASK, STATUS])] == [
        1,
        {"sub_state": "a"},
        {"sub_state": "b"},
    ]


def test_each_declared_extension_in_the_family_s_order_with_its_reason() -> None:
    declared = [URIS["media"], URIS["status"], URIS["channel"], URIS["task"], "urn:other"]
    payloads = [FamilyPayload(TASK, TASK_PLACE, {}, "w")]
    results = other_extension_results(declared, [schema("status", status_schema())], payloads)
    assert [r.uri for r in results] == [
        URIS["task"],
        URIS["channel"],
        URIS["status"],
        URIS["media"],
    ]
    task, channel, status, media = results
    assert (task.uri, task.key, task.status, task.checked, task.problems) == (
        URIS["task"],
        "task/v1",
        "skip",
        0,
        [],
    )
    assert task.reason.startswith("its schema is not known here: give tiny-harness's docs/a2a/ext")
    assert channel == OtherExtensionResult(
        URIS["channel"],
        "channel/v1",
        "skip",
        0,
        reason="its schema applies to data parts whose media type is "
        "`application/vnd.tiny-harness.channel+json`, which conform does not check",
    )
    assert status == OtherExtensionResult(
        URIS["status"],
        "status/v1",
        "skip",
        0,
        reason=f"no Task.metadata or TaskStatusUpdateEvent.metadata payload under {STATUS!r} "
        "was seen",
    )
    assert media.reason == (
        "its schema applies to the `params` of its entry in the agent card's extensions, "
        "which conform does not check"
    )


def test_a_payload_of_the_right_key_in_a_place_the_schema_does_not_cover_is_not_checked() -> None:
    task_schema = schema("task", {"type": "object"})
    payloads = [FamilyPayload(TASK, STATUS_PLACE, {}, "w")]
    [result] = other_extension_results([URIS["task"]], [task_schema], payloads)
    assert (result.status, result.reason) == (
        "skip",
        f"no Task.metadata payload under {TASK!r} was seen",
    )


def test_valid_payloads_pass_with_their_count() -> None:
    payloads = [
        FamilyPayload(STATUS, TASK_PLACE, {"sub_state": "a"}, "w"),
        FamilyPayload(STATUS, STATUS_PLACE, {"sub_state": "b"}, "w"),
    ]
    assert other_extension_results(
        [URIS["status"]], [schema("status", status_schema())], payloads
    ) == [OtherExtensionResult(URIS["status"], "status/v1", "pass", 2, [])]


def test_problems_name_the_place_and_pointer_and_stop_at_twenty() -> None:
    strict = {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string"}}}}
    payloads = [FamilyPayload(TASK, TASK_PLACE, {"a": [1, 2, 3]}, f"w{n}") for n in range(10)]
    [result] = other_extension_results([URIS["task"]], [schema("task", strict)], payloads)
    assert (result.status, result.checked, len(result.problems)) == ("warn", 10, 20)
    assert result.problems[:2] == [
        f"w0: {TASK_PLACE}[\"{TASK}\"]/a/0: 1 is not of type 'string'",
        f"w0: {TASK_PLACE}[\"{TASK}\"]/a/1: 2 is not of type 'string'",
    ]
    assert result.problems[-1].startswith("w6: ")


def test_a_long_message_is_on_one_line_and_cut_to_two_hundred_characters() -> None:
    pattern = {"type": "string", "pattern": "^x$"}
    value = "a  " * 200
    payloads = [FamilyPayload(TASK, TASK_PLACE, value, "w")]
    [result] = other_extension_results([URIS["task"]], [schema("task", pattern)], payloads)
    [problem] = result.problems
    message = problem.removeprefix(f'w: {TASK_PLACE}["{TASK}"]: ')
    assert len(message) == 200
    assert "  " not in message
    assert message.startswith("'a a a")


def test_a_schema_that_changed_from_its_pin_warns_and_the_others_are_still_judged() -> None:
    payloads = [FamilyPayload(STATUS, TASK_PLACE, {"sub_state": "a"}, "w")]
    results = other_extension_results(
        [URIS["task"], URIS["status"]],
        [schema("status", status_schema())],
        payloads,
        [(URIS["task"], "changed: sha256 a, pinned b")],
    )
    assert results == [
        OtherExtensionResult(URIS["task"], "task/v1", "warn", 0, ["changed: sha256 a, pinned b"]),
        OtherExtensionResult(URIS["status"], "status/v1", "pass", 1, []),
    ]
