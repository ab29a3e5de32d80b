"""The subtree merged into the stand-in host site, in headless Chromium.

Each page the build wrote loads over HTTP with no console error and no failed request, uses
the stylesheets under ``a2a/ext/``, and its search (the subtree's own index) finds the
commands extension. Without Chromium or Playwright these tests skip, except under CI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.support.browser import ACTION_TIMEOUT_MS

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = [pytest.mark.browser, pytest.mark.slow]

COMMANDS = "a2a/ext/commands/v1"


@pytest.mark.parametrize("path", ["a2a/ext/", "a2a/ext/commands/v1/", "a2a/ext/th-ext/dispatch/"])
def test_subtree_pages_load_cleanly_in_chromium(
    path: str, browser: Browser, merged_base_url: str
) -> None:
    from playwright.sync_api import ConsoleMessage, Response

    problems: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            problems.append(f"console error: {message.text}")

    def on_response(response: Response) -> None:
        if response.status >= 400:
            problems.append(f"HTTP {response.status}: {response.url}")

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        page = context.new_page()
        page.on("console", on_console)
        page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
        page.on("requestfailed", lambda request: problems.append(f"failed: {request.url}"))
        page.on("response", on_response)
        response = page.goto(merged_base_url + path, wait_until="networkidle")
        assert response is not None and response.status == 200
        styles = page.evaluate("[...document.styleSheets].map((s) => s.href).filter(Boolean)")
        assert any("/a2a/ext/assets/stylesheets/" in href for href in styles), styles
        assert page.locator("article h1").count() == 1
        search = page.locator("input[data-md-component=search-query]")
        search.click()
        search.press_sequentially("commands", delay=20)
        results = page.locator(".md-search-result__item a")
        results.first.wait_for(state="visible")
        hrefs: list[str] = results.evaluate_all("(links) => links.map((a) => a.href)")
        assert any(href.startswith(merged_base_url + COMMANDS + "/") for href in hrefs), hrefs
        assert not problems, problems
    finally:
        context.close()
