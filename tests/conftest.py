"""Shared test settings: where the repository is, and how tests find its pieces."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
EXTENSIONS_DIR = REPO_ROOT / "extensions"


def in_ci() -> bool:
    """True under CI, where a missing tool is a failure rather than a skip."""
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def extensions_dir() -> Path:
    return EXTENSIONS_DIR
