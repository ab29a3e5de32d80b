"""What a page of the built site costs a reader: bytes over the wire, requests, scripts loaded,
and the time to DOMContentLoaded, measured in headless Chromium.

Bytes are Chromium's own count of what it received (``encodedDataLength`` of every finished
request, headers included), so they are what a reader downloads on a cold visit.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page, Request

__all__ = [
    "ColorScheme",
    "Measuring",
    "PageCost",
    "measure_page",
    "site_pages",
    "start_measuring",
    "watch_costs",
]

ColorScheme = Literal["light", "dark"]


@dataclass(frozen=True)
class PageCost:
    path: str
    bytes: int
    requests: int
    scripts: tuple[str, ...]
    dom_content_loaded_ms: float


def site_pages(site_dir: Path) -> list[str]:
    """Every page of a built site, as a path under the site's root (``a2a/ext/``)."""
    pages = []
    for html in sorted(site_dir.rglob("index.html")):
        folder = html.parent.relative_to(site_dir).as_posix()
        pages.append("" if folder == "." else folder + "/")
    return pages


def measure_page(
    browser: Browser, base_url: str, path: str, color_scheme: ColorScheme = "light"
) -> PageCost:
    """Open ``base_url + path`` in a fresh context (empty cache) and count what it costs."""
    return start_measuring(browser, base_url, path, color_scheme).finish()


def start_measuring(
    browser: Browser, base_url: str, path: str, color_scheme: ColorScheme = "light"
) -> Measuring:
    """Start loading ``base_url + path`` in a fresh context (empty cache), counting as it goes;
    ``finish()`` waits for the network to go idle and gives the cost."""
    context = browser.new_context(color_scheme=color_scheme)
    try:
        measuring = watch_costs(context, context.new_page(), path)
        measuring.page.goto(base_url + path, wait_until="commit")
    except BaseException:
        context.close()
        raise
    return measuring


def watch_costs(context: BrowserContext, page: Page, path: str) -> Measuring:
    """Count what ``page`` (showing ``path``) receives from now on, through Chromium's
    network events, with the browser's caches bypassed for it: every byte is fetched as on a
    cold visit, even in a context that has loaded the same files before."""
    session = context.new_cdp_session(page)
    session.send("Network.enable")
    session.send("Network.setCacheDisabled", {"cacheDisabled": True})
    measuring = Measuring(path, context, page)
    session.on("Network.loadingFinished", measuring.finished)
    page.on("request", measuring.requested)
    return measuring


class Measuring:
    """A page on its way to loading, with what it has received so far."""

    def __init__(self, path: str, context: BrowserContext, page: Page) -> None:
        self.path = path
        self.context = context
        self.page = page
        self.received: dict[str, int] = {}
        self.scripts: list[str] = []

    def finished(self, event: dict[str, object]) -> None:
        length = event.get("encodedDataLength", 0)
        counted = int(length) if isinstance(length, int | float) else 0
        self.received[str(event["requestId"])] = counted

    def requested(self, request: Request) -> None:
        if request.resource_type == "script":
            self.scripts.append(request.url)

    def finish(self) -> PageCost:
        """Wait until the network is idle, then give the page's cost; closes its context."""
        try:
            self.page.wait_for_load_state("networkidle")
            # When the event fires, as DevTools marks DOMContentLoaded (its handlers not included)
            timing = self.page.evaluate(
                "() => performance.getEntriesByType('navigation')[0].domContentLoadedEventStart"
            )
            return PageCost(
                path=self.path,
                bytes=sum(self.received.values()),
                requests=len(self.received),
                scripts=tuple(self.scripts),
                dom_content_loaded_ms=float(timing),
            )
        finally:
            self.context.close()
