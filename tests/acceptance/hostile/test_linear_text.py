"""Every text from a card or an agent is handled in linear time: a 150 kB argument hint of ``[``
or ``<``, an 80 kB name and a 120 kB interface URL full of URL-like text, and an event stream
of 4.9 MB of blank lines each end well inside a short ``--timeout`` (they used to take
seconds to minutes), with the same answers as before."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.acceptance.hostile.conftest import Origin, Result, card_for
from tests.support.raw_http import RawScript
from th_ext.commands._card import asks_for_argument, without_optional
from th_ext.net import redact
from th_ext.net._exchange import EventParser

NAME_SIZE = 80_000
URL_SIZE = 120_000
HINT_SIZE = 150_000
BLANK_LINES = 4_900_000


# --timeout 5 is the promise; the wall-clock bound is generous for a loaded machine, yet far
# below what the quadratic versions took (minutes: the CPU-bound work ignored the deadline).
WALL_SECONDS = 60


def _cli(*args: str) -> Result:
    command = [sys.executable, "-m", "th_ext", *args]
    process = subprocess.run(
        command, capture_output=True, text=True, timeout=WALL_SECONDS, check=False
    )
    return Result(process.returncode, process.stdout, process.stderr)


def _commands(card: dict[str, Any]) -> list[dict[str, Any]]:
    commands: list[dict[str, Any]] = card["capabilities"]["extensions"][0]["params"]["commands"]
    return commands


@pytest.mark.parametrize(
    "name",
    [
        "a" * NAME_SIZE + "@",
        "a:" * (NAME_SIZE // 2) + "@",
        "a-" * (NAME_SIZE // 2) + "@",  # a scheme-like run at every boundary: quadratic before
        "x://" + "b" * NAME_SIZE + "@host",
        "://" * (NAME_SIZE // 3) + "@",
    ],
)
def test_a_long_card_name_is_validated_within_the_timeout(name: str, origin_a: Origin) -> None:
    card = card_for(origin_a.base + "/rpc")
    card["name"] = name
    url = origin_a.serve_json("/card.json", card)
    result = _cli("validate", url, "--timeout", "5", "-f", "json")
    assert result.exit_code in (0, 1), result.stderr
    dry = _cli("dispatch", url, "/model", "--timeout", "5")
    assert dry.exit_code == 0, dry.stderr
    assert "SendStreamingMessage" in dry.stdout or "SendMessage" in dry.stdout


def test_a_long_interface_url_with_credentials_is_redacted_within_the_timeout(
    origin_a: Origin,
) -> None:
    interface = "http://user:secret-pw@127.0.0.1:9/" + "a" * URL_SIZE + "@x"
    url = origin_a.serve_json("/card.json", card_for(interface))
    result = _cli("validate", url, "--timeout", "5", "-f", "json")
    assert result.exit_code in (0, 1), result.stderr
    dry = _cli("dispatch", url, "/model", "--timeout", "5")
    assert dry.exit_code == 0, dry.stderr
    for output in (result.stdout, dry.stdout, dry.stderr):
        assert "secret-pw" not in output


def test_redaction_is_unchanged_on_ordinary_text() -> None:
    assert (
        redact("see ftp://u:p@h/x and https://a@b/c@d") == "see ftp://***@h/x and https://***@b/c@d"
    )
    assert (
        redact("https://h/a@b and mail me@example.org") == "https://h/a@b and mail me@example.org"
    )
    assert redact("a://b://c:d@e") == "a://b://***@e"


@pytest.mark.parametrize(
    ("hint", "asks"),
    [
        ("<focus>", True),
        ("[<model>]", False),
        ("[<a>] <b>", True),
        ("[<a>", True),  # a bracket never closed hides nothing
        ("", False),
        ("<" * HINT_SIZE, False),
        ("[" * HINT_SIZE, False),
        ("[" * HINT_SIZE + "<a>", True),
        ("<[" * (HINT_SIZE // 2) + "]>", True),  # "<" then "[...]" then ">"
    ],
)
def test_the_hint_rule_on_ordinary_and_hostile_hints(hint: str, asks: bool) -> None:
    assert asks_for_argument(hint) is asks
    assert without_optional("a[b]c[d") == "ac[d"


def test_conform_sends_its_first_message_despite_a_huge_hint(
    origin_a: Origin, tmp_path: Path
) -> None:
    card = card_for(origin_a.base + "/rpc")
    _commands(card)[0]["argument_hint"] = "<" * HINT_SIZE
    _commands(card)[1]["argument_hint"] = "[" * HINT_SIZE
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card), encoding="utf-8")
    process = _cli("conform", str(path), "--timeout", "5")
    assert process.exit_code in (1, 2), process.stderr
    assert any(method == "POST" for method, _, _ in origin_a.received), process.stderr


def test_a_stream_of_blank_lines_is_read_within_the_timeout(
    raw_server: Callable[[RawScript], str], tmp_path: Path
) -> None:
    event = b'data: {"jsonrpc": "2.0", "id": 1, "error": {"code": -32000, "message": "late"}}\n\n'
    # gzip: the stream arrives in one inflated piece, the hardest case for a line splitter
    body = gzip.compress(b"\n" * BLANK_LINES + b"\r\n" * 10 + event)
    head = (
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Encoding: gzip\r\n"
        + f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
    )
    base = raw_server(lambda request: head + body)
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card_for(base + "/rpc")), encoding="utf-8")
    result = _cli("dispatch", str(path), "/model", "--live", "--timeout", "5")
    output = result.stdout + result.stderr
    assert "timed out" not in output and "deadline" not in output, output
    assert result.exit_code == 1, output


@pytest.mark.parametrize("chunk", [1, 7, 65536, None])
def test_the_event_parser_finds_the_event_after_any_run_of_line_ends(chunk: int | None) -> None:
    body = b"\r\n\r" * 50_000 + b"\n\n: c\r\ndata: a\r\ndata:b\r\r" + b"\n" * 100_000 + b"data: z\n"
    size = chunk or len(body)
    parser = EventParser()
    events = [e for i in range(0, len(body), size) for e in parser.feed(body[i : i + size])]
    assert events == [b"a\nb"]
    assert parser.close() == b"z"
