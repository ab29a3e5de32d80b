"""Diagrams drawn when the site is built: each Mermaid block of a spec is replaced by its SVG.

Pages then load no diagram script (Mermaid weighs 3.5 MB). Drawing needs a browser, which a
build must not, so the drawings are a cache committed beside the spec: ``diagrams/<sha256>.svg``,
keyed by the hash of the diagram's source and produced by ``make diagrams``. The build fails
when a diagram has no drawing or a drawing belongs to no diagram, so the cache is never stale.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from th_ext._catalog import ExtensionVersion
from th_ext._exceptions import PublishError

__all__ = [
    "DIAGRAMS_DIR",
    "MERMAID_FENCE",
    "check_diagrams",
    "diagram_key",
    "diagram_path",
    "inline_diagrams",
]

DIAGRAMS_DIR = "diagrams"
MERMAID_FENCE = re.compile(r"^```mermaid[ \t]*\n(?P<source>.*?)^```[ \t]*$", re.M | re.S)
_HINT = "run `make diagrams` and commit the result"


def diagram_key(source: str) -> str:
    """The cache key of a diagram: the sha256 of its source, surrounding blank space removed."""
    return hashlib.sha256(source.strip().encode("utf-8")).hexdigest()


def diagram_path(version: ExtensionVersion, source: str) -> Path:
    return version.folder / DIAGRAMS_DIR / f"{diagram_key(source)}.svg"


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def check_diagrams(versions: list[ExtensionVersion]) -> list[str]:
    """Every diagram without a current drawing, and every drawing of no diagram."""
    problems: list[str] = []
    for version in versions:
        text = version.spec_text()
        wanted: set[Path] = set()
        for match in MERMAID_FENCE.finditer(text):
            path = diagram_path(version, match["source"])
            wanted.add(path)
            if not path.is_file():
                problems.append(
                    f"{version.key}: the diagram at spec.md line {_line(text, match.start())} "
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

    def drawing(match: re.Match[str]) -> str:
        path = diagram_path(version, match["source"])
        if not path.exists() and not path.is_symlink():
            raise PublishError(
                f"{version.key}: a diagram has no drawing {DIAGRAMS_DIR}/{path.name}; {_HINT}"
            )
        svg = version.read_file(f"{DIAGRAMS_DIR}/{path.name}").decode("utf-8").strip()
        return f'<figure class="th-diagram">\n{svg}\n</figure>'

    return MERMAID_FENCE.sub(drawing, version.spec_text())
