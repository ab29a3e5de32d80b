"""conform's "other extensions" section against the agent shaped like tiny-harness 0.9.

Its answers carry the task extension's data in ``Task.metadata`` and the status extension's
sub-state in ``Task.metadata`` and in status updates. Given the stand-in for tiny-harness's
schema folder (``tests/support/host_schemas.py``), conform validates every such payload it
sees; a schema the payloads break makes a warning that names the place and the pointer; with
no schema, each extension is skipped with a note saying how to give it.
"""

from __future__ import annotations

import json
import os
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest

from tests.support.host_schemas import URIS, make_host_schemas, status_schema
from tests.support.tiny_harness_agent import STATUS_KEY, start_tiny_harness_agent
from th_ext.catalog._family import schemas_from_folder
from th_ext.conform import ConformOptions, ConformReport, run_conform
from th_ext.report._github import conform_github as render_conform_github
from th_ext.report._html import conform_html as render_html
from th_ext.report._junit import run_junit

pytestmark = pytest.mark.slow


@pytest.fixture
def schemas(tmp_path: Path, extensions_dir: Path) -> Path:
    commands = (extensions_dir / "commands/v1/schema.json").read_bytes()
    return make_host_schemas(tmp_path / "docs/a2a/ext", commands)


def _run(folder: Path | None, *, media: bool = False) -> ConformReport:
    family = tuple(schemas_from_folder(folder)) if folder is not None else ()
    with start_tiny_harness_agent(media=media) as url:
        return run_conform(url, ConformOptions(family=family))


def test_its_task_and_status_payloads_are_checked(schemas: Path) -> None:
    report = _run(schemas, media=True)
    by_key = {result.key: result for result in report.other}
    assert list(by_key) == ["task/v1", "channel/v1", "status/v1", "media/v1"]
    for key in ("task/v1", "status/v1"):
        assert by_key[key].status == "pass", by_key[key]
        assert by_key[key].checked > 0
        assert by_key[key].problems == []
    assert by_key["channel/v1"].status == "skip"
    assert "data parts" in by_key["channel/v1"].reason
    assert by_key["media/v1"].status == "skip"
    assert report.to_dict()["other"][2]["uri"] == URIS["status"]


def test_a_payload_the_schema_refuses_is_a_warning_naming_its_place(schemas: Path) -> None:
    strict_status = status_schema()
    strict_status["properties"]["sub_state"]["enum"] = ["awaiting-answer"]
    (schemas / "status.json").write_text(json.dumps(strict_status), encoding="utf-8")
    report = _run(schemas)
    status = next(result for result in report.other if result.key == "status/v1")
    assert status.status == "warn"
    assert status.problems
    places = {"TaskStatusUpdateEvent.metadata", "Task.metadata"}
    for problem in status.problems:
        assert any(f'{place}["{STATUS_KEY}"]/sub_state: ' in problem for place in places)
        assert "'awaiting-next-message' is not one of ['awaiting-answer']" in problem
    assert report.passed, "a warning of the section fails the run only with --strict"
    assert "::warning title=status/v1::" in render_conform_github(report)
    page = render_html(report)
    row = page[page.index('<tr id="other-status-v1"') :]
    row = row[: row.index("</tr>")]
    assert 'class="warn"' in row and "awaiting-answer" in row
    assert '<tr id="other-task-v1" class="pass">' in page
    for strict, element in ((False, "system-out"), (True, "failure")):
        root = ET.fromstring(run_junit("conform", [replace(report, strict=strict)]))
        suite = root.find("testsuite[@name='th-ext.conform.other-extensions']")
        assert suite is not None
        case = suite.find("testcase[@name='status/v1']")
        assert case is not None and case.find(element) is not None, (strict, element)
        assert suite.get("failures") == ("1" if strict else "0")


def test_without_a_schema_each_is_skipped_with_how_to_give_it() -> None:
    report = _run(None)
    by_key = {result.key: result for result in report.other}
    for key in ("task/v1", "status/v1"):
        assert by_key[key].status == "skip"
        assert by_key[key].checked == 0
        assert "--schemas DIR" in by_key[key].reason
        assert "--fetch-schemas" in by_key[key].reason


def test_the_command_line_reports_the_section(schemas: Path) -> None:
    from tests.acceptance.validate.conftest import th_ext_command

    with start_tiny_harness_agent(media=False) as url:
        run = subprocess.run(
            [*th_ext_command(), "conform", url, "--schemas", str(schemas)],
            capture_output=True, text=True, timeout=120, check=False,
            env={**os.environ, "NO_COLOR": "1"},
        )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("other extensions"))
    section = lines[start + 1 : start + 4]
    assert section[0].startswith("  pass  task/v1: ") and "payloads checked" in section[0]
    assert section[1].startswith("  skip  channel/v1: its schema applies to data parts")
    assert section[2].startswith("  pass  status/v1: ")
