"""An agent that cannot be reached is "nothing could be checked": one line and exit 2 (or a
document that says so), never a requirement marked failed; ``dispatch --live`` alike."""

from __future__ import annotations

import json
import socket
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from th_ext.cli import app
from th_ext.conform import run_conform
from th_ext.demo import DemoServer, DemoVariant

pytestmark = pytest.mark.slow

Agent = Callable[[DemoVariant], DemoServer]


def run(*args: str) -> tuple[int, str, str]:
    outcome = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return outcome.exit_code, outcome.stdout, outcome.stderr


@pytest.fixture(scope="module")
def closed_port() -> int:
    """A port nothing listens on (bound, then closed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts connections and never answers."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        yield listener.getsockname()[1]


def card_with(agent: DemoServer, tmp_path: Path, *urls: str) -> str:
    """The demo's card with its interfaces moved to ``urls`` (one each, in card order)."""
    document: dict[str, Any] = httpx.get(agent.card_url, timeout=10).json()
    for interface, url in zip(document["supportedInterfaces"], urls, strict=False):
        interface["url"] = url
    path = tmp_path / "card.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def unreachable_urls(kind: str, agent: DemoServer, closed: int, silent: int) -> list[str]:
    port = agent.base_url.rsplit(":", 1)[1]
    return {
        "refused": [f"http://127.0.0.1:{closed}/a2a", f"http://127.0.0.1:{closed}/rest"],
        "dns": ["http://th-ext-conform.invalid/a2a", "http://th-ext-conform.invalid/rest"],
        "tls": [f"https://127.0.0.1:{port}/a2a", f"https://127.0.0.1:{port}/rest"],
        "timeout": [f"http://127.0.0.1:{silent}/a2a", f"http://127.0.0.1:{silent}/rest"],
        # URLs of the right form that no request can be sent to
        "bracket": ["http://[::1/a2a", "http://[::1/rest"],
        "port": ["http://127.0.0.1:99999/a2a", "http://127.0.0.1:65536/rest"],
        "long": [LONG + "/a2a", LONG + "/rest"],
        "control": ["http://127.0.0.1:9/a\x7fb/a2a", "http://127.0.0.1:9/a\x7fb/rest"],
    }[kind]


KINDS = ["refused", "dns", "tls", "timeout", "bracket", "port", "long", "control"]
#: A URL longer than any a request can go to (httpx refuses it: "URL too long").
LONG = "http://127.0.0.1:9/" + "a" * 70_000
#: What the one line says for each kind of URL no request can be sent to.
UNSENDABLE = {
    "bracket": "http://[::1/a2a: not a URL (Invalid IPv6 URL)",
    "port": "http://127.0.0.1:99999/a2a: the port is not a number from 0 to 65535",
    "long": f"{LONG[:119]}…: the URL is longer than 65,536 characters (70,023)",
    "control": (
        "http://127.0.0.1:9/a\\x7fb/a2a: not a URL (Invalid non-printable ASCII character in "
        "URL, '\\x7f' at position 20.)"
    ),
}


@pytest.mark.parametrize("kind", KINDS)
def test_conform_says_so_in_one_line_and_exits_2(
    conform_agent: Agent, tmp_path: Path, closed_port: int, silent_port: int, kind: str
) -> None:
    agent = conform_agent(DemoVariant.CORRECT)
    card = card_with(agent, tmp_path, *unreachable_urls(kind, agent, closed_port, silent_port))
    code, out, err = run("conform", card, "--timeout", "1")
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("th-ext: error: the agent cannot be reached at ")
    assert "CMD-" not in err
    if kind in UNSENDABLE:
        assert err == f"th-ext: error: the agent cannot be reached at {UNSENDABLE[kind]}\n"


@pytest.mark.parametrize("kind", sorted(UNSENDABLE))
def test_dispatch_live_to_a_url_that_cannot_be_sent_says_why(
    conform_agent: Agent, tmp_path: Path, kind: str
) -> None:
    agent = conform_agent(DemoVariant.CORRECT)
    card = card_with(agent, tmp_path, *unreachable_urls(kind, agent, 0, 0))
    code, out, err = run("dispatch", card, "/help", "--live")
    assert (code, out) == (2, "")
    assert err == f"th-ext: error: the agent cannot be reached at {UNSENDABLE[kind]}\n"


@pytest.mark.parametrize("output_format", ["json", "junit", "github"])
def test_every_machine_format_carries_the_error_and_no_failed_requirement(
    conform_agent: Agent, tmp_path: Path, closed_port: int, output_format: str
) -> None:
    agent = conform_agent(DemoVariant.CORRECT)
    urls = unreachable_urls("refused", agent, closed_port, 0)
    code, out, _ = run("conform", card_with(agent, tmp_path, *urls), "-f", output_format)
    assert code == 2
    assert "CMD-" not in out
    if output_format == "json":
        assert json.loads(out)["error"]["code"] == "unreachable"
    elif output_format == "junit":
        suite = ET.fromstring(out)
        assert suite.get("failures") == "0"
        assert suite.get("errors") == "1"
        assert "cannot be reached" in out
    else:
        assert out.startswith("::error title=th-ext conform::the agent cannot be reached")
        assert out.count("\n") == 1


def test_dispatch_live_says_so_too(conform_agent: Agent, tmp_path: Path, closed_port: int) -> None:
    agent = conform_agent(DemoVariant.CORRECT)
    card = card_with(agent, tmp_path, *unreachable_urls("refused", agent, closed_port, 0))
    code, out, err = run("dispatch", card, "/help", "--live")
    assert (code, out) == (2, "")
    assert err.startswith("th-ext: error: the agent cannot be reached at ")
    code, out, _ = run("dispatch", card, "/help", "--live", "-f", "json")
    assert code == 2
    assert json.loads(out)["error"]["code"] == "unreachable"
    code, _, err = run("dispatch", card, "/help", "--live", "--task-id", "t-1")
    assert code == 2
    assert "cannot be reached" in err


def test_one_unreachable_interface_is_shown_and_the_others_are_checked(
    conform_agent: Agent, tmp_path: Path, closed_port: int
) -> None:
    agent = conform_agent(DemoVariant.CORRECT)
    card = card_with(agent, tmp_path, f"http://127.0.0.1:{closed_port}/a2a")
    report = run_conform(card)
    rows = {(i.binding, i.status) for i in report.agent.interfaces}
    assert rows == {("JSONRPC", "unreachable"), ("HTTP+JSON", "checked")}
    assert report.agent.bindings_checked == ["HTTP+JSON"]
    assert report.passed
    assert not any(c.binding == "JSONRPC" for r in report.requirements for c in r.checks)
