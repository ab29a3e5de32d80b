"""Shared test settings: where the repository is, and how tests find its pieces."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
EXTENSIONS_DIR = REPO_ROOT / "extensions"


def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile the package's bytecode once, before any worker starts.

    The suite runs ``th-ext`` in hundreds of subprocesses. An editable install has no bytecode
    until something writes it (and ``PYTHONDONTWRITEBYTECODE`` keeps it so), so each of them
    would compile the package again, nearly doubling its start; an installed wheel never does.
    """
    if not hasattr(session.config, "workerinput"):  # the controller, or a run without xdist
        import compileall

        compileall.compile_dir(REPO_ROOT / "cli" / "th_ext", quiet=1)


def in_ci() -> bool:
    """True under CI, where a missing tool is a failure rather than a skip."""
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def extensions_dir() -> Path:
    return EXTENSIONS_DIR
