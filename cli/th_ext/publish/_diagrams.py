"""Diagrams drawn when the site is built: each Mermaid block of a spec is replaced by its SVG,
from the drawings committed beside the spec (``make diagrams``), so a build needs no browser."""

from __future__ import annotations

import hashlib
import math
import re
from pathlib import Path

from th_ext._exceptions import PublishError
from th_ext.catalog._reader import read_file, spec_text
from th_ext.catalog._records import ExtensionVersion

__all__ = [
    "DIAGRAMS_DIR",
    "MERMAID_FENCE",
    "MIN_TEXT_PX",
    "check_diagrams",
    "diagram_key",
    "diagram_path",
    "inline_diagrams",
    "standalone_drawing",
    "used_diagrams",
]

DIAGRAMS_DIR = "diagrams"
MERMAID_FENCE = re.compile(r"^```mermaid[ \t]*\n(?P<source>.*?)^```[ \t]*$", re.M | re.S)
_HINT = "run `make diagrams` and commit the result"
#: The smallest text size, in CSS pixels, a drawing's text is shown at on a page.
MIN_TEXT_PX = 12
_FONT_SIZE = re.compile(r"font-size:\s*([0-9.]+)px")
_VIEW_BOX = re.compile(r'viewBox="[-0-9.]+ [-0-9.]+ ([0-9.]+) [0-9.]+"')
_MAX_WIDTH = re.compile(r'style="max-width: ([0-9.]+)px;"')


def diagram_key(source: str) -> str:
    """The cache key of a diagram: the sha256 of its source, surrounding blank space removed."""
    return hashlib.sha256(source.strip().encode("utf-8")).hexdigest()


def diagram_path(version: ExtensionVersion, source: str) -> Path:
    return version.folder / DIAGRAMS_DIR / f"{diagram_key(source)}.svg"


def check_diagrams(versions: list[ExtensionVersion]) -> list[str]:
    """Every diagram without a current drawing, and every drawing of no diagram."""
    problems: list[str] = []
    for version in versions:
        text = spec_text(version)
        wanted: set[Path] = set()
        for match in MERMAID_FENCE.finditer(text):
            path = diagram_path(version, match["source"])
            wanted.add(path)
            if not path.is_file():
                line = text.count("\n", 0, match.start()) + 1
                problems.append(
                    f"{version.key}: the diagram at spec.md line {line} "
                    f"has no drawing {DIAGRAMS_DIR}/{path.name}; {_HINT}"
                )
        for stale in sorted((version.folder / DIAGRAMS_DIR).glob("*.svg")):
            if stale not in wanted:
                problems.append(
                    f"{version.key}: {DIAGRAMS_DIR}/{stale.name} draws no diagram of spec.md; "
                    f"{_HINT}"
                )
    return problems


def inline_diagrams(version: ExtensionVersion) -> str:
    """The version's ``spec.md`` with every Mermaid block replaced by its drawing (raw HTML)."""

    def inline_drawing(match: re.Match[str]) -> str:
        path = diagram_path(version, match["source"])
        if not path.exists() and not path.is_symlink():
            raise PublishError(
                f"{version.key}: a diagram has no drawing {DIAGRAMS_DIR}/{path.name}; {_HINT}"
            )
        svg = read_file(version, f"{DIAGRAMS_DIR}/{path.name}").decode("utf-8").strip()
        link = f"{DIAGRAMS_DIR}/{path.name}"
        return (
            f'<figure class="th-diagram">\n{_legible(svg)}\n'
            f'<figcaption><a href="{link}">Open the diagram full size</a></figcaption>\n'
            "</figure>"
        )

    return MERMAID_FENCE.sub(inline_drawing, spec_text(version))


def _legible(svg: str) -> str:
    """The drawing with a minimum width at which its smallest text is ``MIN_TEXT_PX``."""
    sizes = [float(size) for size in _FONT_SIZE.findall(svg)]
    view_box = _VIEW_BOX.search(svg)
    if not sizes or view_box is None:
        return svg
    width = float(view_box[1])
    minimum = min(width, math.ceil(width * MIN_TEXT_PX / min(sizes)))
    style = f"min-width: {minimum:g}px;"
    if _MAX_WIDTH.search(svg):
        return _MAX_WIDTH.sub(lambda m: f'style="max-width: {m[1]}px; {style}"', svg, count=1)
    return svg.replace("<svg ", f'<svg style="{style}" ', 1)


# A drawing has no colours of its own (the page's stylesheet gives them): the copy opened on
# its own gets these, the page's light scheme.
_STANDALONE_STYLE = (
    "<style>svg{background:#fff;color:#000;font-family:'trebuchet ms',verdana,arial,"
    "sans-serif;font-size:16px}text,tspan{fill:currentColor;stroke:none}"
    "rect.actor{fill:#fff;stroke:currentColor;stroke-width:1px}.actor-line{stroke:#757575}"
    ".messageLine0,.messageLine1{stroke:currentColor;stroke-width:1.5px}"
    "marker path,marker circle{fill:currentColor;stroke:currentColor}"
    "marker#crosshead path{fill:none}rect.note{fill:#f5f5f5;stroke:#9e9e9e}</style>"
)


def standalone_drawing(svg: bytes) -> bytes:
    """The drawing as a file of its own, with the colours the page's stylesheet gives it."""
    text = svg.decode("utf-8")
    end = text.find(">", text.find("<svg"))
    if end < 0:
        return svg
    return (text[: end + 1] + _STANDALONE_STYLE + text[end + 1 :]).encode("utf-8")


def used_diagrams(version: ExtensionVersion) -> list[str]:
    """The file names of the drawings ``spec.md`` shows, in order."""
    return [
        diagram_path(version, m["source"]).name for m in MERMAID_FENCE.finditer(spec_text(version))
    ]
