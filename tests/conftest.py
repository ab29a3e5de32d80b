"""Shared test settings: where the repository is, and how tests find its pieces."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

REPO_ROOT = Path(__file__).resolve().parent.parent
EXTENSIONS_DIR = REPO_ROOT / "extensions"


def in_ci() -> bool:
    """True under CI, where a missing tool is a failure rather than a skip."""
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


# The property tests' settings, in one place. A test states only how many examples it needs
# (the same under every profile); a profile says how time is judged. The suite runs on shared
# machines where another process may hold the CPU for a second, so no example has a deadline
# and slow input generation is not a failure: a property fails on a wrong answer, never on a
# busy machine. ``ci`` also derandomises (the same examples on every run, no example database
# written), so a red CI run is a finding that reproduces; ``dev`` keeps random search and the
# database, to find new failures and replay them. HYPOTHESIS_PROFILE picks one; CI gets ``ci``.
settings.register_profile(
    "ci",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
    database=None,
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if in_ci() else "dev"))


def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile the package's bytecode once, before any worker starts.

    The suite runs ``th-ext`` in hundreds of subprocesses. An editable install has no bytecode
    until something writes it (and ``PYTHONDONTWRITEBYTECODE`` keeps it so), so each of them
    would compile the package again, nearly doubling its start; an installed wheel never does.
    """
    if not hasattr(session.config, "workerinput"):  # the controller, or a run without xdist
        import compileall

        compileall.compile_dir(REPO_ROOT / "cli" / "th_ext", quiet=1)


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def extensions_dir() -> Path:
    return EXTENSIONS_DIR
