"""Fixtures shared by the acceptance tests: the JS SDK agent, a second implementation, and one
headless Chromium per worker for the site's and the conform report's browser tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, NoReturn

import pytest

from tests.conftest import in_ci
from tests.support.browser import CHROMIUM_ARGS, chromium_executable
from tests.support.js_agent import js_agent

if TYPE_CHECKING:
    from playwright.sync_api import Browser

__all__ = ["browser", "js_agent"]


def _unavailable(reason: str) -> NoReturn:
    if in_ci():
        pytest.fail(f"{reason}; under CI=true the browser tests must run")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the worker's browser tests."""
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        _unavailable("playwright is not installed")
    executable = chromium_executable()
    if executable is None:
        _unavailable("no Chromium binary (install Debian's chromium, or set CHROMIUM)")
    with sync_playwright() as playwright:
        try:
            launched = playwright.chromium.launch(
                executable_path=executable, headless=True, args=CHROMIUM_ARGS
            )
        except Error as error:
            _unavailable(f"Chromium at {executable} does not start: {error}")
        yield launched
        launched.close()
