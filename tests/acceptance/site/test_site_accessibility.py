"""Accessibility: axe-core finds no serious or critical WCAG 2.1 AA violation on any page of the
built site, in the light or the dark colour scheme, in headless Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.conftest import in_ci
from tests.support.axe import AXE_JS, axe_violations
from tests.support.browser import CHROMIUM_ARGS, chromium_executable
from tests.support.overlap import overlapped
from tests.support.page_weight import ColorScheme, site_pages

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _unavailable(reason: str) -> None:
    if in_ci():
        pytest.fail(f"{reason}; under CI=true the accessibility checks must run")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    executable = chromium_executable()
    if executable is None:
        _unavailable("no Chromium binary (install Debian's chromium, or set CHROMIUM)")
    if not AXE_JS.is_file():
        _unavailable("axe-core is not installed (make test runs npm ci in tests/browser)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(executable), headless=True, args=CHROMIUM_ARGS
        )
        yield launched
        launched.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_page_has_a_serious_wcag_violation(
    built_site: Path, site_base_url: str, browser: Browser, scheme: ColorScheme
) -> None:
    pages = [*site_pages(built_site), "no-such-page/"]  # the 404 page too

    def start(path: str) -> tuple[str, BrowserContext, Page]:
        context = browser.new_context(color_scheme=scheme, viewport={"width": 1280, "height": 900})
        try:
            page = context.new_page()
            page.goto(site_base_url + path, wait_until="commit")
        except BaseException:
            context.close()
            raise
        return path, context, page

    def check(started: tuple[str, BrowserContext, Page]) -> list[str]:
        path, context, page = started
        try:
            page.wait_for_load_state("load")
            return [
                f"{path or '(home)'}: {violation}"
                for violation in axe_violations(page)
                if violation.impact in ("serious", "critical")
            ]
        finally:
            context.close()

    found = [line for lines in overlapped(pages, start, check) for line in lines]
    assert found == [], "\n".join(found)
