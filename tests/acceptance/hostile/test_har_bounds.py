"""A HAR of a hostile agent stays within the run's caps and is valid JSON: huge headers, an
endless stream and bytes that are not UTF-8, from a raw server on 127.0.0.1."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import jsonschema
from haralyzer import HarParser

from tests.acceptance.hostile.conftest import Result, card_for
from tests.support.har_schema import HAR_1_2
from tests.support.raw_http import RawScript
from th_ext.net import HAR_MAX_HEADER_VALUE, HarRecorder

MAX_BYTES = 40_000
HUGE = "h" * 90_000  # under httpcore's limit on a response head, far over the HAR's
NOT_UTF8 = b"\xff\xfe\x80"
COMMENT = b": " + NOT_UTF8 + b"\n"


def _event(rpc_id: str) -> bytes:
    update = {
        "statusUpdate": {
            "taskId": "t1",
            "contextId": "c1",
            "status": {"state": "TASK_STATE_WORKING"},
            "metadata": {"pad": "x" * 900},
        }
    }
    return (
        b"data: "
        + f'{{"jsonrpc": "2.0", "id": {rpc_id}, "result": '.encode()
        + (json.dumps(update).encode() + b"}\n\n")
    )


def hostile(request: bytes) -> bytes | list[bytes | float]:
    head, _, body = request.partition(b"\r\n\r\n")
    rpc_id = json.dumps(json.loads(body or b"{}").get("id"))
    common = b"X-Huge: " + HUGE.encode() + b"\r\nX-Bytes: " + NOT_UTF8 + b"\r\n"
    if b"text/event-stream" in head:
        start = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n" + common + b"\r\n"
        steps: list[bytes | float] = [start, COMMENT]
        for _ in range(5000):  # endless, as far as a capped run can tell
            steps += [_event(rpc_id), 0.0005]
        return steps
    payload = b'{"jsonrpc": "2.0", "id": ' + rpc_id.encode() + b', "result": "' + NOT_UTF8 + b'"}'
    return (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        + common
        + f"Content-Length: {len(payload)}\r\nConnection: close\r\n\r\n".encode()
        + payload
    )


def test_a_hostile_agent_gives_a_har_within_the_caps_that_is_valid_json(
    raw_server: Callable[[RawScript], str], th_ext: Callable[..., Result], tmp_path: Path
) -> None:
    base = raw_server(hostile)
    card = tmp_path / "card.json"
    card.write_text(json.dumps(card_for(base + "/rpc")), encoding="utf-8")
    har = tmp_path / "run.har"
    result = th_ext(
        "conform",
        str(card),
        "--command",
        "model",
        "--max-commands",
        "1",
        "--max-bytes",
        str(MAX_BYTES),
        "--timeout",
        "5",
        "--har",
        str(har),
    )
    assert result.exit_code in (1, 2), result.stderr
    text = har.read_text(encoding="ascii")  # ASCII JSON: whatever bytes the agent sent
    document: dict[str, Any] = json.loads(text)
    jsonschema.validate(document, HAR_1_2)
    (page,) = HarParser(document).pages
    entries = document["log"]["entries"]
    assert len(page.entries) == len(entries) > 0

    streams = 0
    for entry in entries:
        response = entry["response"]
        assert response["status"] == 200
        values = {h["name"]: h["value"] for h in response["headers"]}
        assert len(values["X-Huge"]) == HAR_MAX_HEADER_VALUE + 1  # cut, and marked with "…"
        assert values["X-Bytes"] == NOT_UTF8.decode("latin-1")
        content = response["content"]
        assert content["encoding"] == "base64"  # not UTF-8: kept byte for byte
        body = base64.b64decode(content["text"])
        assert len(body) <= MAX_BYTES
        assert content["size"] == len(body)
        if content["mimeType"] == "text/event-stream":
            streams += 1
            assert body.startswith(COMMENT + b'data: {"jsonrpc": "2.0"')
            assert "larger than the cap" in entry["comment"]
        else:
            assert NOT_UTF8 in body
    assert streams > 0
    assert len(text) < len(entries) * (MAX_BYTES * 4 // 3 + 64 * 1024)


def test_bodies_past_the_har_total_are_left_out_and_say_so() -> None:
    recorder = HarRecorder(max_total_bytes=10)
    for _ in range(2):
        entry = recorder.start("POST", "http://127.0.0.1:1/rpc", {}, b"{}", "application/json")
        request = httpx.Request("POST", "http://127.0.0.1:1/rpc")
        entry.response(httpx.Response(200, headers={"Content-Type": "text/plain"}, request=request))
        entry.body_read(b"123456")
        entry.end()
    first, second = recorder.document()["log"]["entries"]
    assert first["response"]["content"]["text"] == "123456"
    assert second["response"]["content"]["text"] == ""
    assert second["response"]["content"]["size"] == 6
    assert "left out" in second["response"]["content"]["comment"]
    jsonschema.validate(recorder.document(), HAR_1_2)
