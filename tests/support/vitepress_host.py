"""The VitePress test host (``tests/hosts/vitepress``): its real build, made once and cached.

The host has the shape of tiny-harness's docs: a repository whose ``docs/`` folder is a
VitePress 1.6 site (base ``/tiny-harness/``, clean URLs, local search) built into
``docs/.vitepress/dist`` by a ``docs.yml`` workflow that runs with ``working-directory: docs``.
VitePress comes from npm, installed from the host's lock file by ``make vitepress-host``.

A build takes tens of seconds, so its ``dist`` is kept under ``build/test-hosts/``, named by
the sha256 of the lock file and every source file of the host: a run that finds it reuses it,
a change to the host or its packages builds it again. Tests copy it before writing into it.
Without ``npm`` the tests that need it are skipped, except under CI, where they fail.
"""

from __future__ import annotations

import fcntl
import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT, in_ci

__all__ = [
    "HOST_DIR",
    "HOST_DOCS",
    "HOST_WORKFLOW",
    "built_host_dist",
    "copy_host_dist",
    "host_sources_key",
]

HOST_DIR = REPO_ROOT / "tests" / "hosts" / "vitepress"
HOST_DOCS = HOST_DIR / "docs"
HOST_WORKFLOW = HOST_DIR / ".github" / "workflows" / "docs.yml"
_CACHE = REPO_ROOT / "build" / "test-hosts"
_INSTALLED = HOST_DOCS / "node_modules" / ".package-lock.json"
_NOT_SOURCES = ("node_modules", ".vitepress/dist", ".vitepress/cache")


def _sources() -> list[Path]:
    return sorted(
        path
        for path in HOST_DOCS.rglob("*")
        if path.is_file()
        and not any(
            path.relative_to(HOST_DOCS).as_posix().startswith(part) for part in _NOT_SOURCES
        )
    )


def host_sources_key() -> str:
    """The sha256 of the lock file and every source file of the host, with their paths."""
    digest = hashlib.sha256()
    for path in _sources():
        digest.update(path.relative_to(HOST_DOCS).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _unavailable(reason: str) -> None:
    if in_ci():
        pytest.fail(f"{reason}; under CI=true the VitePress host tests must run", pytrace=False)
    pytest.skip(reason)


def _ensure_packages() -> None:
    """``npm ci`` when ``node_modules`` is missing or older than the lock file."""
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        _unavailable("node and npm are needed to build the VitePress test host")
        return
    lock = HOST_DOCS / "package-lock.json"
    if _INSTALLED.is_file() and _INSTALLED.stat().st_mtime >= lock.stat().st_mtime:
        return
    outcome = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=HOST_DOCS, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    if outcome.returncode != 0:
        pytest.fail(f"npm ci in {HOST_DOCS} failed:\n{outcome.stderr}", pytrace=False)
    _INSTALLED.touch()


def built_host_dist() -> Path:
    """The host's ``dist`` as ``npm run docs:build`` makes it, built at most once per source
    state (shared by every worker and every later run). Never write into it: copy it."""
    key = host_sources_key()[:20]
    folder = _CACHE / f"vitepress-{key}"
    done = folder / "dist" / "index.html"
    _CACHE.mkdir(parents=True, exist_ok=True)
    with (_CACHE / "vitepress.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if done.is_file():
            return folder / "dist"
        _ensure_packages()
        shutil.rmtree(folder, ignore_errors=True)
        outcome = subprocess.run(
            ["npm", "run", "docs:build", "--", "--outDir", str(folder / "dist")],
            cwd=HOST_DOCS, capture_output=True, text=True, timeout=600, check=False,
        )  # fmt: skip
        if outcome.returncode != 0 or not done.is_file():
            shutil.rmtree(folder, ignore_errors=True)
            pytest.fail(
                f"the VitePress host's build failed:\n{outcome.stdout}{outcome.stderr}",
                pytrace=False,
            )
        for stale in _CACHE.glob("vitepress-*"):
            if stale != folder:
                shutil.rmtree(stale, ignore_errors=True)
    return folder / "dist"


def copy_host_dist(destination: Path) -> Path:
    """A fresh copy of the host's built ``dist`` at ``destination``, to build into."""
    shutil.copytree(built_host_dist(), destination)
    return destination
