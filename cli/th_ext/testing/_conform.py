"""``conform``: the conformance kit from an agent's own tests, in-process or over HTTP."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from th_ext.problems._text import clean, escape_unsafe

if TYPE_CHECKING:
    from th_ext.conform import ConformOptions, ConformReport
    from th_ext.testing._asgi import ASGIApp

__all__ = ["ConformanceFailed", "conform"]

DEFAULT_BASE_URL = "http://agent.test"


class ConformanceFailed(AssertionError):
    """The agent does not conform; ``report`` holds every requirement and its checks."""

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
    from th_ext.conform import run_conform

    if (app is None) == (source is None):
        raise TypeError("conform() takes an ASGI app or a source, not both and not neither")
    if app is not None:
        report = _run(_in_process(app, base_url, options))
    else:
        assert source is not None
        report = run_conform(source, options)
    if not report.passed:
        raise ConformanceFailed(report)
    return report


async def _in_process(app: ASGIApp, base_url: str, options: ConformOptions | None) -> ConformReport:
    import httpx

    from th_ext.conform import run_conform_async
    from th_ext.testing._asgi import app_lifespan

    async with app_lifespan(app):
        transport = httpx.ASGITransport(app=app)
        return await run_conform_async(base_url, options, transport=transport)


def _run(coroutine: object) -> ConformReport:
    """Run the coroutine to its end, also from a test that already runs an event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)  # type: ignore[arg-type]
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()  # type: ignore[arg-type]


def describe(report: ConformReport) -> str:
    """The verdict, then each requirement that failed or warned with its first failing checks."""
    counts = report.counts()
    lines = [
        f"agent {clean(report.agent.card_url)} does not conform: "
        f"{counts['fail']} requirement(s) failed, {counts['warn']} warned"
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
