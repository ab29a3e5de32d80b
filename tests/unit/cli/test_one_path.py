"""The parts one path rests on: the one bridge to async code, the progress line that shows only
what it knows, and the JUnit document of a run holding every report and error document."""

from __future__ import annotations

import asyncio
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import th_ext
from th_ext._exceptions import SourceUnreadableError
from th_ext.batch import run_sync
from th_ext.cli._terminal import RecentRate, progress_line
from th_ext.report import error_record, render
from th_ext.validate import report_for_source_error, validate_bytes

PACKAGE = Path(th_ext.__file__).parent


def test_the_package_has_one_bridge_from_sync_to_async() -> None:
    calls = [
        str(path.relative_to(PACKAGE))
        for path in sorted(PACKAGE.rglob("*.py"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if re.search(r"\b(asyncio|anyio)\.run\(", line)
    ]
    assert calls == ["_sync.py"]  # run_sync, whether on this thread or on a worker's


def test_run_sync_runs_from_plain_code_and_from_a_running_loop() -> None:
    async def answer() -> int:
        await asyncio.sleep(0)
        return 42

    async def inside_a_loop() -> int:
        return run_sync(answer)  # a synchronous helper called from async code

    assert run_sync(answer) == 42
    assert asyncio.run(inside_a_loop()) == 42


def test_the_first_rate_waits_for_a_second_of_samples() -> None:
    rate = RecentRate(window=5.0)
    rate.add(0, now=100.0)
    rate.add(50, now=100.001)  # fifty sources in a millisecond: not a rate to show
    assert rate.rate() is None
    rate.add(60, now=101.0)
    assert rate.rate() == 60.0


def test_the_rate_is_that_of_the_last_seconds() -> None:
    rate = RecentRate(window=5.0)
    for second in range(10):
        rate.add(100 * second, now=float(second))  # 100 a second for ten seconds
    for second in range(10, 16):
        rate.add(900 + 10 * (second - 9), now=float(second))  # then 10 a second
    recent = rate.rate()
    assert recent is not None and recent < 20  # the old pace is forgotten


def test_the_progress_line_shows_only_what_it_knows() -> None:
    assert progress_line(0, None, "checked", None) == "0 checked"
    assert progress_line(3, 10, "checked", None) == "3/10 checked"
    assert progress_line(4, 10, "checked", 2.0) == "4/10 checked · 2.0/s · 0:03 left"
    assert progress_line(4, None, "checked", 2.0) == "4 checked · 2.0/s"


def test_one_junit_document_holds_every_report_and_error_document() -> None:
    invalid = validate_bytes(b"{}", source="a.json")
    unread = report_for_source_error("b.json", SourceUnreadableError("b.json: no such file"))
    error = error_record(SourceUnreadableError("c.json: gone"), "validate", "c.json")
    root = ET.fromstring(render([invalid, unread, error], "junit"))
    suites = list(root)
    assert len(suites) == 4 + 4 + 1
    for key in ("tests", "failures", "errors", "skipped"):
        assert root.get(key) == str(sum(int(suite.get(key, "0")) for suite in suites)), key
    assert root.get("errors") == "1" and root.get("name") == "th-ext validate"
    error_case = suites[-1].find("testcase/error")
    assert error_case is not None and error_case.get("message") == "c.json: gone"
