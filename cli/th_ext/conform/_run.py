"""A conformance run from end to end: its options, the card read, the interfaces chosen, and the
groups of scenarios run over them, gathered into a ``ConformReport``."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import httpx

from th_ext._deadline import Deadline
from th_ext._exceptions import (
    AgentUnreachableError,
    ConformError,
)
from th_ext._sync import run_sync
from th_ext.catalog._family import FamilySchema
from th_ext.catalog._reader import find, load_requirements, spec_text
from th_ext.checks import CORE_RULES
from th_ext.commands._card import CardCommands, read_card_commands
from th_ext.commands._entry import EXTENSION_URI
from th_ext.conform._family import fails_run, other_extension_results
from th_ext.conform._model import (
    AgentInfo,
    Check,
    ConformReport,
    InterfaceInfo,
    RequirementResult,
    RequirementStatus,
    core_results,
    requirement_results,
    run_passed,
)
from th_ext.conform._runner import (
    GroupResult,
    Interface,
    gather_groups,
    header_card_check,
    open_wire,
    run_header_check,
)
from th_ext.conform._scenarios import command_text, edge_scenarios, scenarios
from th_ext.conform._wire import BINDINGS, Wire
from th_ext.net import HarRecorder, HeaderScope, client_options, redact, shown_url
from th_ext.net._exchange import RpcExchange
from th_ext.net._fetch import Retry
from th_ext.problems import Selection, counted, cut, listed
from th_ext.signatures import SignatureOptions, check_signatures
from th_ext.sources import caching_problems
from th_ext.sources._source import (
    SourceLimits,
    check_limits,
    header_scope,
    is_url,
    read_source,
    read_url_async,
)
from th_ext.validate import parse_card

__all__ = [
    "DEFAULT_MAX_COMMANDS",
    "DEFAULT_MAX_INTERFACES",
    "LEVELS",
    "ConformOptions",
    "caching_result",
    "card_check",
    "checked_requirements",
    "interface_info",
    "ran_text",
    "read_card",
    "requirement_ids",
    "run_conform",
    "run_conform_async",
    "select_interfaces",
    "unreachable_result",
    "unreachable_wires",
]


LEVELS = ("MUST", "SHOULD", "MAY")
SIGNATURE_RULE = "A2A-8.4"
"""The core rule the card's signatures are reported under (with ``--keys``...)."""
CACHING_RULE = "A2A-8.6"
"""The core rule the card response's caching fields are reported under."""
INTERFACES_RULE = "A2A-5.1"
"""The core rule an interface of the card that cannot be reached is reported under."""
_RULE_LEVELS = {INTERFACES_RULE: "MUST", SIGNATURE_RULE: "MUST", CACHING_RULE: "SHOULD"}
"""The level each of these core rules is reported at."""
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
    limits: SourceLimits = field(default_factory=SourceLimits)
    """The caller's headers (sent only where ``th_ext.net.HeaderScope`` allows, to the origin
    of ``source`` and of ``header_origins``), the seconds for each exchange (a whole stream
    included) and for the card fetch, the byte cap of each answer, and the retries of the card
    fetch's requests (the calls to the agent are never repeated: a command may have side
    effects)."""
    max_interfaces: int = DEFAULT_MAX_INTERFACES
    """The most interfaces checked; the others are named in a note."""
    max_commands: int = DEFAULT_MAX_COMMANDS
    """The most commands exercised, in card order; a note names the others."""
    rule_edges: bool = True
    """Send the edges of the dispatch rule (``th_ext.conform._scenarios``) to each interface;
    without them a run checks the replies to the commands and far fewer ordinary messages."""
    family: tuple[FamilySchema, ...] = ()
    """The host extensions' schemas found for this run (``--schemas``, ``--fetch-schemas``):
    the payloads they apply to are checked in the "other extensions" section."""
    family_changed: tuple[tuple[str, str], ...] = ()
    """``(uri, message)`` for a fetched schema that differs from its pin."""
    signatures: SignatureOptions | None = None
    """Verify the card's signatures (A2A 1.0 section 8.4) as ``validate --keys`` does: the
    verdicts are the core rule ``A2A-8.4``, where an error fails the run."""
    progress: Callable[[int, int], None] | None = None
    """Told ``(messages sent, messages planned)`` after each message to the agent, for a
    progress display of a long run (a card of thousands of commands)."""
    selection: Selection = field(default_factory=Selection)
    """Which requirements count (``--select``, ``--ignore``, by ID or family such as
    ``A2A-``): the others are left out of the report and of its verdict."""


def checked_requirements(
    levels: tuple[str, ...] = LEVELS,
    selection: Selection | None = None,
    *,
    signatures: bool = False,
) -> tuple[str, ...]:
    """The requirements a run of these ``ConformOptions`` values checks and can report, by ID:
    those in force of ``levels`` that ``selection`` counts; ``A2A-8.4`` only with
    ``signatures`` (``ConformOptions.signatures`` given). Known before anything is sent: an
    empty answer is a run that could only pass."""
    selection = selection or Selection()
    own = [(r.id, r.level) for r in load_requirements(find(EXTENSION_URI)) if r.in_force]
    core = [(rule.id, "MUST") for rule in CORE_RULES]  # core_results reports each as a MUST
    rules = [rule for rule in _RULE_LEVELS.items() if signatures or rule[0] != SIGNATURE_RULE]
    return tuple(
        id_ for id_, level in (*own, *core, *rules) if level in levels and selection.counts(id_)
    )


def requirement_ids() -> tuple[str, ...]:
    """Every requirement a run can report, by ID: the commands extension's (``CMD-1``...),
    then core A2A's (``A2A-3.1.2``, ``A2A-8.4`` for signatures, ``A2A-8.6`` for caching,
    ``A2A-5.1`` for an interface that cannot be reached).
    ``--select`` and ``--ignore`` of ``th-ext conform`` name these."""
    own = tuple(r.id for r in load_requirements(find(EXTENSION_URI)) if r.in_force)
    return (*own, *(rule.id for rule in CORE_RULES), INTERFACES_RULE, SIGNATURE_RULE, CACHING_RULE)


def run_conform(
    source: str,
    options: ConformOptions | None = None,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    recorder: HarRecorder | None = None,
) -> ConformReport:
    """Check the agent whose card is at ``source`` (a file, or a card or base URL).

    Give ``transport`` (any ``httpx.AsyncBaseTransport``, e.g. ``httpx.ASGITransport``) to run
    it in-process: every request, the card's included, goes through it. With a ``recorder``,
    every exchange with the agent (streams included) is recorded in it, also when the run ends
    with an error. Raises ``ConformError`` (or a ``SourceError``) when nothing can be checked:
    the card cannot be read, a ``--command`` is not registered, no binding is left to check.
    """
    return run_sync(
        lambda: run_conform_async(source, options, transport=transport, recorder=recorder)
    )


async def run_conform_async(
    source: str,
    options: ConformOptions | None = None,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    retried: list[Retry] | None = None,
    recorder: HarRecorder | None = None,
) -> ConformReport:
    """``run_conform`` for a caller that already runs an event loop; each retry of the card
    fetch is appended to ``retried``."""
    options = options or ConformOptions()
    started = time.perf_counter()
    limits = options.limits
    scope = header_scope(source, limits)
    inner = transport or client_options()["transport"]
    counter = _Counting(inner)
    async with httpx.AsyncClient(
        timeout=limits.timeout, **client_options(transport=counter)
    ) as client:
        card, location, headers = await read_card(
            client, source, limits, scope, retried=retried, recorder=recorder
        )
        return await _check(
            card, (location, headers), scope, options, client, counter, started, recorder
        )


async def _check(  # noqa: PLR0917 (one private step of run_conform_async)
    card: dict[str, Any],
    read_at: tuple[str, tuple[tuple[str, str], ...] | None],
    scope: HeaderScope,
    options: ConformOptions,
    client: httpx.AsyncClient,
    counter: _Counting,
    started: float,
    recorder: HarRecorder | None,
) -> ConformReport:
    location, card_fields = read_at  # where the card was read, and its response's header fields
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
            f"{counted(len(skipped), 'command')} over --max-commands {options.max_commands} "
            f"{'was' if len(skipped) == 1 else 'were'} not "
            f"exercised: {named}{more}"
        )
        selected = selected[: options.max_commands]
    interfaces, not_checked, every_interface = select_interfaces(
        card, options.bindings, options.max_interfaces, notes
    )
    checks.append(header_card_check(extension))
    streaming = (card.get("capabilities") or {}).get("streaming") is True
    modes = [True, False] if streaming else [False]
    headers = {"A2A-Version": "1.0", "A2A-Extensions": EXTENSION_URI}
    wires: list[Wire] = [
        open_wire(
            client,
            i,
            headers,
            scope,
            timeout=options.limits.timeout,
            max_bytes=options.limits.max_bytes,
            recorder=recorder,
        )
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
            f"the agent cannot be reached at {shown_url(wire.url)}: {reason}"
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
    counts = options.selection.counts
    requirements = [
        r for r in load_requirements(version) if r.level in options.levels and counts(r.id)
    ]
    results = requirement_results(requirements, checks, version.uri)
    core = core_results(checks)
    if unreachable:
        core.append(unreachable_result(unreachable, "stream" if modes[0] else "send"))
    if options.signatures is not None and counts(SIGNATURE_RULE):
        card_url = location if is_url(location) else None
        core.append(signature_result(card, replace(options.signatures, card_url=card_url)))
    core.append(caching_result(card_fields))
    core = [r for r in core if r.level in options.levels and counts(r.id)]
    other = other_extension_results(
        _declared(card),
        options.family,
        [payload for group in groups for payload in group.payloads],
        options.family_changed,
    )
    shown = {c.name: command_text(c) for c in selected}
    checked = list(dict.fromkeys(w.binding for w in wires if w not in unreachable))
    return ConformReport(
        passed=run_passed([*results, *core], strict=options.strict)
        and not fails_run(other, strict=options.strict),
        strict=options.strict,
        agent=AgentInfo(
            name=str(card.get("name", "")),
            card_url=location,
            extension_uri=EXTENSION_URI,
            commands=list(extension.names),
            bindings_checked=checked,
            bindings_not_checked=[
                *not_checked,
                *(b for b in dict.fromkeys(w.binding for w in unreachable) if b not in checked),
            ],
            streaming=streaming,
            interfaces=[interface_info(entry, wires, unreachable) for entry in every_interface],
        ),
        requirements=results,
        notes=notes,
        commands_run=[ran_text(shown[name], sent[name]) for name in shown if sent[name]],
        requests=counter.count,
        seconds=round(time.perf_counter() - started, 3),
        core=core,
        other=other,
    )


def ran_text(command: str, times: int) -> str:
    """A command sent and how many times, for the report's list: ``/help (1 time)``; a command
    of any length is cut to 80 characters."""
    return f"{cut(command, 80)} ({counted(times, 'time')})"


def signature_result(card: dict[str, Any], options: SignatureOptions) -> RequirementResult:
    """The card's signature verdicts as the core rule ``A2A-8.4``: ``fail`` on an error,
    ``warn`` on a warning, ``pass`` when a signature verified, ``skip`` when none was there."""
    problems = check_signatures(card, options)
    checks = [
        Check(
            SIGNATURE_RULE,
            "pass" if p.severity == "info" else "fail",
            "card",
            p.path or "the agent card",
            "card",
            f"{p.code}: {p.message}",
        )
        for p in problems
    ]
    severities = {p.severity for p in problems}
    status: RequirementStatus = (
        "fail"
        if "error" in severities
        else "warn"
        if "warning" in severities
        else "pass"
        if severities
        else "skip"
    )
    return RequirementResult(
        id=SIGNATURE_RULE,
        level=_RULE_LEVELS[SIGNATURE_RULE],
        subject="agent card",
        summary="A signed Agent Card's signatures verify over the canonical form of "
        "section 8.4.1 (RFC 8785 after the Protocol Buffer presence rules).",
        anchor_url="https://a2a-protocol.org/latest/specification/#84-agent-card-signing",
        status=status,
        checks=checks,
        reason="" if problems else "the card carries no signature",
    )


def unreachable_result(unreachable: dict[Wire, str], mode: str) -> RequirementResult:
    """The interfaces of the card that cannot be reached, as the core rule ``A2A-5.1`` (every
    protocol an agent offers gives the same operations): a warning with a failed check for
    each, naming what its first request met. Reported only then: conform does not compare what
    the interfaces that answer do."""
    checks = [
        Check(
            INTERFACES_RULE,
            "fail",
            wire.binding,
            "the first message",
            mode,
            f"{shown_url(wire.url)} cannot be reached: {reason}",
            redact(wire.url),
        )
        for wire, reason in unreachable.items()
    ]
    return RequirementResult(
        id=INTERFACES_RULE,
        level=_RULE_LEVELS[INTERFACES_RULE],
        subject="agent",
        summary="Every interface the card lists offers the same operations as the others, "
        "which needs it to answer.",
        anchor_url="https://a2a-protocol.org/latest/specification/#51-functional-equivalence-requirements",
        status="warn",
        checks=checks,
    )


def caching_result(headers: tuple[tuple[str, str], ...] | None) -> RequirementResult:
    """The card response's caching fields as the core rule ``A2A-8.6`` (a SHOULD):
    ``warn`` on each warning of ``caching_problems``, ``pass`` without one, ``skip`` for a card
    read from a file or standard input, which has no response."""
    problems = caching_problems(headers)
    checks = [
        Check(CACHING_RULE, "fail", "card", "the card response", "card", f"{p.code}: {p.message}")
        for p in problems
    ]
    if headers is not None and not problems:
        sent = {name for name, _ in headers}
        fields = [
            name for name in ("Cache-Control", "ETag", "Last-Modified") if name.lower() in sent
        ]
        detail = f"the card response carries {', '.join(fields)}"
        checks.append(Check(CACHING_RULE, "pass", "card", "the card response", "card", detail))
    return RequirementResult(
        id=CACHING_RULE,
        level=_RULE_LEVELS[CACHING_RULE],
        subject="agent card",
        summary="The card's HTTP response says how long it may be cached (Cache-Control with a "
        "max-age) and carries an ETag, so that clients keep it and ask again with a condition.",
        anchor_url="https://a2a-protocol.org/latest/specification/#86-caching",
        status="skip" if headers is None else "warn" if problems else "pass",
        checks=checks,
        reason="the card was read from a file, not over HTTP" if headers is None else "",
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


def card_check(extension: CardCommands) -> Check:
    if not extension.declared:
        ok, detail = False, "the card does not declare the extension"
    elif extension.problems:
        ok, detail = False, "; ".join(extension.problems)
    else:
        names = listed([f"/{name}" for name in extension.names]) or "none"
        ok, detail = True, f"params list the registered commands: {names}"
    return Check("CMD-7", "pass" if ok else "fail", "card", "the agent card", "card", detail)


async def read_card(
    client: httpx.AsyncClient,
    source: str,
    limits: SourceLimits,
    scope: HeaderScope,
    *,
    retried: list[Retry] | None = None,
    recorder: HarRecorder | None = None,
) -> tuple[dict[str, Any], str, tuple[tuple[str, str], ...] | None]:
    """The card at ``source``, where it was read, and the header fields of the response it
    came in (``None`` for a file): a URL through ``client`` by the one reader of a card URL
    (``read_url_async``: the well-known path and its pre-0.3 fallback, redirects checked, the
    byte cap counted after decompression, the retries, one deadline over it all; each retry
    appended to ``retried``), a file or ``-`` as ``validate`` reads them. A ``recorder``
    records each request (HAR)."""
    if is_url(source):
        check_limits(limits)
        deadline = Deadline.after(limits.timeout, f"no complete answer within {limits.timeout:g} s")
        raw = await read_url_async(
            source,
            limits,
            scope,
            client=client,
            deadline=deadline,
            retried=retried,
            recorder=recorder,
        )
    else:
        raw = read_source(source, limits, scope=scope)
    loaded = parse_card(raw)
    return loaded.card, loaded.location, raw.headers


def select_interfaces(
    card: dict[str, Any], bindings: tuple[str, ...], limit: int, notes: list[str]
) -> tuple[list[Interface], list[str], list[InterfaceInfo]]:
    """The interfaces to check (every JSON-RPC and HTTP+JSON one, the same URL and binding
    once, at most ``max_interfaces``), the bindings not checked, and every interface listed."""
    chosen: list[Interface] = []
    not_checked: list[str] = []
    every_interface: list[InterfaceInfo] = []
    seen: set[tuple[str, str]] = set()
    left_out: list[str] = []
    declared = card.get("supportedInterfaces")
    for entry in declared if isinstance(declared, list) else []:
        if not isinstance(entry, dict):
            continue
        binding, url = str(entry.get("protocolBinding")), entry.get("url")
        shown = redact(str(url))  # user:password@ is shown as ***@ in every note and report
        if (binding, shown) in seen:
            continue
        seen.add((binding, shown))
        reason = ""
        if binding not in BINDINGS:
            not_checked.append(binding)
            reason = "conform speaks JSON-RPC and HTTP+JSON"
            notes.append(f"{binding} interface at {shown}: not checked ({reason})")
        elif bindings and binding not in bindings:
            reason = "left out by --binding"
        elif not isinstance(url, str) or not is_url(url):
            notes.append(f"{binding} interface has no http(s) url ({shown!r}); not checked")
            reason = "no http(s) url"
        elif len(chosen) >= limit:
            left_out.append(f"{binding} {shown}")
            reason = "over --max-interfaces"
        else:
            tenant = entry.get("tenant")
            chosen.append(Interface(binding, url, tenant if isinstance(tenant, str) else ""))
        every_interface.append(
            InterfaceInfo(binding, shown, "not checked" if reason else "checked", reason)
        )
    if left_out:
        notes.append(
            f"{counted(len(left_out), 'interface')} over --max-interfaces {limit} "
            f"{'was' if len(left_out) == 1 else 'were'} "
            f"not checked: {', '.join(left_out)}"
        )
    if not chosen:
        wanted = " or ".join(bindings or BINDINGS)
        raise ConformError(f"the card declares no {wanted} interface with an http(s) url to check")
    return chosen, not_checked, every_interface


def unreachable_wires(wires: list[Wire], groups: list[GroupResult], modes: int) -> dict[Wire, str]:
    """The interfaces whose every group found no server, with what the first request met."""
    found: dict[Wire, str] = {}
    for index, wire in enumerate(wires):
        own = groups[index * modes : (index + 1) * modes]
        if all(group.unreachable for group in own):
            found[wire] = own[0].unreachable
    return found


def interface_info(
    entry: InterfaceInfo, wires: list[Wire], unreachable: dict[Wire, str]
) -> InterfaceInfo:
    shown = (entry.binding, entry.url)  # the report's URLs are redacted
    wire = next((w for w in wires if (w.binding, redact(w.url)) == shown), None)
    if wire is not None and wire in unreachable:
        return InterfaceInfo(entry.binding, entry.url, "unreachable", unreachable[wire])
    return entry
