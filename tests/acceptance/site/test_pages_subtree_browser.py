"""The subtree merged into the VitePress test host's build, in headless Chromium.

Each page the build wrote loads over HTTP with no console error and no failed request, uses
the stylesheets under ``a2a/ext/``, and its search (the subtree's own index) finds the
commands extension. Without Chromium or Playwright these tests skip, except under CI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

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


_LOOK = """async (selector) => {
  await document.fonts.ready;
  const link = document.querySelector(selector);
  const body = getComputedStyle(document.body);
  const loaded = [...document.fonts].filter((face) => face.status === "loaded");
  return {
    link: link ? getComputedStyle(link).color : null,
    background: body.backgroundColor,
    font: body.fontFamily,
    interLoaded: loaded.some((face) => face.family.replace(/["']/g, "") === "Inter"),
  };
}"""
HOST_LINK = ".vp-doc a[href]"
OUR_LINK = "article a[href]:not(.headerlink)"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_reader_goes_from_the_host_to_the_extensions_and_back_in_one_look(
    scheme: Literal["light", "dark"], browser: Browser, merged_base_url: str
) -> None:
    """The host's nav entry (``target: '_self'``) leads to the extensions' index, whose header
    link leads back to the host's home: no 404 on the way, and the same brand colour,
    background and font (the host's own Inter, loaded) on both sides."""
    from playwright.sync_api import Response

    failures: list[str] = []

    def on_response(response: Response) -> None:
        if response.status >= 400:
            failures.append(f"HTTP {response.status}: {response.url}")

    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    try:
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        page = context.new_page()
        page.on("response", on_response)
        page.goto(merged_base_url + "a2a/ext/task/v1", wait_until="networkidle")
        host_look = page.evaluate(_LOOK, HOST_LINK)

        page.locator(".VPNavBar a", has_text="Extensions").click()
        page.wait_for_url(merged_base_url + "a2a/ext/")
        page.wait_for_load_state("networkidle")
        assert page.locator("article h1").inner_text().startswith("Extensions")
        assert "PAGE NOT FOUND" not in page.content()
        our_look = page.evaluate(_LOOK, OUR_LINK)
        assert host_look["interLoaded"], host_look
        assert our_look == host_look

        back = page.locator("header a.th-host-link")
        assert back.inner_text() == "tiny-harness docs"
        back.click()
        page.wait_for_url(merged_base_url)
        page.wait_for_load_state("networkidle")
        assert page.locator(".VPHero .name").inner_text() == "tiny-harness"
        assert not failures, failures
    finally:
        context.close()


def test_a_nav_link_without_target_self_ends_on_the_hosts_404(
    browser: Browser, merged_base_url: str
) -> None:
    """Why the nav entry carries ``target: '_self'``: without it VitePress's router takes the
    click, finds no page of its own at the address and shows its 404."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        page = context.new_page()
        page.goto(merged_base_url + "a2a/ext/task/v1", wait_until="networkidle")
        link = page.locator(".VPNavBar a", has_text="Extensions")
        link.evaluate("(a) => a.removeAttribute('target')")
        link.click()
        page.get_by_text("PAGE NOT FOUND").wait_for()
        assert page.locator("article h1").count() == 0
    finally:
        context.close()
