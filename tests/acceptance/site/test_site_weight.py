"""Page weight: no page of the built site transfers more than 500 KiB on a cold visit in
headless Chromium, and none loads a diagram script. (Load times are measured by
``benchmarks/bench_site.py``, not asserted here.)

The bytes are counted in the light-scheme visits of ``site_visits``
(``tests/support/site_visits.py``), each page loaded in a tab of its own with the browser's
caches bypassed, so that every byte is fetched as on a cold visit."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.page_weight import site_pages
from tests.support.site_visits import PageVisit

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MAX_BYTES = 500 * 1024


def test_every_page_weighs_at_most_500_kib(
    built_site: Path, site_visits: dict[tuple[str, str], PageVisit]
) -> None:
    pages = site_pages(built_site)
    assert "a2a/ext/commands/v1/" in pages
    for path in pages:
        cost = site_visits["light", path]
        assert cost.requests is not None and cost.bytes is not None and cost.scripts is not None
        assert cost.requests > 1, f"{path}: nothing measured"
        assert cost.bytes <= MAX_BYTES, f"{path}: {cost.bytes / 1024:.0f} KiB over the wire"
        assert not [url for url in cost.scripts if "mermaid" in url.lower()], path
