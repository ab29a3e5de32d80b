"""Every byte th-ext prints passes one sanitiser: hostile servers, cards and file names.

The servers answer with terminal controls in the places a client echoes: the reason phrase,
a malformed status line, an HTTP/0.9 body, a redirect's Location, the card's own strings.
Whatever the command and the format, standard output and standard error carry no C0 or C1
control but newline and tab, no DEL, no bidirectional control, no line separator.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.acceptance.hostile.conftest import Origin, Result, card_for
from tests.support.raw_http import RawScript

FORBIDDEN = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
    r"\u2028\u2029\ud800-\udfff]"
)
OSC_52 = b"\x1b]52;c;cHduZWQ=\x07"
ANSWERS: dict[str, bytes] = {
    "reason-osc52": b"HTTP/1.1 500 " + OSC_52 + b"\r\nContent-Length: 0\r\n\r\n",
    "reason-title-csi8-del": b"HTTP/1.1 503 \x1b]0;pwned\x07\x9b2J\x7f\xe2\x80\xae\r\n"
    b"Content-Length: 0\r\n\r\n",
    "bad-status-line": b"HTTP/1.1 2\x1b[2J00 \x1b]0;x\x07OK\r\n\r\n",
    "http-0.9": b"\x1b]0;pwned\x07<html>\x1b[2J" + OSC_52,
    "location": b"HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:9/\x1b]52;c;eA==\x07"
    b"\xe2\x80\xae\xe2\x80\xa8x\r\nContent-Length: 0\r\n\r\n",
}
RUNS = [("validate", fmt) for fmt in ("text", "json", "junit", "github")] + [
    ("commands", "text"),
    ("commands", "json"),
    ("dispatch", "text"),
    ("dispatch", "json"),
]
RUNS += [("conform", fmt) for fmt in ("text", "json", "junit", "github")]
RUNS += [("schema-url", "text"), ("schema-url", "json")]


def assert_clean(result: Result) -> None:
    for name, text in (("stdout", result.stdout), ("stderr", result.stderr)):
        found = FORBIDDEN.search(text)
        assert found is None, f"{name} carries U+{ord(found.group()):04X}: {text[:300]!r}"


def _args(command: str, url: str, output: str, tmp_path: Path) -> list[str]:
    if command == "schema-url":
        card = tmp_path / "card.json"
        card.write_text(json.dumps(card_for("http://127.0.0.1:9/a2a")), encoding="utf-8")
        return ["validate", str(card), "--schema", url, "-f", output]
    args = [command, url, "-f", output, "--timeout", "3"]
    if command == "dispatch":
        args.insert(2, "/model")
    return args


@pytest.mark.parametrize("answer", sorted(ANSWERS))
@pytest.mark.parametrize(("command", "output"), RUNS)
def test_server_bytes_are_sanitised(  # noqa: PLR0917 (pytest fixtures and parameters)
    th_ext: Callable[..., Result],
    raw_server: Callable[[RawScript], str],
    tmp_path: Path,
    answer: str,
    command: str,
    output: str,
) -> None:
    url = raw_server(lambda request: ANSWERS[answer]) + "/card.json"
    result = th_ext(*_args(command, url, output, tmp_path))
    assert result.exit_code == 2, result.stdout + result.stderr
    assert_clean(result)
    if output == "text":
        assert result.stdout == ""
        assert result.stderr.count("\n") == 1
        assert result.stderr.startswith("th-ext: error: ")
    elif output == "json":
        json.loads(result.stdout)


HOSTILE_TEXT = "\x1b]52;c;cHduZWQ=\x07\x1b[2J\u202eevil\u2028\x9b31m\x7f\ud800"


def _hostile_card(origin: Origin) -> dict[str, Any]:
    card = card_for(origin.base + "/a2a")
    card["name"] = HOSTILE_TEXT
    params = card["capabilities"]["extensions"][0]["params"]
    params["commands"][0]["description"] = HOSTILE_TEXT
    params["commands"][0]["argumentHint"] = HOSTILE_TEXT
    params["commands"].append({"name": HOSTILE_TEXT, "description": HOSTILE_TEXT})
    return card


@pytest.mark.parametrize(
    ("command", "output"),
    [(c, f) for c, f in RUNS if c in ("validate", "commands", "dispatch")],
)
def test_card_strings_are_sanitised(
    th_ext: Callable[..., Result], origin_a: Origin, command: str, output: str
) -> None:
    # json.dumps keeps the lone surrogate as an escape, as a hostile server would send it
    url = origin_a.serve_json("/card.json", _hostile_card(origin_a))
    args = [command, url, "-f", output]
    if command == "dispatch":
        args.insert(2, "/model")
    result = th_ext(*args)
    assert result.exit_code in (0, 1), result.stdout + result.stderr
    assert_clean(result)
    if output == "json":
        json.loads(result.stdout)


@pytest.mark.parametrize("command", ["validate", "commands", "dispatch", "conform"])
def test_file_names_are_sanitised(
    th_ext: Callable[..., Result], tmp_path: Path, command: str
) -> None:
    name = str(tmp_path / "card\x1b]0;pwned\x07\u202enosj.json")
    args = [command, name] + (["/model"] if command == "dispatch" else [])
    result = th_ext(*args)
    assert result.exit_code == 2
    assert_clean(result)
    assert "card\\x1b]0;pwned\\x07\\u202enosj.json: no such file" in result.stderr


def test_a_hostile_file_that_exists_is_named_safely(
    th_ext: Callable[..., Result], tmp_path: Path
) -> None:
    path = tmp_path / "card\x1b[2J\u202e.json"
    path.write_text(json.dumps(card_for("http://127.0.0.1:9/a2a")), encoding="utf-8")
    for output in ("text", "json", "junit", "github"):
        result = th_ext("validate", str(path), "-f", output)
        assert result.exit_code == 0, result.stdout
        assert_clean(result)


def test_the_installed_script_writes_no_raw_control_bytes(
    raw_server: Callable[[RawScript], str],
) -> None:
    """The same through the real ``th-ext`` script, its real stdout and stderr as bytes."""
    script = Path(sys.executable).with_name("th-ext")
    url = raw_server(lambda request: ANSWERS["reason-osc52"]) + "/card.json"
    for args in (["commands", url], ["validate", url, "-f", "json"]):
        run = subprocess.run([script, *args], capture_output=True, timeout=60, check=False)
        assert run.returncode == 2
        for stream in (run.stdout, run.stderr):
            assert not re.search(rb"[\x00-\x08\x0b-\x1f\x7f]", stream), stream
            assert FORBIDDEN.search(stream.decode("utf-8")) is None, stream


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "card.json", "--format", HOSTILE_TEXT],
        [f"vali{HOSTILE_TEXT}date"],
        ["dispatch", "card.json", "/x", "--timeout", HOSTILE_TEXT],
    ],
    ids=["bad-choice", "bad-command", "bad-number"],
)
def test_usage_errors_echo_arguments_safely(th_ext: Callable[..., Result], args: list[str]) -> None:
    result = th_ext(*args)
    assert result.exit_code == 2
    assert_clean(result)
    assert "\\x1b]52;c;cHduZWQ=\\x07" in result.stderr


def _agent_answer(extra: str) -> bytes:
    """A JSON-RPC answer whose task's reply message carries ``extra`` in its metadata."""
    return (
        '{"jsonrpc": "2.0", "id": 1, "result": {"task": {"id": "t", "contextId": "c", '
        '"status": {"state": "TASK_STATE_COMPLETED", "message": {"role": "ROLE_AGENT", '
        '"messageId": "m", "parts": [{"text": "\\u001b]52;c;eA==\\u0007 \\ud800 \\u202e"}], '
        f'"metadata": {{"x": {extra}}}}}}}}}}}}}'
    ).encode()


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ("1e400", "Infinity"),
        ("-1e400", "-Infinity"),
        ("[" * 600 + "1" + "]" * 600, None),
    ],
    ids=["huge-number", "huge-negative", "600-deep"],
)
@pytest.mark.parametrize("output", ["json", "text"])
def test_whatever_the_agent_answers_the_output_is_strict(
    th_ext: Callable[..., Result],
    origin_a: Origin,
    extra: str,
    expected: str | None,
    output: str,
) -> None:
    from tests.acceptance.hostile.conftest import Reply

    url = origin_a.serve_json("/card.json", card_for(origin_a.base + "/a2a"))
    origin_a.serve("/a2a", Reply(body=_agent_answer(extra)))
    result = th_ext("dispatch", url, "/model fast", "--live", "-f", output)
    assert result.exit_code == 1, result.stdout + result.stderr  # the answer is no command reply
    assert_clean(result)
    if output == "json":
        document = json.loads(result.stdout)
        assert result.stdout.isascii()
        received = json.dumps(document["live"]["received"])
        assert "\\ud800" in received
        if expected is not None:
            assert f'"x": "{expected}"' in received
        else:
            assert received.count("[") >= 600
