"""One network policy for the card fetch and the live client: the same CA store (the system's,
so SSL_CERT_FILE applies to both) and no proxy from the environment in either."""

from __future__ import annotations

import json
import os
import ssl
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import trustme

from tests.acceptance.hostile.conftest import Origin, Result, card_for, origin_server

ANSWER = {"jsonrpc": "2.0", "id": 1, "result": {"message": {"role": "ROLE_AGENT", "parts": []}}}


@pytest.fixture(scope="module")
def authority() -> trustme.CA:
    return trustme.CA()


@pytest.fixture
def tls_origin(authority: trustme.CA) -> Iterator[Origin]:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert("127.0.0.1").configure_cert(context)
    with origin_server(context) as state:
        yield state


def _th_ext(*args: str, ca_file: Path | None) -> subprocess.CompletedProcess[str]:
    """The installed command in a fresh process, trusting ``ca_file`` on top of nothing else."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SSL_CERT")}
    env["NO_COLOR"] = "1"
    if ca_file is not None:
        env["SSL_CERT_FILE"] = str(ca_file)
    script = Path(sys.executable).parent / "th-ext"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "th_ext"]
    return subprocess.run(
        [*command, *args], env=env, capture_output=True, text=True, timeout=60, check=False
    )


def test_card_fetch_and_live_client_trust_the_same_store(
    tls_origin: Origin, authority: trustme.CA, tmp_path: Path
) -> None:
    ca_file = tmp_path / "ca.pem"
    authority.cert_pem.write_to_path(str(ca_file))
    tls_origin.serve_json("/a2a", ANSWER)
    url = tls_origin.serve_json("/card.json", card_for(tls_origin.base + "/a2a"))
    done = _th_ext("dispatch", url, "/model", "--live", "-f", "json", ca_file=ca_file)
    assert done.returncode in (0, 1), done.stderr
    methods = [method for method, _, _ in tls_origin.received]
    assert methods[0] == "GET"
    assert "POST" in methods


def test_an_untrusted_certificate_stops_the_card_fetch(tls_origin: Origin) -> None:
    url = tls_origin.serve_json("/card.json", card_for(tls_origin.base + "/a2a"))
    done = _th_ext("commands", url, ca_file=None)
    assert done.returncode == 2
    assert "certificate" in done.stderr.lower()
    assert tls_origin.received == []


def test_an_untrusted_certificate_stops_the_live_client(
    tls_origin: Origin, origin_a: Origin, authority: trustme.CA, tmp_path: Path
) -> None:
    """The card comes over plain HTTP; the interface is HTTPS with a certificate the system
    store does not hold: the live client refuses it as the card fetch would."""
    tls_origin.serve_json("/a2a", ANSWER)
    url = origin_a.serve_json("/card.json", card_for(tls_origin.base + "/a2a"))
    done = _th_ext("dispatch", url, "/model", "--live", "-f", "json", ca_file=None)
    assert done.returncode == 2  # nothing could be checked: the agent is unreachable
    assert tls_origin.received == []
    error = json.loads(done.stdout)["error"]
    assert error["code"] == "unreachable"
    assert "certificate" in error["message"].lower()
    ca_file = tmp_path / "ca.pem"
    authority.cert_pem.write_to_path(str(ca_file))
    trusted = _th_ext("dispatch", url, "/model", "--live", "-f", "json", ca_file=ca_file)
    assert [method for method, _, _ in tls_origin.received] == ["POST"]
    assert trusted.returncode in (0, 1)


@pytest.mark.parametrize("variable", ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "HTTPS_PROXY"])
def test_proxy_variables_are_ignored_by_both_clients(
    th_ext: Callable[..., Result],
    origin_a: Origin,
    origin_b: Origin,
    monkeypatch: pytest.MonkeyPatch,
    variable: str,
) -> None:
    monkeypatch.setenv(variable, origin_b.base)
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    origin_a.serve_json("/a2a", ANSWER)
    url = origin_a.serve_json("/card.json", card_for(origin_a.base + "/a2a"))
    result = th_ext("dispatch", url, "/model", "--live")
    assert result.exit_code in (0, 1), result.stderr
    assert [method for method, _, _ in origin_a.received][:2] == ["GET", "POST"]
    assert origin_b.received == []
