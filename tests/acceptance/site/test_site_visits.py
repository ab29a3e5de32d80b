"""What every page of the built site showed when it was visited in headless Chromium.

The visits are made once for the whole run (``site_visits``), with a Chromium of their own; they
live apart from the tests that keep a module's browser open, since one thread can drive only
one Playwright at a time. No page logs a console error or fails a request, and no code block
runs off its right edge.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.page_weight import ColorScheme
from tests.support.site_visits import NOT_FOUND_PATH, PageVisit

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_long_code_lines_wrap_instead_of_running_off_the_block(
    site_visits: dict[tuple[str, str], PageVisit], scheme: ColorScheme
) -> None:
    for path in ("a2a/ext/commands/v1/", "th-ext/validate/", "th-ext/dispatch/"):
        overflowing = site_visits[scheme, path].overflowing_code
        assert overflowing == [], f"{path} ({scheme}): code cut at the right edge"


def test_no_page_logs_a_console_error_or_fails_a_request(
    site_visits: dict[tuple[str, str], PageVisit], built_site: Path
) -> None:
    pages = sorted(
        path.relative_to(built_site).as_posix().removesuffix("index.html")
        for path in built_site.rglob("*.html")
    )
    assert "a2a/ext/commands/v1/" in pages
    report: dict[str, list[str] | None] = {}
    for path in pages:
        visit = site_visits["light", path]
        assert visit.status == 200, f"{path}: HTTP {visit.status}"
        report[path or "(home)"] = visit.problems
    unknown = site_visits["light", NOT_FOUND_PATH]
    assert unknown.status == 404, f"{NOT_FOUND_PATH}: HTTP {unknown.status}"
    report["(an unknown address, answered by 404.html)"] = unknown.problems
    assert None not in report.values(), "a page was visited without watching for problems"
    faults = {path: found for path, found in report.items() if found}
    assert not faults, json.dumps(faults, indent=2)
