"""The pytest plugin: the ``th_ext_check_card`` fixture and th-ext's version in pytest's header;
it imports nothing heavy, since pytest loads it in every run."""

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
