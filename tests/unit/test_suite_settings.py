"""The suite's own settings: Hypothesis profiles made for shared machines, quiet test servers."""

from __future__ import annotations

import re
import socket
import threading
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.conftest import REPO_ROOT
from tests.support.loopback import POLL_SECONDS, LoopbackServer


@pytest.mark.parametrize("name", ["ci", "dev"])
def test_each_profile_judges_no_example_by_the_clock(name: str) -> None:
    profile = settings.get_profile(name)
    assert profile.deadline is None
    assert HealthCheck.too_slow in profile.suppress_health_check
    assert profile.max_examples == settings.get_profile("default").max_examples


def test_the_ci_profile_reproduces_its_examples() -> None:
    assert settings.get_profile("ci").derandomize
    assert settings.get_profile("ci").database is None


def test_no_test_sets_time_limits_of_its_own() -> None:
    """Deadlines and health checks live in the profiles only; a test sets its example count."""
    pattern = re.compile(r"\b(deadline|suppress_health_check|register_profile|load_profile)\s*=?")
    allowed = {REPO_ROOT / "tests" / "conftest.py", Path(__file__).resolve()}
    offenders = [
        str(path.relative_to(REPO_ROOT))
        for path in (REPO_ROOT / "tests").rglob("*.py")
        if path not in allowed and "node_modules" not in path.parts
        if "hypothesis" in (text := path.read_text(encoding="utf-8")) and pattern.search(text)
    ]
    assert offenders == []


class _HangsUpHandler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        raise ConnectionResetError(104, "Connection reset by peer")

    def log_message(self, format: str, *args: object) -> None:
        pass


class _BrokenHandler(_HangsUpHandler):
    def do_GET(self) -> None:
        raise ValueError("a real bug in a test server")


def _one_request(handler: type[BaseHTTPRequestHandler]) -> None:
    server = LoopbackServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, args=(POLL_SECONDS,), daemon=True)
    thread.start()
    try:
        with socket.create_connection(("127.0.0.1", server.server_address[1]), timeout=5) as conn:
            conn.sendall(b"GET / HTTP/1.0\r\n\r\n")
            conn.recv(1)
    finally:
        server.shutdown()
        server.server_close()


def test_a_client_hanging_up_prints_nothing(capfd: pytest.CaptureFixture[str]) -> None:
    _one_request(_HangsUpHandler)
    assert capfd.readouterr().err == ""


def test_any_other_handler_error_still_prints_its_traceback(
    capfd: pytest.CaptureFixture[str],
) -> None:
    _one_request(_BrokenHandler)
    err = capfd.readouterr().err
    assert "Traceback" in err
    assert "ValueError: a real bug in a test server" in err
