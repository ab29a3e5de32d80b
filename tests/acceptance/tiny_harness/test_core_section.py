"""The core A2A section of ``th-ext conform``'s reports, on the agent whose existing-task streams
skip the Task (the official Python SDK's default handler) and whose card response has an ETag
but no Cache-Control (the SDK's card route by default): every format lists ``A2A-3.1.2`` and
``A2A-8.6`` in a section of its own as warnings, which fail the run only with ``--strict``."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.support.tiny_harness_agent import start_tiny_harness_agent
from th_ext.cli import app

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def agent() -> Iterator[str]:
    with start_tiny_harness_agent(media=False) as url:
        yield url


def conform(url: str, *args: str) -> tuple[int, str]:
    outcome = CliRunner().invoke(
        app, ["conform", url, "--command", "status", *args], catch_exceptions=False
    )
    return outcome.exit_code, outcome.stdout


def test_text_lists_the_core_rule_apart_and_counts_it(agent: str) -> None:
    code, out = conform(agent)
    assert code == 0
    extension, core = out.split("\ncore A2A (rules of A2A itself, MUST or SHOULD, not of", 1)
    assert "A2A-3.1.2" not in extension and "A2A-8.6" not in extension
    lines = core.splitlines()
    assert lines[1].startswith("warn  A2A-3.1.2 MUST   A stream for a task begins")
    caching = next(i for i, line in enumerate(lines) if "A2A-8.6" in line)
    assert lines[caching].startswith("warn  A2A-8.6   SHOULD The card's HTTP response says")
    assert lines[caching + 1].strip() == (
        "the card response: card-cache-control-missing: the card response has no "
        "Cache-Control header: a "
        "client cannot tell how long it may keep the card"
    )
    assert ", 2 core A2A warnings;" in out


def test_json_has_the_core_list_and_its_summary(agent: str) -> None:
    code, out = conform(agent, "--format", "json")
    document = json.loads(out)
    assert code == 0 and document["passed"] is True
    assert [(r["id"], r["status"]) for r in document["core"]] == [
        ("A2A-3.1.2", "warn"),
        ("A2A-8.6", "warn"),
    ]
    assert document["core_summary"] == {"pass": 0, "fail": 0, "warn": 2, "skip": 0}
    assert "A2A-3.1.2" not in {r["id"] for r in document["requirements"]}


@pytest.mark.parametrize("strict", [False, True])
def test_junit_has_a_second_suite_that_fails_only_when_strict(agent: str, strict: bool) -> None:
    code, out = conform(agent, "--format", "junit", *(["--strict"] if strict else []))
    assert code == (1 if strict else 0)
    suites = {s.get("name"): s for s in ET.fromstring(out).iter("testsuite")}
    core = suites["th-ext.conform.core-a2a"]
    stream, caching = core.findall("testcase")
    assert stream.get("name", "").startswith("A2A-3.1.2: ")
    assert caching.get("name", "").startswith("A2A-8.6: ")
    assert (stream.find("failure") is not None) is strict
    assert (caching.find("failure") is not None) is strict
    assert core.get("failures") == ("2" if strict else "0")


def test_html_has_a_core_table(agent: str, tmp_path: Path) -> None:
    code, _ = conform(agent, "--format", "json", "--html", str(tmp_path / "report.html"))
    assert code == 0
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    core = page.split('<table id="core">', 1)[1].split("</table>", 1)[0]
    assert '<tr id="a2a-3.1.2" class="warn">' in core
    assert "A2A-3.1.2" not in page.split('<table id="requirements">', 1)[1].split("</table>")[0]
