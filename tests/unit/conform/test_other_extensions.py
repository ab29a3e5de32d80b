"""The "other extensions" section's verdict: which results there are, and when they fail."""

from __future__ import annotations

from tests.support.host_schemas import URIS, status_schema
from th_ext.catalog._family import FamilySchema, family_entry
from th_ext.conform._family import (
    STATUS_PLACE,
    TASK_PLACE,
    FamilyPayload,
    OtherExtensionResult,
    fails_run,
    other_extension_results,
)

KEY = "io.github.madarauchiha-314.tiny-harness/status"


def _status() -> FamilySchema:
    entry = family_entry(URIS["status"])
    assert entry is not None
    return FamilySchema(entry=entry, document=status_schema(), sha256="0" * 64, origin="s.json")


def test_each_payload_is_checked_where_the_schema_applies() -> None:
    payloads = [
        FamilyPayload(KEY, TASK_PLACE, {"sub_state": "awaiting-answer"}, "JSONRPC send a"),
        FamilyPayload(KEY, STATUS_PLACE, {"sub_state": 3}, "JSONRPC stream b"),
        FamilyPayload(KEY, STATUS_PLACE, {"sub_state": "x", "more": 1}, "HTTP+JSON send c"),
        FamilyPayload("other/key", TASK_PLACE, {"sub_state": 3}, "ignored"),
    ]
    (result,) = other_extension_results([URIS["status"]], [_status()], payloads)
    assert (result.key, result.status, result.checked) == ("status/v1", "warn", 3)
    assert result.problems == [
        f"JSONRPC stream b: {STATUS_PLACE}[\"{KEY}\"]/sub_state: 3 is not of type 'string'",
        f'HTTP+JSON send c: {STATUS_PLACE}["{KEY}"]: Additional properties are not allowed'
        " ('more' was unexpected)",
    ]


def test_an_undeclared_extension_is_left_out_and_a_changed_schema_warns() -> None:
    assert other_extension_results([], [_status()], []) == []
    (result,) = other_extension_results(
        [URIS["status"]], [_status()], [], [(URIS["status"], "changed: sha256 a, pinned b")]
    )
    assert (result.status, result.problems) == ("warn", ["changed: sha256 a, pinned b"])
    (seen_none,) = other_extension_results([URIS["status"]], [_status()], [])
    assert seen_none.status == "skip"
    assert "no Task.metadata or TaskStatusUpdateEvent.metadata payload" in seen_none.reason


def test_a_warning_fails_the_run_only_when_it_is_strict() -> None:
    warned = [OtherExtensionResult("u", "status/v1", "warn", 1, ["p"])]
    clean = [OtherExtensionResult("u", "status/v1", "pass", 1)]
    assert fails_run(warned, strict=True)
    assert not fails_run(warned, strict=False)
    assert not fails_run(clean, strict=True)
