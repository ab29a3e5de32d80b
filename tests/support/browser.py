"""Headless Chromium for the browser tests: which binary, the flags it runs with, and starting it.

The tests drive the system's Chromium (Debian's ``chromium``) through Playwright's
``executable_path``, so no browser is downloaded. ``CHROMIUM`` names another binary.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import pytest

from tests.conftest import in_ci

if TYPE_CHECKING:
    from playwright.sync_api import Browser

__all__ = ["ACTION_TIMEOUT_MS", "CHROMIUM_ARGS", "chromium_executable", "launched_chromium"]

#: How long one browser action (a load, a click, a full-page screenshot) may take. A page that
#: never loads fails after this; a busy shared machine can take several seconds for a
#: screenshot of a long page, which is slow, not wrong.
ACTION_TIMEOUT_MS = 60_000

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

_CANDIDATES = ("chromium",)


def chromium_executable() -> Path | None:
    """The Chromium binary to drive: ``$CHROMIUM``, else ``chromium`` on PATH, else none."""
    named = os.environ.get("CHROMIUM")
    if named:
        return Path(named) if Path(named).is_file() else None
    for candidate in _CANDIDATES:
        found = shutil.which(candidate)
        if found:
            return Path(found)
    default = Path("/usr/bin/chromium")
    return default if default.is_file() else None


def _unavailable(reason: str) -> NoReturn:
    if in_ci():
        pytest.fail(f"{reason}; under CI=true the browser tests must run")
    pytest.skip(reason)


@contextmanager
def launched_chromium() -> Iterator[Browser]:
    """A headless Chromium, skipped (failed under CI) when it cannot start.

    Playwright's synchronous API keeps an event loop running while it is open, so no
    ``asyncio.run`` can happen in the same process meanwhile: a fixture holding it is scoped
    to the tests that need it.
    """
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
