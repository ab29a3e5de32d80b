"""One conformance run: read the card, send every scenario over every binding, collect checks.

All HTTP goes through one ``httpx.AsyncClient`` built on the transport the caller gives (or
httpx's own), counted request by request; the card is read through it too when a transport is
given, so a test can run the whole check in-process against an ASGI app. Without one, the card
is read by ``th_ext._source`` with the limits and header rules ``validate`` uses.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import field
from typing import TYPE_CHECKING, Any

from th_ext._record import record
from th_ext.checks import (
    Check,
    Observation,
    check,
    command_checks,
    find_reply,
    ordinary_checks,
    stale_task_metadata,
    stream_order_check,
    task_ref_check,
)
from th_ext.checks._observe import message_of, metadata, state
from th_ext.commands._card import CardCommand, CardCommands, read_card_commands
from th_ext.conform._scenarios import Scenario, command_text, user_message
from th_ext.conform._wire import JsonRpcWire, RestWire, Wire
from th_ext.dispatch._jsonrpc import FINAL_STATES, RpcExchange
from th_ext.dispatch._verdict import task_id_of

if TYPE_CHECKING:
    import httpx

    from th_ext.net import HeaderScope

__all__ = ["GroupResult", "Interface", "open_wire", "run_group", "run_header_check"]

_TERMINAL = FINAL_STATES - {"TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"}
_GREETING = ({"text": "Hello! This task is for th-ext conform."},)


@record
class Interface:
    """One interface of the agent's card that the checks run over."""

    binding: str
    url: str
    tenant: str


@record(frozen=False, slots=False)
class GroupResult:
    """The checks one group of scenarios produced, and its notes."""

    checks: list[Check] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def open_wire(
    client: httpx.AsyncClient,
    interface: Interface,
    headers: dict[str, str],
    scope: HeaderScope,
    *,
    timeout: float,
    max_bytes: int,
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
    )


async def run_group(wire: Wire, stream: bool, plan: list[Scenario]) -> GroupResult:
    """Every scenario on a new task, then every scenario on one existing task."""
    result = GroupResult()
    for index, scenario in enumerate(plan):
        exchange = await wire.send(user_message(scenario.parts), stream=stream)
        task_id = task_id_of(exchange.results)
        after = await _read(wire, task_id)
        obs = Observation(wire.binding, stream, False, scenario.label, exchange, None, after)
        await _judge(wire, obs, scenario, result)
        if index == 0 and exchange.failure is not None and not exchange.results:
            result.notes.append(
                f"{wire.binding} {obs.mode}: no answer ({exchange.failure}); the other "
                "scenarios on it were not run"
            )
            return result
    before = await _fresh_task(wire, stream, result)
    for scenario in plan:
        if before is None or state(before) in _TERMINAL:
            if before is not None:
                result.notes.append(
                    f"{wire.binding} {'stream' if stream else 'send'}: the task ended in "
                    f"{state(before)}, so the next scenarios use a new task"
                )
            before = await _fresh_task(wire, stream, result)
            if before is None:
                break
        exchange = await wire.send(user_message(scenario.parts, before), stream=stream)
        after = await _read(wire, before["id"])
        obs = Observation(wire.binding, stream, True, scenario.label, exchange, before, after)
        await _judge(wire, obs, scenario, result)
        before = after
    return result


async def run_header_check(
    wire: Wire, stream: bool, command: CardCommand, *, metadata_seen: bool = True
) -> list[Check]:
    """CMD-15: the command runs without the ``A2A-Extensions`` header.

    A command is seen to run by its command metadata; ``metadata_seen`` is False when no reply
    of the run carried it even with the header (CMD-3 failed), and then nothing can be told.
    """
    obs_label = f"/{command.name} without A2A-Extensions"
    if not metadata_seen:
        exchange = RpcExchange(method="", request={}, results=[])
        obs = Observation(wire.binding, stream, False, obs_label, exchange, None, None)
        return [
            check(
                obs,
                "CMD-15",
                None,
                "no reply carried the command metadata even with the header (CMD-3), so a "
                "command's run cannot be told from an ordinary answer",
            )
        ]
    exchange = await wire.send(user_message(({"text": command_text(command)},)), stream=stream)
    obs = Observation(wire.binding, stream, False, obs_label, exchange, None, None)
    if not exchange.ok or not exchange.results:
        return [check(obs, "CMD-15", False, f"no answer: {exchange.problem() or 'nothing sent'}")]
    ok = any(_names_command(result) for result in exchange.results)
    detail = (
        "the command ran: its answer carries metadata.command"
        if ok
        else "no answer carries metadata.command without the header: the command did not run"
    )
    return [check(obs, "CMD-15", ok, detail)]


async def _judge(wire: Wire, obs: Observation, scenario: Scenario, result: GroupResult) -> None:
    if scenario.command is None:
        if obs.stream and obs.exchange.ok and obs.results:
            result.checks.append(stream_order_check(obs))
        result.checks += ordinary_checks(obs, scenario.requirement)
        note = stale_task_metadata(obs)
        if note and note not in result.notes:
            result.notes.append(note)
        return
    result.checks += command_checks(obs, scenario.command)
    reply = find_reply(obs, scenario.command)
    if reply is not None:
        result.checks.append(await task_ref_check(wire, obs, reply))


async def _read(wire: Wire, task_id: str | None) -> dict[str, Any] | None:
    if not task_id:
        return None
    exchange = await wire.get_task(task_id)
    task = exchange.results[0] if exchange.ok and exchange.results else None
    return task if isinstance(task, dict) else None


async def _fresh_task(wire: Wire, stream: bool, result: GroupResult) -> dict[str, Any] | None:
    exchange = await wire.send(user_message(_GREETING), stream=stream)
    task = await _read(wire, task_id_of(exchange.results))
    if task is None:
        result.notes.append(
            f"{wire.binding} {'stream' if stream else 'send'}: an ordinary message created no "
            f"task that GetTask can read ({exchange.problem() or 'no task id'}); the "
            "existing-task scenarios were not run"
        )
    return task


async def gather_groups(
    wires: list[Wire], modes: list[bool], plan: list[Scenario]
) -> list[GroupResult]:
    """Every (binding, mode) group, concurrently; results in a fixed order."""
    return list(await asyncio.gather(*(run_group(w, m, plan) for w in wires for m in modes)))


def commands_of(card: dict[str, Any]) -> CardCommands:
    return read_card_commands(card)


def now() -> float:
    return time.perf_counter()


def _names_command(result: Any) -> bool:
    """Whether any event of a send's answer, or the message it carries, names a command."""
    if not isinstance(result, dict):
        return False
    for event in result.values():
        if not isinstance(event, dict):
            continue
        inner = [event, message_of(event), event.get("artifact")]
        if any("command" in metadata(value) for value in inner):
            return True
    return False
