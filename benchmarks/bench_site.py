"""Page weight of the built site: bytes, requests and DOMContentLoaded of every page, in headless
Chromium from a local server, with each page's DOMContentLoaded as a ratio to the home page's.

Run it with the project's Python: ``python benchmarks/bench_site.py`` builds the site first;
``--site DIR`` measures an existing build, ``--runs N`` takes the median of N cold visits,
``--check`` exits 1 when a page is over 500 KiB or over 1.5x the home page's DOMContentLoaded.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.support.browser import CHROMIUM_ARGS, chromium_executable  # noqa: E402
from tests.support.page_weight import PageCost, measure_page, site_pages  # noqa: E402
from tests.support.site_build import build_site  # noqa: E402
from tests.support.static_site import serve_site  # noqa: E402

MAX_BYTES = 500 * 1024
MAX_DCL_RATIO = 1.5


def _median_cost(costs: list[PageCost]) -> PageCost:
    return PageCost(
        path=costs[0].path,
        bytes=int(statistics.median(c.bytes for c in costs)),
        requests=int(statistics.median(c.requests for c in costs)),
        scripts=costs[0].scripts,
        dom_content_loaded_ms=statistics.median(c.dom_content_loaded_ms for c in costs),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build one now)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    executable = chromium_executable()
    if executable is None:
        print("no chromium found", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as scratch:
        site = args.site
        if site is None:
            result = build_site(REPO, Path(scratch) / "site")
            if result.returncode != 0:
                print(result.output, file=sys.stderr)
                return 2
            site = result.site_dir
        with serve_site(site) as base, sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=str(executable), args=CHROMIUM_ARGS, headless=True
            )
            pages = site_pages(site)
            for path in pages:  # one warm-up visit each: the server's disk cache, not Chromium's
                measure_page(browser, base, path)
            # Round-robin over the pages, so that load from other processes hits all alike.
            runs: dict[str, list[PageCost]] = {path: [] for path in pages}
            for _ in range(args.runs):
                for path in pages:
                    runs[path].append(measure_page(browser, base, path))
            costs = {path: _median_cost(found) for path, found in runs.items()}
            browser.close()
    home = costs[""].dom_content_loaded_ms
    failed = False
    print(f"{'page':<28} {'KiB':>8} {'requests':>8} {'DCL ms':>8} {'x home':>7}")
    for path, cost in costs.items():
        ratio = cost.dom_content_loaded_ms / home
        over = cost.bytes > MAX_BYTES or ratio > MAX_DCL_RATIO
        failed |= over
        print(
            f"{path or '(home)':<28} {cost.bytes / 1024:8.1f} {cost.requests:8d} "
            f"{cost.dom_content_loaded_ms:8.0f} {ratio:7.2f}{'  OVER' if over else ''}"
        )
    print(f"limits: {MAX_BYTES // 1024} KiB per page, {MAX_DCL_RATIO}x the home page's DCL")
    return 1 if failed and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
