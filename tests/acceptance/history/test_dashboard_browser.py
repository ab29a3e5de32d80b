"""The dashboard in headless Chromium: one file that loads nothing, runs no script from a card,
sorts and filters its table from the keyboard, reads at 1280 and 390 px in light and dark, and
has no serious or critical axe-core violation."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import pytest
from typer.testing import CliRunner

from tests.support.axe import axe_violations
from tests.support.browser import launched_chromium
from tests.support.history_fleet import Fleet, record_nights
from th_ext.cli import app

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = [pytest.mark.slow, pytest.mark.browser]

SHOTS = Path(__file__).resolve().parents[3] / "build" / "screenshots" / "history"


@pytest.fixture(scope="module")
def dashboard(tmp_path_factory: pytest.TempPathFactory) -> tuple[Fleet, Path]:
    """Two weeks of nights recorded, and the dashboard ``th-ext history --html`` writes."""
    folder = tmp_path_factory.mktemp("fleet")
    fleet = record_nights(folder / "history.db", folder, nights=14)
    page = folder / "dashboard.html"
    done = CliRunner().invoke(app, ["history", str(fleet.store), "--html", str(page)])
    assert done.exit_code == 1, done.output  # the last night has new failures
    return fleet, page


@pytest.fixture(scope="module")
def browser(dashboard: tuple[Fleet, Path]) -> Iterator[Browser]:
    with launched_chromium() as launched:
        yield launched


def opened(
    browser: Browser,
    page_file: Path,
    width: int,
    scheme: Literal["light", "dark"] = "light",
    *,
    axe: bool = False,
) -> Page:
    """The page in a window ``width`` wide; with ``axe``, its CSP set aside so that axe-core
    can be injected (the other tests hold the page to its CSP)."""
    page = browser.new_page(
        viewport={"width": width, "height": 900}, color_scheme=scheme, bypass_csp=axe
    )
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text))
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("dialog", lambda dialog: problems.append(f"dialog {dialog.message}"))
    page.goto(page_file.as_uri())
    assert requested == [page_file.as_uri()]  # nothing else is fetched
    assert problems == []  # no CSP violation, no error, no dialog
    return page


@pytest.mark.parametrize(("width", "scheme"), [(1280, "light"), (390, "light"), (1280, "dark")])
def test_the_dashboard_reads_at_each_width_and_scheme_with_no_serious_axe_violation(
    browser: Browser, dashboard: tuple[Fleet, Path], width: int, scheme: Literal["light", "dark"]
) -> None:
    _, page_file = dashboard
    page = opened(browser, page_file, width, scheme, axe=True)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"dashboard-{width}-{scheme}.png"), full_page=True)
    # nothing wider than the window: the table scrolls inside its own region
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    serious = [v for v in axe_violations(page) if v.impact in ("serious", "critical")]
    assert serious == [], "\n".join(map(str, serious))
    page.close()


def test_new_failures_and_fixed_come_first_and_link_to_the_last_report(
    browser: Browser, dashboard: tuple[Fleet, Path]
) -> None:
    fleet, page_file = dashboard
    page = opened(browser, page_file, 1280)
    new = page.locator("#new-failures li")
    assert sorted(new.all_inner_texts()) == sorted(
        [
            f"{fleet.names['flaky']} (extension-invalid)",
            f"{fleet.names['new-failure']} (http-status)",
        ]
    )
    assert page.locator("#fixed li").all_inner_texts() == [f"{fleet.names['fixed']} (passed)"]
    lists = page.locator(".lists").bounding_box()
    charts = page.locator("#trends").bounding_box()
    assert lists is not None and charts is not None and lists["y"] < charts["y"]
    page.locator("#new-failures a", has_text="new-failure").click()
    report = page.locator(":target")
    assert fleet.names["new-failure"] in report.locator("h3").inner_text()
    assert "HTTP 500" in report.inner_text()
    for chart in ("pass-rate", "categories", "latency"):
        assert page.locator(f"#chart-{chart} svg[role=img]").count() == 1
    page.close()


def test_a_source_name_with_markup_and_control_characters_is_shown_as_text(
    browser: Browser, dashboard: tuple[Fleet, Path]
) -> None:
    _, page_file = dashboard
    page = opened(browser, page_file, 1280)
    assert page.evaluate("window.hacked") is None
    assert page.locator("img").count() == 0
    shown = page.locator("#sources td:first-child", has_text="onerror").inner_text()
    assert '<img src=x onerror="window.hacked=1">' in shown
    assert "\x1b" not in shown and "\x07" not in shown
    assert "\x1b" not in page_file.read_text(encoding="utf-8")
    page.close()


def test_the_table_sorts_and_filters_from_the_keyboard(
    browser: Browser, dashboard: tuple[Fleet, Path]
) -> None:
    fleet, page_file = dashboard
    page = opened(browser, page_file, 1280)
    rows = page.locator("#sources tbody tr")
    assert rows.count() == 12
    exit_header = page.locator("#sources th", has_text="Exit")
    exit_header.locator("button").focus()
    page.keyboard.press("Enter")
    assert exit_header.get_attribute("aria-sort") == "ascending"
    codes = [int(rows.nth(i).locator("td").nth(2).inner_text()) for i in range(12)]
    assert codes == sorted(codes)
    page.keyboard.press("Enter")
    assert exit_header.get_attribute("aria-sort") == "descending"
    assert int(rows.first.locator("td").nth(2).inner_text()) == 2
    page.locator("#filter-category").select_option("http-status")
    visible = page.locator("#sources tbody tr:not([hidden])")
    assert sorted(visible.locator("td:first-child").all_inner_texts()) == sorted(
        [fleet.names["gone-404"], fleet.names["new-failure"]]
    )
    assert page.locator("#shown").inner_text() == "2 of 12 sources shown"
    page.locator("#filter-category").select_option("")
    page.locator("#filter-text").fill("SLOW")
    assert visible.count() == 2  # slow and slower, whatever the case
    strip = page.locator("#sources tr", has_text="/flaky/").locator(".strip")
    assert strip.get_attribute("aria-label") == "last 14 runs: 7 passed, oldest first"
    assert strip.locator("i.p").count() == 7 and strip.locator("i.f").count() == 7
    page.close()
