"""Accessibility: axe-core finds no serious or critical WCAG 2.1 AA violation on any page of the
built site, in the light or the dark colour scheme, in headless Chromium.

axe-core runs in the visits of ``site_visits`` (``tests/support/site_visits.py``) of every page
and the 404 page: in the light scheme each in a tab of its own, in the dark one in turn."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import in_ci
from tests.support.axe import AXE_JS
from tests.support.page_weight import ColorScheme, site_pages
from tests.support.site_visits import NOT_FOUND_PATH, PageVisit

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _unavailable(reason: str) -> None:
    if in_ci():
        pytest.fail(f"{reason}; under CI=true the accessibility checks must run")
    pytest.skip(reason)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_page_has_a_serious_wcag_violation(
    built_site: Path, scheme: ColorScheme, request: pytest.FixtureRequest
) -> None:
    if not AXE_JS.is_file():
        _unavailable("axe-core is not installed (make test runs npm ci in tests/browser)")
    visits: dict[tuple[str, str], PageVisit] = request.getfixturevalue("site_visits")
    pages = [*site_pages(built_site), NOT_FOUND_PATH]  # the 404 page too
    found = []
    for path in pages:
        violations = visits[scheme, path].violations
        assert violations is not None, f"axe-core did not run on {path or '(home)'}"
        found += [
            f"{path or '(home)'}: {violation['text']}"
            for violation in violations
            if violation["impact"] in ("serious", "critical")
        ]
    assert found == [], "\n".join(found)
