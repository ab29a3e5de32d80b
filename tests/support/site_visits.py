"""Every page of the built site visited in headless Chromium, once per colour scheme, with
everything the site's page-by-page tests read from a visit collected in that one visit.

The page weight, console-error, code-wrapping and accessibility tests all open every page;
each used to load it again for its own check. Here a page is loaded once in the light scheme,
in a tab of its own with the browser's caches bypassed (every byte fetched, as on a cold
visit), where Chromium counts the bytes it receives, the problems of the load are watched until
the network is idle, long code lines are looked for and axe-core runs; and once in the dark
scheme, for the code lines and axe-core again (the dark pages one after another in one tab,
whose cache spares the reloads of the shared assets). The tests then assert on the collected
:class:`PageVisit` records.

The light tabs share one context: a context of its own per page would start a renderer process
per page, which cost more than half of the light visits' CPU time, and bypassing the caches
already gives each tab the bytes of a cold visit.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from tests.support.axe import AXE_JS, axe_violations
from tests.support.browser import ACTION_TIMEOUT_MS
from tests.support.overlap import overlapped
from tests.support.page_weight import ColorScheme, Measuring, watch_costs

if TYPE_CHECKING:
    from playwright.sync_api import (
        Browser,
        BrowserContext,
        ConsoleMessage,
        Page,
        Request,
        Response,
        ViewportSize,
    )

__all__ = ["NOT_FOUND_PATH", "PageVisit", "Problems", "visit_dark", "visit_light"]

NOT_FOUND_PATH = "no/such/page/"
"""An address the site has no page for: answered by ``404.html`` with status 404."""

_VIEWPORT: ViewportSize = {"width": 1280, "height": 900}

_OVERFLOWING_CODE = """() => [...document.querySelectorAll("article pre > code")]
  .filter((code) => code.scrollWidth > code.clientWidth + 1)
  .map((code) => code.textContent.slice(0, 60))"""


@dataclass
class Problems:
    """What went wrong while a page loaded: console errors, page errors, failed requests."""

    document_url: str
    allowed_document_status: int = 200
    found: list[str] = field(default_factory=list)

    def watch(self, page: Page) -> None:
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.found.append(f"page error: {error}"))
        page.on("requestfailed", self._request_failed)
        page.on("response", self._response)

    def _console(self, message: ConsoleMessage) -> None:
        expected_document_error = (
            self.allowed_document_status != 200
            and message.location.get("url") == self.document_url
            and message.text.startswith("Failed to load resource")
        )
        if message.type == "error" and not expected_document_error:
            self.found.append(f"console error: {message.text} ({message.location})")

    def _request_failed(self, request: Request) -> None:
        self.found.append(f"request failed: {request.url} ({request.failure})")

    def _response(self, response: Response) -> None:
        document = response.request.resource_type == "document"
        allowed = self.allowed_document_status if document else 200
        if response.status >= 400 and response.status != allowed:
            self.found.append(f"HTTP {response.status}: {response.url}")


@dataclass(frozen=True)
class PageVisit:
    """One page loaded in one colour scheme, and what the tests read from it."""

    path: str
    scheme: ColorScheme
    status: int
    overflowing_code: list[str]
    """The start of each code block cut at the block's right edge."""
    violations: list[dict[str, str]] | None
    """axe-core's WCAG 2.1 A/AA violations (``impact``, ``text``); None without axe-core."""
    problems: list[str] | None = None
    """Console errors, page errors and failed requests until the network was idle (light)."""
    bytes: int | None = None
    """What Chromium received on the cold visit, headers included (light)."""
    requests: int | None = None
    scripts: list[str] | None = None

    def as_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PageVisit:
        return cls(**data)


@dataclass
class _Loading:
    path: str
    page: Page
    status: int
    measuring: Measuring
    problems: Problems


def _start(context: BrowserContext, base_url: str, path: str) -> _Loading:
    """Start loading ``path`` in a new tab of ``context``, its caches bypassed, counting what
    Chromium receives and watching for problems."""
    status = 404 if path == NOT_FOUND_PATH else 200
    page = context.new_page()
    try:
        measuring = watch_costs(context, page, path)
        problems = Problems(base_url + path, status)
        problems.watch(page)
        response = page.goto(base_url + path, wait_until="commit")
        answered = response.status if response is not None else 0
    except BaseException:
        page.close()
        raise
    return _Loading(path, page, answered, measuring, problems)


def _axe(page: Page, wanted: bool) -> list[dict[str, str]] | None:
    if not wanted:
        return None
    return [{"impact": v.impact, "text": str(v)} for v in axe_violations(page)]


def _finish(loading: _Loading, with_axe: bool) -> PageVisit:
    """Wait until the network is idle, then read the page; closes its tab."""
    page = loading.page
    try:
        page.wait_for_load_state("networkidle")
        return PageVisit(
            loading.path,
            "light",
            loading.status,
            overflowing_code=page.evaluate(_OVERFLOWING_CODE),
            violations=_axe(page, with_axe),
            problems=list(loading.problems.found),
            bytes=sum(loading.measuring.received.values()),
            requests=len(loading.measuring.received),
            scripts=list(loading.measuring.scripts),
        )
    finally:
        page.close()


def visit_light(
    browser: Browser, base_url: str, paths: Iterable[str], axe_pages: list[str]
) -> list[PageVisit]:
    """Each path in the light scheme, each in a tab of its own with the caches bypassed,
    several loading at once; axe-core runs on ``axe_pages`` and :data:`NOT_FOUND_PATH` when it
    is installed."""
    axe = AXE_JS.is_file()

    def finish(loading: _Loading) -> PageVisit:
        checked = loading.path in axe_pages or loading.path == NOT_FOUND_PATH
        return _finish(loading, with_axe=axe and checked)

    context = browser.new_context(color_scheme="light", viewport=_VIEWPORT)
    try:
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        return overlapped(paths, lambda path: _start(context, base_url, path), finish)
    finally:
        context.close()


def visit_dark(browser: Browser, base_url: str, paths: Iterable[str]) -> list[PageVisit]:
    """Each path in the dark scheme, one after another in one context; axe-core runs on each
    when it is installed."""
    axe = AXE_JS.is_file()
    visits = []
    context = browser.new_context(color_scheme="dark", viewport=_VIEWPORT)
    try:
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        page = context.new_page()
        for path in paths:
            response = page.goto(base_url + path, wait_until="load")
            status = response.status if response is not None else 0
            overflowing = page.evaluate(_OVERFLOWING_CODE)
            visits.append(PageVisit(path, "dark", status, overflowing, _axe(page, axe)))
    finally:
        context.close()
    return visits
