"""The commands agent on the official A2A JavaScript SDK (``tests/agents/js``), as a fixture.

It is a second, independent implementation of the commands extension, so th-ext is checked
against an agent it did not shape. The fixture installs the npm packages from the lock file when
they are missing or older than it, starts the agent on 127.0.0.1 (port 0; the agent prints its
base URL as the first line), waits until its card is served, and stops it when the session ends.
Without ``node`` and ``npm`` the tests that use it are skipped, except under CI, where they fail.
"""

from __future__ import annotations

import queue
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO

import httpx
import pytest

from tests.conftest import REPO_ROOT, in_ci

__all__ = ["JS_AGENT_DIR", "JsAgent", "ensure_packages", "js_agent", "start_js_agent"]

JS_AGENT_DIR = REPO_ROOT / "tests" / "agents" / "js"
_MANIFESTS = (JS_AGENT_DIR / "package.json", JS_AGENT_DIR / "package-lock.json")
_INSTALLED = JS_AGENT_DIR / "node_modules" / ".package-lock.json"
"""npm ci writes this copy of the lock file last, so its age tells whether node_modules is fresh."""
_START_TIMEOUT = 60.0


@dataclass(frozen=True, slots=True)
class JsAgent:
    """A running JS agent: its base URL (the card is at ``/.well-known/agent-card.json``)."""

    base_url: str
    process: subprocess.Popen[str]

    @property
    def card_url(self) -> str:
        return self.base_url + "/.well-known/agent-card.json"


def _missing_tools() -> list[str]:
    return [tool for tool in ("node", "npm") if shutil.which(tool) is None]


def ensure_packages() -> None:
    """Run ``npm ci`` when ``node_modules`` is missing or older than the package files."""
    newest = max(path.stat().st_mtime for path in _MANIFESTS)
    if _INSTALLED.is_file() and _INSTALLED.stat().st_mtime >= newest:
        return
    npm = shutil.which("npm")
    assert npm is not None
    outcome = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=JS_AGENT_DIR,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if outcome.returncode != 0:
        pytest.fail(f"npm ci in {JS_AGENT_DIR} failed:\n{outcome.stderr}", pytrace=False)
    _INSTALLED.touch()


def _first_line(stream: IO[str], timeout: float) -> str | None:
    """The first line of ``stream``, or None if none arrives within ``timeout`` seconds."""
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: lines.put(stream.readline()), daemon=True).start()
    try:
        return lines.get(timeout=timeout).strip() or None
    except queue.Empty:
        return None


def _stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    for stream in (process.stdout, process.stderr):
        if stream is not None:
            stream.close()


@contextmanager
def start_js_agent(metadata_on: str = "both") -> Iterator[JsAgent]:
    """Start the JS agent on 127.0.0.1 and stop it on exit; the packages must be installed.

    ``metadata_on`` is where its command replies carry the command metadata: ``both``,
    ``message`` or ``event``.
    """
    node = shutil.which("node")
    assert node is not None
    process = subprocess.Popen(
        [node, "agent.js", "--port", "0", "--metadata-on", metadata_on],
        cwd=JS_AGENT_DIR,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None and process.stderr is not None
        base_url = _first_line(process.stdout, _START_TIMEOUT)
        if base_url is None or not base_url.startswith("http://127.0.0.1:"):
            process.kill()
            pytest.fail(
                f"the JS agent did not start (first line {base_url!r}):\n{process.stderr.read()}",
                pytrace=False,
            )
        agent = JsAgent(base_url=base_url, process=process)
        _wait_for_card(agent)
        yield agent
    finally:
        _stop(process)


def _wait_for_card(agent: JsAgent) -> None:
    deadline = time.monotonic() + _START_TIMEOUT
    while True:
        try:
            if httpx.get(agent.card_url, timeout=5).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            pytest.fail(f"the JS agent never served {agent.card_url}", pytrace=False)
        time.sleep(0.1)


@pytest.fixture(scope="session")
def js_agent() -> Iterator[str]:
    """The JS agent's base URL (``http://127.0.0.1:<port>``), started once per session and
    stopped at its end; skipped without node/npm (failed under CI)."""
    missing = _missing_tools()
    if missing:
        reason = f"{' and '.join(missing)} not found: the JS SDK agent cannot run"
        if in_ci():
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    ensure_packages()
    with start_js_agent() as agent:
        yield agent.base_url
