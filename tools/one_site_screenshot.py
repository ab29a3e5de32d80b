"""Draw site/th-ext/images/one-site.webp: a host page and a spec page side by side.

The publishing page shows a reader what "one site" means: a page of the tiny-harness docs
(VitePress) next to the commands extension's spec page, as served together. This script builds
the VitePress test host (``tests/hosts/vitepress``, npm packages from its lock file), builds
the subtree into a copy of it with ``make pages-subtree``, serves the result as GitHub Pages
would, and has headless Chromium draw both pages in one WebP image.

    python tools/one_site_screenshot.py            # writes site/th-ext/images/one-site.webp
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.support.browser import CHROMIUM_ARGS, chromium_executable  # noqa: E402
from tests.support.static_site import serve_site  # noqa: E402
from tests.support.vitepress_host import built_host_dist  # noqa: E402

OUT = REPO / "site" / "th-ext" / "images" / "one-site.webp"
PAGES = ("a2a/ext/task/v1", "a2a/ext/commands/v1/")
_FRAMES = """<!doctype html><html><body style="margin:0;display:flex;gap:8px;background:#c2c2c4">
{frames}</body></html>"""
_FRAME = '<iframe src="{src}" style="border:0;width:{width}px;height:{height}px"></iframe>'


def main() -> None:
    from playwright.sync_api import sync_playwright

    width, height = 820, 560
    with tempfile.TemporaryDirectory(prefix="one-site-") as work:
        dist = Path(work) / "dist"
        shutil.copytree(built_host_dist(), dist)
        subprocess.run(["make", "-s", "pages-subtree", f"DEST={dist}"], cwd=REPO, check=True)
        with serve_site(dist) as base, sync_playwright() as playwright:
            executable = chromium_executable()
            assert executable is not None, "chromium is needed"
            browser = playwright.chromium.launch(
                executable_path=str(executable), args=CHROMIUM_ARGS
            )
            page = browser.new_page(viewport={"width": 2 * width + 8, "height": height})
            frames = "".join(
                _FRAME.format(src=base + path, width=width, height=height) for path in PAGES
            )
            page.set_content(_FRAMES.format(frames=frames), wait_until="load")
            page.wait_for_timeout(1500)  # the fonts and the VitePress app settle
            shot = page.context.new_cdp_session(page).send(
                "Page.captureScreenshot", {"format": "webp", "quality": 60}
            )
            browser.close()
    import base64

    OUT.write_bytes(base64.b64decode(shot["data"]))
    print(f"wrote {OUT.relative_to(REPO)} ({OUT.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
