"""The entry point: ``run_conform`` checks a live agent against every requirement it can.

It reads the card, picks the bindings the card declares among JSON-RPC and HTTP+JSON (gRPC and
others are reported as not checked), runs every scenario on a new and on an existing task,
streaming and with ``SendMessage`` as the card allows, and returns a ``ConformReport``.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx

from th_ext._exceptions import AgentUnreachableError, ConformError
from th_ext.catalog._family import FamilySchema
from th_ext.catalog._reader import find, load_requirements, spec_text
from th_ext.commands._card import CardCommands, read_card_commands
from th_ext.commands._names import EXTENSION_URI
from th_ext.conform._card_check import card_check, fetch_card
from th_ext.conform._family import fails_run, other_extension_results
from th_ext.conform._interfaces import interface_info, select_interfaces, unreachable_wires
from th_ext.conform._model import AgentInfo, Check, ConformReport
from th_ext.conform._runner import (
    gather_groups,
    header_card_check,
    open_wire,
    run_header_check,
)
from th_ext.conform._scenarios import command_text, edge_scenarios, scenarios
from th_ext.conform._verdicts import core_results, requirement_results, run_passed
from th_ext.conform._wire import Wire
from th_ext.dispatch._exchange import RpcExchange
from th_ext.net import HeaderScope, redact_url, ssl_context
from th_ext.sources._limits import DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT, SourceLimits, header_scope
from th_ext.sources._source import is_url

__all__ = [
    "DEFAULT_MAX_COMMANDS",
    "DEFAULT_MAX_INTERFACES",
    "LEVELS",
    "ConformOptions",
    "run_conform",
    "run_conform_async",
]

LEVELS = ("MUST", "SHOULD", "MAY")
DEFAULT_MAX_INTERFACES = 8
DEFAULT_MAX_COMMANDS = 50
"""The most commands exercised by default: each costs about four requests per interface and
mode, so a card of 10,000 commands would take tens of thousands of requests."""
_NAMED_SKIPPED = 50


@dataclass(frozen=True, slots=True)
class ConformOptions:
    """What to check and how. Empty ``commands`` means every registered command."""

    commands: tuple[str, ...] = ()
    skip_commands: tuple[str, ...] = ()
    bindings: tuple[str, ...] = ()
    """``JSONRPC`` and/or ``HTTP+JSON``; empty means every one the card declares."""
    levels: tuple[str, ...] = LEVELS
    strict: bool = False
    headers: tuple[tuple[str, str], ...] = ()
    """The caller's headers (credentials): sent only where ``th_ext.net.HeaderScope`` allows,
    to the origin of ``source`` and of ``header_origins``."""
    header_origins: tuple[str, ...] = ()
    timeout: float = DEFAULT_TIMEOUT
    """Seconds for each exchange (a whole stream included) and for the card fetch."""
    max_bytes: int = DEFAULT_MAX_BYTES
    max_interfaces: int = DEFAULT_MAX_INTERFACES
    """The most interfaces checked; the others are named in a note."""
    max_commands: int = DEFAULT_MAX_COMMANDS
    """The most commands exercised, in card order; a note names the others."""
    rule_edges: bool = True
    """Send the edges of the dispatch rule (``th_ext.conform._rule_edges``) to each interface;
    without them a run checks the replies to the commands and far fewer ordinary messages."""
    family: tuple[FamilySchema, ...] = ()
    """The host extensions' schemas found for this run (``--schemas``, ``--fetch-schemas``):
    the payloads they apply to are checked in the "other extensions" section."""
    family_changed: tuple[tuple[str, str], ...] = ()
    """``(uri, message)`` for a fetched schema that differs from its pin."""
    progress: Callable[[int, int], None] | None = None
    """Told ``(messages sent, messages planned)`` after each message to the agent, for a
    progress display of a long run (a card of thousands of commands)."""


def run_conform(
    source: str,
    options: ConformOptions | None = None,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
) -> ConformReport:
    """Check the agent whose card is at ``source`` (a file, or a card or base URL).

    Raises ``ConformError`` (or a ``SourceError``) when nothing can be checked: the card cannot
    be read, a ``--command`` is not registered, no binding is left to check.
    """

    def run() -> ConformReport:
        return asyncio.run(run_conform_async(source, options, transport=transport))

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return run()
    # Called from code that runs an event loop in this thread: run ours in another one.
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


async def run_conform_async(
    source: str,
    options: ConformOptions | None = None,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
) -> ConformReport:
    """``run_conform`` for a caller that already runs an event loop."""
    options = options or ConformOptions()
    started = time.perf_counter()
    limits = SourceLimits(
        options.headers, options.timeout, options.max_bytes, options.header_origins
    )
    scope = header_scope(source, limits)
    inner = transport or httpx.AsyncHTTPTransport(verify=ssl_context(), trust_env=False)
    counter = _Counting(inner)
    async with httpx.AsyncClient(
        transport=counter, timeout=options.timeout, trust_env=False, follow_redirects=False
    ) as client:
        if transport is not None and is_url(source):
            card, location = await fetch_card(client, source, limits, scope)
        else:
            from th_ext.validate import load_card

            loaded = load_card(source, limits, scope=scope)
            card, location = loaded.card, loaded.location
            counter.count += 1 if is_url(source) else 0
        return await _check(card, location, scope, options, client, counter, started)


async def _check(  # noqa: PLR0917 (one private step of run_conform_async)
    card: dict[str, Any],
    location: str,
    scope: HeaderScope,
    options: ConformOptions,
    client: httpx.AsyncClient,
    counter: _Counting,
    started: float,
) -> ConformReport:
    if "supportedInterfaces" not in card and "url" in card:
        raise ConformError("this is an A2A 0.3 card; conform needs an A2A 1.0 card")
    extension = read_card_commands(card)
    notes: list[str] = []
    checks: list[Check] = [card_check(extension)]
    if not extension.declared:
        raise ConformError(f"the card does not declare the commands extension ({EXTENSION_URI})")
    selected = _select(extension, options)
    if len(selected) > options.max_commands:
        skipped = [f"/{c.name}" for c in selected[options.max_commands :]]
        named = ", ".join(skipped[:_NAMED_SKIPPED])
        more = f" and {len(skipped) - _NAMED_SKIPPED} more" if len(skipped) > _NAMED_SKIPPED else ""
        notes.append(
            f"{len(skipped)} command(s) over --max-commands {options.max_commands} were not "
            f"exercised: {named}{more}"
        )
        selected = selected[: options.max_commands]
    interfaces, not_checked, listed = select_interfaces(
        card, options.bindings, options.max_interfaces, notes
    )
    checks.append(header_card_check(extension))
    streaming = (card.get("capabilities") or {}).get("streaming") is True
    modes = [True, False] if streaming else [False]
    headers = {"A2A-Version": "1.0", "A2A-Extensions": EXTENSION_URI}
    wires: list[Wire] = [
        open_wire(client, i, headers, scope, timeout=options.timeout, max_bytes=options.max_bytes)
        for i in interfaces
    ]
    version = find(EXTENSION_URI)
    plan = scenarios(selected, extension.names)
    edges = (
        edge_scenarios(spec_text(version), selected, extension.names) if options.rule_edges else []
    )
    if options.progress is not None:
        # each group: the plan on a new task, a fresh task, the plan (and the edges, in the
        # first mode) on it; then one header check per wire
        planned = len(wires) * (len(modes) * (2 * len(plan) + 1) + len(edges) + 1)
        tally = _Tally(options.progress, planned)
        wires = [_Told(wire, tally) for wire in wires]
    groups = await gather_groups(wires, modes, plan, edges)
    unreachable = unreachable_wires(wires, groups, len(modes))
    if len(unreachable) == len(wires):
        wire, reason = next(iter(unreachable.items()))
        raise AgentUnreachableError(
            f"the agent cannot be reached at {redact_url(wire.url)}: {reason}"
        )
    sent: Counter[str] = Counter()
    for group in groups:
        checks += group.checks
        notes += [note for note in dict.fromkeys(group.notes) if note not in notes]
        sent.update(group.commands)
    for wire in wires:
        if selected and wire not in unreachable:
            header_checks, header_sends = await run_header_check(wire, modes[0], selected[0])
            checks += header_checks
            sent[selected[0].name] += header_sends
    notes += list(scope.notices())
    requirements = [r for r in load_requirements(version) if r.level in options.levels]
    results = requirement_results(requirements, checks, version.uri)
    core = core_results(checks)
    other = other_extension_results(
        _declared(card),
        options.family,
        [payload for group in groups for payload in group.payloads],
        options.family_changed,
    )
    shown = {c.name: command_text(c) for c in selected}
    return ConformReport(
        passed=run_passed([*results, *core], strict=options.strict)
        and not fails_run(other, strict=options.strict),
        strict=options.strict,
        agent=AgentInfo(
            name=str(card.get("name", "")),
            card_url=location,
            extension_uri=EXTENSION_URI,
            commands=list(extension.names),
            bindings_checked=list(dict.fromkeys(w.binding for w in wires if w not in unreachable)),
            bindings_not_checked=not_checked,
            streaming=streaming,
            interfaces=[interface_info(entry, wires, unreachable) for entry in listed],
        ),
        requirements=results,
        notes=notes,
        commands_run=[f"{shown[name]} ({sent[name]} times)" for name in shown if sent[name]],
        requests=counter.count,
        seconds=round(time.perf_counter() - started, 3),
        core=core,
        other=other,
    )


def _declared(card: dict[str, Any]) -> list[str]:
    """The extension URIs the card declares."""
    entries = (card.get("capabilities") or {}).get("extensions")
    return [
        entry["uri"]
        for entry in (entries if isinstance(entries, list) else [])
        if isinstance(entry, dict) and isinstance(entry.get("uri"), str)
    ]


def _select(extension: CardCommands, options: ConformOptions) -> list[Any]:
    names = extension.names
    for name in (*options.commands, *options.skip_commands):
        if name not in names:
            known = ", ".join(f"/{n}" for n in names) or "none"
            raise ConformError(f"/{name} is not registered on the card (registered: {known})")
    return [
        c
        for c in extension.commands
        if (not options.commands or c.name in options.commands)
        and c.name not in options.skip_commands
    ]


class _Tally:
    """Messages sent so far, told to a progress callback (never past the plan)."""

    def __init__(self, tell: Callable[[int, int], None], planned: int) -> None:
        self.tell = tell
        self.planned = planned
        self.sent = 0

    def add(self) -> None:
        self.sent += 1
        self.tell(min(self.sent, self.planned), self.planned)


class _Told:
    """A wire that counts the messages it sends in a ``_Tally``."""

    def __init__(self, wire: Wire, tally: _Tally) -> None:
        self.wire = wire
        self.tally = tally
        self.binding = wire.binding
        self.url = wire.url

    async def send(
        self, message: dict[str, Any], *, stream: bool, extensions: bool = True
    ) -> RpcExchange:
        try:
            return await self.wire.send(message, stream=stream, extensions=extensions)
        finally:
            self.tally.add()

    async def get_task(self, task_id: str) -> RpcExchange:
        return await self.wire.get_task(task_id)


class _Counting(httpx.AsyncBaseTransport):
    """An httpx transport that counts the requests it forwards."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.count = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.count += 1
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()
