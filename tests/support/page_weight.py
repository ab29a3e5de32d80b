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
    from playwright.sync_api import Browser

__all__ = ["ColorScheme", "PageCost", "measure_page", "site_pages"]

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
    context = browser.new_context(color_scheme=color_scheme)
    try:
        page = context.new_page()
        session = context.new_cdp_session(page)
        session.send("Network.enable")
        received: dict[str, int] = {}
        scripts: list[str] = []

        def finished(event: dict[str, object]) -> None:
            length = event.get("encodedDataLength", 0)
            counted = int(length) if isinstance(length, int | float) else 0
            received[str(event["requestId"])] = counted

        session.on("Network.loadingFinished", finished)
        page.on(
            "request",
            lambda request: scripts.append(request.url)
            if request.resource_type == "script"
            else None,
        )
        page.goto(base_url + path, wait_until="networkidle")
        # When the event fires, as DevTools marks DOMContentLoaded (its handlers not included)
        timing = page.evaluate(
            "() => performance.getEntriesByType('navigation')[0].domContentLoadedEventStart"
        )
        return PageCost(
            path=path,
            bytes=sum(received.values()),
            requests=len(received),
            scripts=tuple(scripts),
            dom_content_loaded_ms=float(timing),
        )
    finally:
        context.close()
