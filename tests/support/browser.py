"""Headless Chromium for the site's browser tests: which binary, and the flags it runs with.

The tests drive the system's Chromium (Debian's ``chromium``) through Playwright's
``executable_path``, so no browser is downloaded. ``CHROMIUM`` names another binary.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

__all__ = ["CHROMIUM_ARGS", "chromium_executable"]

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
