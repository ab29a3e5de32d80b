"""The live check: send the one message and hold the agent's answer to the extension's rule, with
the checks ``th-ext conform`` runs (``th_ext.checks``)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from th_ext._exceptions import AgentUnreachableError, DispatchError
from th_ext._sync import run_sync
from th_ext.checks import (
    Check,
    Observation,
    command_checks,
    find_reply,
    ordinary_checks,
    stream_order_check,
    task_ref_check,
)
from th_ext.checks._observe import state
from th_ext.commands._dispatch_rule import decide
from th_ext.dispatch import _verdict as verdict
from th_ext.dispatch._jsonrpc import JsonRpcClient
from th_ext.dispatch._plan import DispatchPlan
from th_ext.dispatch._verdict import LiveCheck
from th_ext.net import HarRecorder, HeaderScope, client_options, shown_url
from th_ext.net._exchange import RpcExchange
from th_ext.sources._source import DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT

__all__ = [
    "CHECK_NAMES",
    "REQUIREMENT_CHECKS",
    "LiveCheck",
    "LiveReport",
    "check_live",
    "check_live_async",
]

REQUIREMENT_CHECKS = {
    "A2A-3.1.2": "stream-order",
    "CMD-2": "command-reply",
    "CMD-3": "command-metadata",
    "CMD-19": "metadata-in-both-places",
    "CMD-9": "reply-message",
    "CMD-11": "reply-names-task",
    "CMD-5": "state-unchanged",
    "CMD-14": "no-other-update",
    "CMD-1": "model-not-invoked",
    "CMD-4": "task-ref",
    "CMD-6": "no-command-reply",
    "CMD-8": "no-command-reply",
}
"""The name of the live check that guards each requirement of the commands extension (and the
core A2A rule of a stream's order)."""
_WARN_ONLY = frozenset({"A2A-3.1.2", "CMD-11", "CMD-19"})
"""Core A2A rules and SHOULD requirements: a failed check warns and does not fail the run."""
CHECK_NAMES = ("task-before", "answered", *dict.fromkeys(REQUIREMENT_CHECKS.values()))
"""Every check the live run can report."""


@dataclass(frozen=True, slots=True)
class LiveReport:
    """What was sent, what came back, and every check."""

    passed: bool
    task_id: str | None
    sent: dict[str, Any]
    received: list[Any]
    checks: list[LiveCheck]
    notices: list[str] = field(default_factory=list)
    """What the user should know about how the run went, e.g. headers withheld from an origin."""

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON (the ``live`` object of ``th-ext dispatch --format json``).

        What the agent sent is referenced as it is, not copied: an answer nested hundreds of
        levels deep must not exhaust the stack here.
        """
        return {
            "passed": self.passed,
            "task_id": self.task_id,
            "sent": self.sent,
            "received": self.received,
            "checks": [asdict(check) for check in self.checks],
            "notices": list(self.notices),
        }

    def failed(self) -> list[str]:
        return [check.name for check in self.checks if check.status == "fail"]


def check_live(
    plan: DispatchPlan,
    *,
    headers: tuple[tuple[str, str], ...] = (),
    timeout: float = DEFAULT_TIMEOUT,
    max_bytes: int = DEFAULT_MAX_BYTES,
    task_id: str | None = None,
    scope: HeaderScope | None = None,
    recorder: HarRecorder | None = None,
) -> LiveReport:
    """Send ``plan``'s message to the agent and check its answer.

    Nothing is sent but that message and the ``GetTask`` reads the checks need: the task
    before (with ``task_id``), the task after, and the task a ``task_ref`` names.

    ``timeout`` bounds each exchange (a stream included) and ``max_bytes`` each answer. The
    caller's headers go where ``scope`` allows; without a scope, ``headers`` go to the origin
    of the plan's interface only. A ``recorder`` records every exchange (HAR). From async code,
    await ``check_live_async`` instead.
    """
    return run_sync(
        lambda: check_live_async(
            plan,
            headers=headers,
            timeout=timeout,
            max_bytes=max_bytes,
            task_id=task_id,
            scope=scope,
            recorder=recorder,
        )
    )


async def check_live_async(
    plan: DispatchPlan,
    *,
    headers: tuple[tuple[str, str], ...] = (),
    timeout: float = DEFAULT_TIMEOUT,
    max_bytes: int = DEFAULT_MAX_BYTES,
    task_id: str | None = None,
    scope: HeaderScope | None = None,
    recorder: HarRecorder | None = None,
) -> LiveReport:
    """``check_live`` for a caller that already runs an event loop."""
    if plan.request is None:
        raise DispatchError("the card offers no JSON-RPC interface to send the message to")
    if scope is None:
        scope = HeaderScope.for_source(headers, plan.request.url)
    return await _Run(plan, scope, timeout, max_bytes, task_id, recorder=recorder).run()


class _Run:
    """One live check: the reads and the send, in order, collecting the verdicts."""

    def __init__(
        self,
        plan: DispatchPlan,
        scope: HeaderScope,
        timeout: float,
        max_bytes: int,
        task_id: str | None,
        *,
        recorder: HarRecorder | None = None,
    ) -> None:
        assert plan.request is not None
        self.recorder = recorder
        self.plan = plan
        self.request = plan.request
        self.scope = scope
        self.timeout = timeout
        self.max_bytes = max_bytes
        self.task_id = task_id or plan.message.get("taskId") or None
        self.checks: list[LiveCheck] = []

    async def run(self) -> LiveReport:
        # Deferred: httpx adds about 75 ms to a command's start-up (measured), and the dry run,
        # which imports this package, never sends anything.
        import httpx

        limits = httpx.Limits(max_connections=2)
        async with httpx.AsyncClient(
            timeout=self.timeout, **client_options(limits=limits)
        ) as client:
            rpc = JsonRpcClient(
                client,
                self.request.url,
                self.request.headers,
                timeout=self.timeout,
                max_bytes=self.max_bytes,
                scope=self.scope,
                recorder=self.recorder,
            )
            return await self._run(rpc)

    async def _run(self, rpc: JsonRpcClient) -> LiveReport:
        message = dict(self.plan.message)
        before: dict[str, Any] | None = None
        if self.task_id:
            before = await self._get_task(rpc, self.task_id, "task-before")
            if before is None:
                return self._report(message, [])
            message["taskId"] = self.task_id
            if "contextId" not in message and isinstance(before.get("contextId"), str):
                message["contextId"] = before["contextId"]
        params = {**self.request.body["params"], "message": message}
        body = rpc.body(self.request.body["method"], params)
        sent = await rpc.send(body, stream=self.plan.streaming)
        if sent.unreachable and before is None:
            self._unreachable(sent)
        results = sent.results
        if not sent.ok or not results:
            self.checks.append(
                verdict.check("answered", False, sent.problem() or "the agent sent no result")
            )
            return self._report(body, results)
        self.checks.append(verdict.answered(results))
        task_id = self.task_id or verdict.task_id_of(results)
        after = await self._get_task(rpc, task_id, None) if task_id else None
        obs = Observation(
            binding="JSONRPC",
            stream=self.plan.streaming,
            existing=before is not None,
            label=_label(message),
            exchange=sent,
            before=before,
            after=after,
        )
        if self.plan.outcome != "command" or self.plan.command is None:
            name = decide(message, self.plan.extension.commands).name
            requirement = "CMD-6" if name else "CMD-8"
            if obs.stream:
                self._take([stream_order_check(obs)])
            self._take(ordinary_checks(obs, requirement))
            return self._report(body, results, task_id)
        self._take(command_checks(obs, self.plan.command))
        reply = find_reply(obs, self.plan.command)
        if reply is not None:
            self._take([await task_ref_check(_RpcReader(rpc), obs, reply)])
        return self._report(body, results, task_id)

    def _unreachable(self, exchange: RpcExchange) -> None:
        """The first request found no server: nothing can be checked."""
        raise AgentUnreachableError(
            f"the agent cannot be reached at {shown_url(self.request.url)}: {exchange.problem()}"
        )

    def _take(self, checks: list[Check]) -> None:
        for found in checks:
            name = REQUIREMENT_CHECKS.get(found.requirement, found.requirement)
            status: verdict.Status = found.status
            if status == "fail" and found.requirement in _WARN_ONLY:
                status = "warn"
            self.checks.append(LiveCheck(name, status, found.detail, found.requirement))

    async def _get_task(
        self, rpc: JsonRpcClient, task_id: str, name: str | None
    ) -> dict[str, Any] | None:
        """Read a task; with ``name``, record the read as that check."""
        exchange = await rpc.call("GetTask", {"id": task_id})
        task = exchange.results[0] if exchange.ok and exchange.results else None
        if exchange.unreachable and name:
            self._unreachable(exchange)
        if not isinstance(task, dict):
            if name:
                problem = exchange.problem() or "no task"
                self.checks.append(verdict.check(name, False, f"GetTask {task_id}: {problem}"))
            return None
        if name:
            self.checks.append(verdict.check(name, True, f"GetTask {task_id}: {state(task)}"))
        return task

    def _report(
        self, sent: dict[str, Any], received: list[Any], task_id: str | None = None
    ) -> LiveReport:
        return LiveReport(
            passed=all(check.status != "fail" for check in self.checks),
            task_id=task_id or self.task_id,
            sent=sent,
            received=received,
            checks=list(self.checks),
            notices=list(self.scope.notices()),
        )


class _RpcReader:
    """The ``GetTask`` side of a conform wire, over the live check's JSON-RPC client."""

    binding = "JSONRPC"

    def __init__(self, rpc: JsonRpcClient) -> None:
        self._rpc = rpc

    async def get_task(self, task_id: str) -> RpcExchange:
        return await self._rpc.call("GetTask", {"id": task_id})


def _label(message: dict[str, Any]) -> str:
    parts = message.get("parts")
    first = parts[0] if isinstance(parts, list) and parts else None
    text = first.get("text") if isinstance(first, dict) else None
    return repr(text) if isinstance(text, str) else "the message"
