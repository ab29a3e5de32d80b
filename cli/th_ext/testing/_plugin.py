"""The pytest plugin: a fixture for the card check and th-ext's version in the header.

pytest loads this module in every run where th-ext is installed, so it imports nothing heavy
at import time: the card check stands on the validator, and the conformance kit, which stands on
httpx, is imported only when a test calls ``th_ext.testing.conform``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from th_ext._version import __version__
from th_ext.testing._card import check_card

__all__ = ["pytest_report_header", "th_ext_check_card"]


def pytest_report_header() -> str:
    return f"th-ext {__version__}"


@pytest.fixture
def th_ext_check_card() -> Callable[..., Any]:
    """``th_ext.testing.check_card``, for tests that prefer a fixture to an import."""
    return check_card
