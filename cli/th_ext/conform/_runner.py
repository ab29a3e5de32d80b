"""One group of scenarios over one interface and mode: send each, read the task, collect checks."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from th_ext._exceptions import cut
from th_ext.checks import (
    Check,
    Observation,
    check,
    command_checks,
    command_ran,
    find_reply,
    ordinary_checks,
    stale_task_metadata,
    stream_order_check,
    task_ref_check,
)
from th_ext.checks._observe import Exchange, event_kind, message_of, metadata, state
from th_ext.commands._card import CardCommand, CardCommands
from th_ext.conform._family import FAMILY_KEYS, FamilyPayload, payloads_of
from th_ext.conform._scenarios import Scenario, command_text, user_message
from th_ext.conform._wire import JsonRpcWire, RestWire, Wire
from th_ext.dispatch._verdict import task_id_of
from th_ext.net import redact
from th_ext.net._exchange import FINAL_STATES
from th_ext.problems._text import clean, quoted

if TYPE_CHECKING:
    import httpx

    from th_ext.net import HarRecorder, HeaderScope

__all__ = [
    "MAX_EXCERPT",
    "GroupResult",
    "Interface",
    "excerpt",
    "open_wire",
    "run_group",
    "run_header_check",
]


_TERMINAL = FINAL_STATES - {"TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"}
_GREETING = ({"text": "Hello! This task is for th-ext conform."},)


@dataclass(frozen=True, slots=True)
class Interface:
    """One interface of the agent's card that the checks run over."""

    binding: str
    url: str
    tenant: str


@dataclass
class GroupResult:
    """The checks one group of scenarios produced, and its notes."""

    checks: list[Check] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    unreachable: str = ""
    """Why the interface could not be reached on the group's first request ("" if it was)."""
    commands: dict[str, int] = field(default_factory=dict)
    """How many times each command was sent."""
    payloads: list[FamilyPayload] = field(default_factory=list)
    """The host extensions' metadata payloads seen in the answers (``conform._family``)."""


def open_wire(
    client: httpx.AsyncClient,
    interface: Interface,
    headers: dict[str, str],
    scope: HeaderScope,
    *,
    timeout: float,
    max_bytes: int,
    recorder: HarRecorder | None = None,
) -> Wire:
    kind = JsonRpcWire if interface.binding == "JSONRPC" else RestWire
    return kind(
        client,
        interface.url,
        headers,
        interface.tenant,
        scope,
        timeout=timeout,
        max_bytes=max_bytes,
        recorder=recorder,
    )


async def run_group(
    wire: Wire, stream: bool, plan: list[Scenario], edges: Sequence[Scenario] = ()
) -> GroupResult:
    """Every scenario of ``plan`` on a new task, then ``plan`` and ``edges`` on an existing one.

    When the first request finds no server at all, nothing is judged: the group says why in
    ``unreachable``.
    """
    result = GroupResult()
    for index, scenario in enumerate(plan):
        sent = user_message(scenario.parts)
        exchange = await wire.send(sent, stream=stream)
        if index == 0 and exchange.unreachable:
            result.unreachable = exchange.problem()
            return result
        task_id = task_id_of(exchange.results)
        after, _ = await _read(wire, task_id)
        obs = Observation(wire.binding, stream, False, scenario.label, exchange, None, after, sent)
        await _judge(wire, obs, scenario, result)
        if index == 0 and exchange.failure is not None and not exchange.results:
            result.notes.append(
                f"{_where(wire)} {obs.mode}: no answer ({exchange.failure}); the other "
                "scenarios on it were not run"
            )
            return result
    before = await _fresh_task(wire, stream, result)
    for scenario in [*plan, *edges]:
        if before is None or state(before) in _TERMINAL:
            if before is not None:
                result.notes.append(
                    f"{_where(wire)} {'stream' if stream else 'send'}: the task ended in "
                    f"{state(before)}, so the next scenarios use a new task"
                )
            before = await _fresh_task(wire, stream, result)
            if before is None:
                break
        sent = user_message(scenario.parts, before)
        exchange = await wire.send(sent, stream=stream)
        after, _ = await _read(wire, before["id"])
        obs = Observation(wire.binding, stream, True, scenario.label, exchange, before, after, sent)
        await _judge(wire, obs, scenario, result)
        before = after
    return result


def header_card_check(extension: CardCommands) -> Check:
    """CMD-15 on the card: ``required: true`` tells clients without the header to go away."""
    if extension.required:
        return Check(
            "CMD-15",
            "fail",
            "card",
            "the agent card",
            "card",
            "the card marks the extension required: true, so an A2A server refuses a request "
            "without A2A-Extensions (-32008) and its commands never run",
        )
    return Check("CMD-15", "pass", "card", "the agent card", "card", "required is not true")


async def run_header_check(
    wire: Wire, stream: bool, command: CardCommand
) -> tuple[list[Check], int]:
    """CMD-15: the command runs when the request has no ``A2A-Extensions`` header.

    The command goes without the header on a new task. The answer must carry the command
    reply as the rule places it (the command metadata on the message or the event); when it
    does not, the command goes again with the header: if that reply names the command, the
    command did not run without it; if neither does (metadata on the event only, seen through
    ``SendMessage``), the two replies must say the same. Returns the checks and how many times
    the command was sent.
    """
    text = command_text(command)
    label = f"/{command.name} without A2A-Extensions"
    without = await wire.send(user_message(({"text": text},)), stream=stream, extensions=False)
    obs = Observation(wire.binding, stream, False, label, without, None, None)
    seen = excerpt(without)
    if not without.ok or not without.results:
        said = "refused" if without.refused or without.error is not None else "no answer"
        detail = f"{said}: {without.problem() or 'the agent sent nothing'}"
        return [_at(wire, check(obs, "CMD-15", False, detail), seen)], 1
    if command_ran(obs, command.name):
        return [_at(wire, check(obs, "CMD-15", True, "the reply names the command"))], 1
    with_header = await wire.send(user_message(({"text": text},)), stream=stream)
    if command_ran(replace(obs, exchange=with_header), command.name):
        detail = (
            "with the header the reply names the command; without it no answer does "
            "(the command did not run)"
        )
        return [_at(wire, check(obs, "CMD-15", False, detail), seen)], 2
    same = _reply_text(without.results) == _reply_text(with_header.results) != ""
    detail = (
        "neither reply names the command; without the header the reply says the same"
        if same
        else "neither reply names the command, and without the header the answer differs"
    )
    return [_at(wire, check(obs, "CMD-15", same, detail), "" if same else seen)], 2


def _at(wire: Wire, found: Check, seen: str = "") -> Check:
    """``found`` with the interface it ran over, and for a failure what the agent sent."""
    shown = redact(wire.url)
    return replace(found, interface=shown, excerpt=seen if found.status == "fail" else "")


def _reply_text(results: list[Any]) -> str:
    for result in reversed(results):
        for kind in ("statusUpdate", "task"):
            event = result.get(kind) if isinstance(result, dict) else None
            message = message_of(event)
            parts = message.get("parts") if message else None
            if isinstance(parts, list) and parts and isinstance(parts[0], dict):
                return str(parts[0].get("text", ""))
    return ""


async def _judge(wire: Wire, obs: Observation, scenario: Scenario, result: GroupResult) -> None:
    if scenario.command is not None:
        result.commands[scenario.command] = result.commands.get(scenario.command, 0) + 1
    seen = excerpt(obs.exchange)
    result.payloads += payloads_of(obs, FAMILY_KEYS)
    if scenario.command is None:
        if obs.stream and obs.exchange.ok and obs.results:
            result.checks.append(_at(wire, stream_order_check(obs), seen))
        result.checks += [_at(wire, c, seen) for c in ordinary_checks(obs, scenario.requirement)]
        note = stale_task_metadata(obs)
        if note and note not in result.notes:
            result.notes.append(note)
        return
    result.checks += [_at(wire, c, seen) for c in command_checks(obs, scenario.command)]
    reply = find_reply(obs, scenario.command)
    if reply is not None:
        result.checks.append(_at(wire, await task_ref_check(wire, obs, reply), seen))


async def _read(wire: Wire, task_id: str | None) -> tuple[dict[str, Any] | None, str]:
    """The task GetTask answers for ``task_id``; without one, why not. A task has an ``id``:
    the next scenario is sent to it, and a task after it is read by it."""
    if not task_id:
        return None, "no task id"
    exchange = await wire.get_task(task_id)
    task = exchange.results[0] if exchange.ok and exchange.results else None
    if isinstance(task, dict) and isinstance(task.get("id"), str) and task["id"]:
        return task, ""
    return None, f"GetTask: {exchange.problem() or 'the answer is not a task (it has no id)'}"


async def _fresh_task(wire: Wire, stream: bool, result: GroupResult) -> dict[str, Any] | None:
    exchange = await wire.send(user_message(_GREETING), stream=stream)
    task, why = await _read(wire, task_id_of(exchange.results))
    if task is None:
        result.notes.append(
            f"{_where(wire)} {'stream' if stream else 'send'}: an ordinary message created no "
            f"task that GetTask can read ({exchange.problem() or why}); the "
            "existing-task scenarios were not run"
        )
    return task


async def gather_groups(
    wires: list[Wire], modes: list[bool], plan: list[Scenario], edges: list[Scenario]
) -> list[GroupResult]:
    """Every (interface, mode) group, concurrently; results in a fixed order. The edges of the
    rule go to each interface once, in its first mode."""
    return list(
        await asyncio.gather(
            *(run_group(w, m, plan, edges if m == modes[0] else ()) for w in wires for m in modes)
        )
    )


def _where(wire: Wire) -> str:
    return f"{wire.binding} {redact(wire.url)}"


MAX_EXCERPT = 300
"""The most characters an excerpt holds."""
_TEXT = 60
_EVENTS = 8


def excerpt(exchange: Exchange) -> str:
    """What came back, in a line of at most ``MAX_EXCERPT`` characters: each event in a few
    words, joined with arrows, so that a failed check leads to the bug without the whole stream."""
    if not exchange.results:
        return cut(clean(exchange.problem() or "nothing"), MAX_EXCERPT)
    shown = [_event(result) for result in exchange.results[:_EVENTS]]
    if len(exchange.results) > _EVENTS:
        shown.append(f"{len(exchange.results) - _EVENTS} more")
    if not exchange.ok:
        shown.append(exchange.problem())
    return cut(clean(" -> ".join(shown)), MAX_EXCERPT)


def _event(result: Any) -> str:
    kind = event_kind(result)
    if kind == "unknown":
        return "an unknown event"
    event = result[kind]
    words = [kind]
    if state(event):
        words.append(str(state(event)).removeprefix("TASK_STATE_"))
    message = event if kind == "message" else message_of(event)
    if kind == "artifactUpdate":
        message = event.get("artifact") if isinstance(event.get("artifact"), dict) else None
    if message is not None:
        role = message.get("role")
        if isinstance(role, str) and role:
            words.append(role.removeprefix("ROLE_").lower())
        text = _text(message)
        if text:
            words.append(repr(cut(text, _TEXT)))
        if "command" in metadata(message):
            words.append(f"message metadata.command={quoted(metadata(message)['command'])}")
    if kind != "message" and "command" in metadata(event):
        words.append(f"metadata.command={quoted(metadata(event)['command'])}")
    return " ".join(words)


def _text(message: dict[str, Any]) -> str:
    parts = message.get("parts")
    for part in parts if isinstance(parts, list) else []:
        if isinstance(part, dict) and isinstance(part.get("text"), str):
            return str(part["text"])[: _TEXT * 2]
    return ""
