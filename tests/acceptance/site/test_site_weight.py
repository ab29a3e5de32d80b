"""Page weight: no page of the built site transfers more than 500 KiB on a cold visit in
headless Chromium, and none loads a diagram script. (Load times are measured by
``benchmarks/bench_site.py``, not asserted here.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.conftest import in_ci
from tests.support.browser import CHROMIUM_ARGS, chromium_executable
from tests.support.overlap import overlapped
from tests.support.page_weight import Measuring, site_pages, start_measuring

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MAX_BYTES = 500 * 1024


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    executable = chromium_executable()
    if executable is None:
        if in_ci():
            pytest.fail("no Chromium binary; under CI=true the browser tests must run")
        pytest.skip("no Chromium binary (install Debian's chromium, or set CHROMIUM)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(executable), headless=True, args=CHROMIUM_ARGS
        )
        yield launched
        launched.close()


def test_every_page_weighs_at_most_500_kib(
    built_site: Path, site_base_url: str, browser: Browser
) -> None:
    pages = site_pages(built_site)
    assert "a2a/ext/commands/v1/" in pages
    costs = overlapped(
        pages, lambda path: start_measuring(browser, site_base_url, path), Measuring.finish
    )
    for path, cost in zip(pages, costs, strict=True):
        assert cost.requests > 1, f"{path}: nothing measured"
        assert cost.bytes <= MAX_BYTES, f"{path}: {cost.bytes / 1024:.0f} KiB over the wire"
        assert not [url for url in cost.scripts if "mermaid" in url.lower()], path
