"""``make diagrams``: draw every Mermaid block of every spec into its extension's diagram cache.

Mermaid (from ``tools/diagrams/package-lock.json``) runs in headless Chromium; the SVG it draws
is then made theme-neutral and accessible: Mermaid's own stylesheet is dropped (the site's CSS
colours the drawing with the page's colours, so it reads in light and dark schemes alike), and
the ``<svg>`` gets ``role="img"`` with the diagram's ``accTitle`` and ``accDescr`` as its
``<title>`` and ``<desc>``. Drawings of diagrams that no longer exist are removed.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.support.browser import CHROMIUM_ARGS, chromium_executable  # noqa: E402

from th_ext.catalog._reader import discover, spec_text  # noqa: E402
from th_ext.publish._diagrams import (  # noqa: E402
    DIAGRAMS_DIR,
    MERMAID_FENCE,
    diagram_key,
    diagram_path,
)

MERMAID_JS = REPO / "tools" / "diagrams" / "node_modules" / "mermaid" / "dist" / "mermaid.min.js"
_RENDER = """
async ([id, source]) => {
  mermaid.initialize({ startOnLoad: false, securityLevel: "strict", theme: "neutral" });
  const { svg } = await mermaid.render(id, source);
  return svg;
}
"""


def neutral_svg(svg: str, source: str) -> str:
    """Mermaid's SVG without its stylesheet or fixed colours, labelled for screen readers."""
    if "accTitle" not in source or "accDescr" not in source:
        raise SystemExit("every diagram needs accTitle: and accDescr: lines (its title and text)")
    svg = re.sub(r"<style>.*?</style>", "", svg, flags=re.S)
    svg = re.sub(r'\s(?:fill|stroke)="#[0-9a-fA-F]{3,8}"', "", svg)
    svg = re.sub(r'\saria-roledescription="[^"]*"', "", svg)
    svg = re.sub(r'\srole="[^"]*"', "", svg, count=1)
    svg = svg.replace("<svg ", '<svg role="img" ', 1)
    if "<title" not in svg or "<desc" not in svg:
        raise SystemExit("Mermaid drew no <title>/<desc>; check the accTitle/accDescr lines")
    return re.sub(r"\n\s*\n", "\n", svg).strip() + "\n"


def main() -> int:
    """Draw the diagrams of ``extensions/`` (or of the extensions folder given as argument)."""
    from playwright.sync_api import sync_playwright

    extensions = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else REPO / "extensions"

    executable = chromium_executable()
    if executable is None or not MERMAID_JS.is_file():
        print("make diagrams needs chromium and tools/diagrams/node_modules", file=sys.stderr)
        return 2
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(executable), args=CHROMIUM_ARGS, headless=True
        )
        page = browser.new_page()
        page.set_content("<!doctype html><html><body></body></html>")
        page.add_script_tag(path=str(MERMAID_JS))
        for version in discover(extensions):
            sources = [m["source"] for m in MERMAID_FENCE.finditer(spec_text(version))]
            wanted = {diagram_path(version, source) for source in sources}
            for stale in (version.folder / DIAGRAMS_DIR).glob("*.svg"):
                if stale not in wanted:
                    stale.unlink()
                    print(f"removed {stale.relative_to(extensions.parent)}")
            for source in sources:
                path = diagram_path(version, source)
                svg = page.evaluate(_RENDER, [f"th-diagram-{diagram_key(source)[:12]}", source])
                path.parent.mkdir(exist_ok=True)
                path.write_text(neutral_svg(str(svg), source), encoding="utf-8")
                print(f"drew {path.relative_to(extensions.parent)}")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
