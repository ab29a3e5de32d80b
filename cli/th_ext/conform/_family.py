"""The "other extensions" section: the host's own extensions' payloads that conform observes,
validated against their schemas when a run knows them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from th_ext.catalog._family import (
    ExternalExtension,
    FamilySchema,
    bundled_external,
    family_key,
    unknown_schema_hint,
)
from th_ext.catalog._schemas import local_validator
from th_ext.checks import Observation
from th_ext.checks._observe import event_kind, metadata

__all__ = [
    "FAMILY_KEYS",
    "FamilyPayload",
    "OtherExtensionResult",
    "fails_run",
    "other_extension_results",
    "payloads_of",
]

_KEPT_PROBLEMS = 20
FAMILY_KEYS: tuple[str, ...] = tuple(
    dict.fromkeys(entry.metadata_key for entry in bundled_external() if entry.metadata_key)
)
"""Every metadata key the family's extensions use (``…tiny-harness/status``...)."""
TASK_PLACE = "Task.metadata"
STATUS_PLACE = "TaskStatusUpdateEvent.metadata"


@dataclass(frozen=True, slots=True)
class FamilyPayload:
    """One payload of a metadata key seen in an answer, and where it was seen."""

    key: str
    place: str
    """``Task.metadata`` or ``TaskStatusUpdateEvent.metadata``."""
    value: Any
    where: str


@dataclass(frozen=True, slots=True)
class OtherExtensionResult:
    """The verdict on one of the host's extensions declared on the card."""

    uri: str
    key: str
    status: Literal["pass", "warn", "skip"]
    checked: int
    """How many payloads were validated."""
    problems: list[str] = field(default_factory=list)
    reason: str = ""
    """Why it was skipped, when it was."""


def _tasks_and_updates(results: Iterable[Any]) -> Iterable[tuple[str, dict[str, Any]]]:
    for result in results:
        kind = event_kind(result)
        if kind == "task":
            yield TASK_PLACE, result["task"]
        elif kind == "statusUpdate":
            yield STATUS_PLACE, result["statusUpdate"]


def payloads_of(observation: Observation, keys: Sequence[str]) -> list[FamilyPayload]:
    """Every value under one of ``keys`` in the observation's tasks and status updates."""
    where = f"{observation.binding} {observation.mode} {observation.scenario}"
    seen: list[tuple[str, dict[str, Any]]] = list(_tasks_and_updates(observation.results))
    if isinstance(observation.after, dict):
        seen.append((TASK_PLACE, observation.after))
    found: list[FamilyPayload] = []
    for place, holder in seen:
        values = metadata(holder)
        found += [FamilyPayload(key, place, values[key], where) for key in keys if key in values]
    return found


def _places(entry: ExternalExtension) -> set[str]:
    phrases = {"Task.metadata key": TASK_PLACE, "status update metadata key": STATUS_PLACE}
    return {place for phrase, place in phrases.items() if phrase in entry.applies_to}


def _problems(schema: FamilySchema, payloads: list[FamilyPayload]) -> list[str]:
    validator = local_validator(schema.document)
    found: list[str] = []
    for payload in payloads:
        for error in validator.iter_errors(payload.value):
            pointer = "".join(f"/{part}" for part in error.absolute_path)
            message = " ".join(error.message.split())[:200]
            found.append(f'{payload.where}: {payload.place}["{payload.key}"]{pointer}: {message}')
            if len(found) >= _KEPT_PROBLEMS:
                return found
    return found


def other_extension_results(
    declared: Sequence[str],
    schemas: Sequence[FamilySchema],
    payloads: Sequence[FamilyPayload],
    changed: Sequence[tuple[str, str]] = (),
) -> list[OtherExtensionResult]:
    """A result for each host extension of the family the card declares, in card order.

    ``changed`` are ``(uri, message)`` for schemas that differ from their pin: a warning.
    """
    known = {schema.uri: schema for schema in schemas}
    broken = dict(changed)
    return [
        _result(entry, known.get(entry.uri), broken.get(entry.uri), payloads)
        for entry in bundled_external()
        if entry.uri in declared
    ]


def _result(
    entry: ExternalExtension,
    schema: FamilySchema | None,
    changed: str | None,
    payloads: Sequence[FamilyPayload],
) -> OtherExtensionResult:
    key = family_key(entry.uri)
    places = _places(entry)
    if changed is not None:
        return OtherExtensionResult(entry.uri, key, "warn", 0, [changed])
    if not places:
        where = " and ".join(entry.travels()) or "data conform does not see"
        reason = f"its schema applies to {where}, which conform does not check"
    elif schema is None:
        reason = f"its schema is not known here: {unknown_schema_hint(entry)}"
    else:
        mine = [p for p in payloads if p.key == entry.metadata_key and p.place in places]
        if mine:
            problems = _problems(schema, mine)
            status: Literal["pass", "warn"] = "warn" if problems else "pass"
            return OtherExtensionResult(entry.uri, key, status, len(mine), problems)
        reason = f"no {' or '.join(sorted(places))} payload under {entry.metadata_key!r} was seen"
    return OtherExtensionResult(entry.uri, key, "skip", 0, reason=reason)


def fails_run(results: Sequence[OtherExtensionResult], *, strict: bool) -> bool:
    """Whether the section fails the run: a warning does, only when the run is strict."""
    return strict and any(result.status == "warn" for result in results)
