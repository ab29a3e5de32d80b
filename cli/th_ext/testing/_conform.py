"""``conform``: the conformance kit from an agent's own tests, against an ASGI application
in-process (its lifespan run around the checks) or a running agent."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from th_ext._sync import run_sync
from th_ext.problems import clean, counted, escape_unsafe

if TYPE_CHECKING:
    from th_ext.conform import ConformOptions, ConformReport

__all__ = ["ASGIApp", "ConformanceFailed", "LifespanError", "app_lifespan", "conform"]


ASGIApp = Callable[
    [
        MutableMapping[str, Any],
        Callable[[], Awaitable[MutableMapping[str, Any]]],
        Callable[[MutableMapping[str, Any]], Awaitable[None]],
    ],
    Awaitable[None],
]

LIFESPAN_TIMEOUT = 10.0


class LifespanError(RuntimeError):
    """The application reported that its startup or shutdown failed."""


@asynccontextmanager
async def app_lifespan(app: ASGIApp) -> AsyncIterator[None]:
    """Run ``app``'s lifespan startup, the block, then its shutdown."""
    inbox: asyncio.Queue[MutableMapping[str, Any]] = asyncio.Queue()
    outbox: asyncio.Queue[MutableMapping[str, Any]] = asyncio.Queue()

    async def run_app_lifespan() -> None:
        scope = {"type": "lifespan", "asgi": {"version": "3.0", "spec_version": "2.0"}}
        try:
            await app(scope, inbox.get, outbox.put)
        except Exception:
            await outbox.put({"type": "lifespan.unsupported"})

    task = asyncio.get_running_loop().create_task(run_app_lifespan())
    await inbox.put({"type": "lifespan.startup"})
    answer = await asyncio.wait_for(outbox.get(), LIFESPAN_TIMEOUT)
    if answer["type"] == "lifespan.startup.failed":
        raise LifespanError(f"the application's startup failed: {answer.get('message', '')}")
    if answer["type"] != "lifespan.startup.complete":
        await task  # an application without a lifespan has nothing to shut down
        yield
        return
    try:
        yield
    finally:
        await inbox.put({"type": "lifespan.shutdown"})
        answer = await asyncio.wait_for(outbox.get(), LIFESPAN_TIMEOUT)
        await asyncio.wait_for(task, LIFESPAN_TIMEOUT)
        if answer["type"] == "lifespan.shutdown.failed":
            raise LifespanError(f"the application's shutdown failed: {answer.get('message', '')}")


DEFAULT_BASE_URL = "http://agent.test"


class ConformanceFailed(AssertionError):
    """The agent does not conform; ``report`` holds every requirement and its checks."""

    __module__ = "th_ext.testing"  # its public home: tracebacks and ``-ra`` name it so

    def __init__(self, report: ConformReport) -> None:
        self.report = report
        super().__init__(describe(report))


def conform(
    app: ASGIApp | None = None,
    *,
    source: str | None = None,
    base_url: str = DEFAULT_BASE_URL,
    options: ConformOptions | None = None,
) -> ConformReport:
    """Run ``th-ext conform`` against ``app`` (an ASGI application) or a running agent.

    With ``app``, every request goes to the application in-process (httpx's ASGI transport,
    no port, no network), with its lifespan run around the checks; its card is read at
    ``base_url`` + ``/.well-known/agent-card.json``, so give the base URL the card's interfaces
    name. With ``source`` (a card file, or a card or base URL) the agent is reached over HTTP.
    Returns the report; raises ``ConformanceFailed`` (an ``AssertionError``) when the agent
    does not conform.
    """
    # A failure shows the agent author's line and the requirements, not th-ext's own source.
    __tracebackhide__ = True
    # Deferred: the conformance kit and httpx add about 135 ms (measured) to the import of this
    # package, which pytest imports through the plugin in every run where th-ext is installed.
    import httpx

    from th_ext.conform import run_conform, run_conform_async

    if (app is None) == (source is None):
        raise TypeError("conform() takes an ASGI app or a source, not both and not neither")
    if app is not None:
        asgi_app = app

        async def in_process() -> ConformReport:
            async with app_lifespan(asgi_app):
                transport = httpx.ASGITransport(app=asgi_app)
                return await run_conform_async(base_url, options, transport=transport)

        report = run_sync(in_process)
    else:
        assert source is not None
        report = run_conform(source, options)
    if not report.passed:
        raise ConformanceFailed(report)
    return report


def describe(report: ConformReport) -> str:
    """The verdict, then each requirement that failed or warned with its first failing checks."""
    counts = report.counts()
    lines = [
        f"agent {clean(report.agent.card_url)} does not conform: "
        f"{counted(counts['fail'], 'requirement')} failed, {counts['warn']} warned"
    ]
    for requirement in [*report.requirements, *report.core]:
        if requirement.status not in ("fail", "warn"):
            continue
        lines.append(
            f"  {requirement.status} {requirement.id} ({requirement.level}): {requirement.summary}"
        )
        failing = [c for c in requirement.checks if c.status == "fail"]
        lines += [
            f"    {c.binding} {c.mode} {clean(c.scenario)}: {clean(c.detail)}" for c in failing[:3]
        ]
        if len(failing) > 3:
            lines.append(f"    and {len(failing) - 3} more")
    return escape_unsafe("\n".join(lines))  # the command line's sanitiser: one line per entry
