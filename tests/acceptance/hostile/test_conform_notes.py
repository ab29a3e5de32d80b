"""Conform's notes and reports show no credentials, and an HTTP+JSON tenant or task id is one
opaque path segment: a real demo agent behind URLs with ``user:password@``, and a recording
server that answers with a task id of ``..``."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.acceptance.hostile.conftest import Origin, Result
from th_ext.conform._wire import path_segment
from th_ext.demo import DemoServer, DemoVariant

SECRET = "pw-never-shown"


@pytest.fixture(scope="module")
def demo() -> Iterator[DemoServer]:
    with DemoServer(DemoVariant.CORRECT) as server:
        yield server


def _card_with_credentials(demo: DemoServer) -> dict[str, Any]:
    card: dict[str, Any] = httpx.get(demo.card_url, timeout=10).json()
    port = demo.base_url.rsplit(":", 1)[1]
    for interface in card["supportedInterfaces"]:
        interface["url"] = interface["url"].replace("://", f"://user:{SECRET}@")
    card["supportedInterfaces"] += [
        {"url": f"grpc://user:{SECRET}@127.0.0.1:{port}", "protocolBinding": "GRPC"},
        {"url": f"ftp://user:{SECRET}@127.0.0.1/x", "protocolBinding": "JSONRPC"},
    ]
    return card


@pytest.mark.parametrize("output", ["text", "json", "junit", "github", "html"])
def test_no_format_shows_the_password_of_any_interface(
    output: str, demo: DemoServer, th_ext: Callable[..., Result], tmp_path: Path
) -> None:
    path = tmp_path / "card.json"
    path.write_text(json.dumps(_card_with_credentials(demo)), encoding="utf-8")
    args = ["conform", str(path), "--timeout", "20"]
    report = tmp_path / "report.html"
    args += ["--html", str(report)] if output == "html" else ["--format", output]
    result = th_ext(*args)
    shown = result.stdout + result.stderr + (report.read_text("utf-8") if report.exists() else "")
    assert result.exit_code in (0, 1), shown
    assert SECRET not in shown
    if output == "junit":  # the JUnit report carries checks, not notes
        return
    assert "grpc://***@127.0.0.1" in shown  # the note on the interface not checked
    assert "ftp://***@127.0.0.1/x" in shown
    if output != "github":  # annotations name failures and notes only
        assert "http://***@127.0.0.1" in shown  # the checked ones


@pytest.mark.parametrize(
    ("value", "segment"),
    [("..", "%2E%2E"), (".", "%2E"), ("a/b", "a%2Fb"), ("t.1", "t%2E1"), ("x?y#z", "x%3Fy%23z")],
)
def test_a_path_segment_is_opaque(value: str, segment: str) -> None:
    assert path_segment(value) == segment


def _task(task_id: str) -> dict[str, Any]:
    return {
        "task": {
            "id": task_id,
            "contextId": "c",
            "status": {"state": "TASK_STATE_COMPLETED"},
        }
    }


def test_a_dot_tenant_and_task_id_stay_inside_the_interface(
    origin_a: Origin, th_ext: Callable[..., Result], tmp_path: Path
) -> None:
    inner = "/rest/inner/%2E%2E"
    origin_a.serve_json(f"{inner}/message:send", _task(".."))
    origin_a.serve_json(f"{inner}/tasks/%2E%2E", _task("..")["task"])
    card = json.loads(
        (Path(__file__).parents[3] / "extensions/commands/v1/examples/card.json").read_bytes()
    )
    card["capabilities"]["streaming"] = False
    card["supportedInterfaces"] = [
        {
            "url": origin_a.base + "/rest/inner",
            "protocolBinding": "HTTP+JSON",
            "protocolVersion": "1.0",
            "tenant": "..",
        }
    ]
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card), encoding="utf-8")
    result = th_ext("conform", str(path), "--timeout", "5", "--format", "json")
    assert result.exit_code in (1, 2), result.stderr
    paths = [received for _, received, _ in origin_a.received]
    assert paths, result.stderr
    assert all(p.startswith(inner + "/") for p in paths), paths
    assert f"{inner}/tasks/%2E%2E" in paths, "the task id '..' is one segment too"
