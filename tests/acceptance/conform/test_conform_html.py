"""The HTML report in headless Chromium: one self-contained page that loads nothing from
anywhere, with the summary first and a row per requirement linking to its spec anchor."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from typer.testing import CliRunner

from tests.support.browser import launched_chromium
from th_ext import find
from th_ext.cli import app
from th_ext.demo import DemoServer, DemoVariant

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = [pytest.mark.slow, pytest.mark.browser]

Agent = Callable[[DemoVariant], DemoServer]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_chromium() as launched:
        yield launched


def write_report(base_url: str, path: Path) -> int:
    outcome = CliRunner().invoke(app, ["conform", base_url, "--html", str(path)])
    assert outcome.exit_code in (0, 1), outcome.stderr
    return outcome.exit_code


def test_the_report_of_a_failing_agent_reads_right_in_chromium(
    browser: Browser, conform_agent: Agent, tmp_path: Path
) -> None:
    page_file = tmp_path / "report.html"
    assert write_report(conform_agent(DemoVariant.CHANGED_STATE).base_url, page_file) == 1
    page = browser.new_page()
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text))
    page.goto(page_file.as_uri())
    assert requested == [page_file.as_uri()]  # nothing else is fetched
    assert errors == []
    assert page.locator("#verdict").inner_text().lower() == "failed"
    header_top = page.locator("header").bounding_box()
    table_top = page.locator("#requirements").bounding_box()
    assert header_top is not None and table_top is not None
    assert header_top["y"] < table_top["y"]  # the summary comes first
    rows = page.locator("#requirements tbody tr")
    ids = [rows.nth(i).locator("td").first.inner_text() for i in range(rows.count())]
    assert ids == [f"CMD-{n}" for n in range(1, 20) if n not in (10, 13)]  # retired: not checked
    failed = page.locator("#requirements tbody tr.fail")
    assert failed.count() == 1
    assert failed.locator("td").first.inner_text() == "CMD-5"
    failed.locator("summary").click()
    assert "TASK_STATE_COMPLETED after" in failed.locator("details ul").inner_text()
    uri = find("commands/v1").uri
    link = page.locator("#cmd-5 a").get_attribute("href")
    assert link == f"{uri}#cmd-5"
    page.close()
