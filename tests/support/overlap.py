"""Visiting many pages in one headless Chromium with their loads overlapped.

Most of a page visit in a browser test is waiting: for the page's late requests and above all
for Playwright's ``networkidle`` (no request for 500 ms). A test that visits every page of the
site starts the next few pages loading while it reads the oldest, so those waits overlap. Each
page still has a tab of its own and is checked exactly as it would be if visited alone.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import TypeVar

__all__ = ["AHEAD", "overlapped"]

Item = TypeVar("Item")
Started = TypeVar("Started")
Result = TypeVar("Result")

AHEAD = 4
"""Pages loading at once: enough to hide the idle waits, few enough for two shared cores."""


def overlapped(
    items: Iterable[Item],
    start: Callable[[Item], Started],
    finish: Callable[[Started], Result],
    ahead: int = AHEAD,
) -> list[Result]:
    """``finish(start(item))`` for every item, in order, with up to ``ahead`` items started
    and not yet finished at any time."""
    started: deque[Started] = deque()
    results: list[Result] = []
    for item in items:
        if len(started) == ahead:
            results.append(finish(started.popleft()))
        started.append(start(item))
    while started:
        results.append(finish(started.popleft()))
    return results
