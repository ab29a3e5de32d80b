"""The diagram cache: every Mermaid block of every spec has its current drawing, and only that."""

from __future__ import annotations

import math
import re
import shutil
from pathlib import Path

from th_ext import discover, find
from th_ext.catalog._reader import spec_text
from th_ext.publish import plan_site
from th_ext.publish._diagrams import (
    check_diagrams,
    diagram_path,
    inline_diagrams,
    standalone_drawing,
    used_diagrams,
)

SITE_URL = "https://madarauchiha-314.github.io/tiny-harness/"


def test_the_committed_drawings_are_current(extensions_dir: Path) -> None:
    versions = discover(extensions_dir)
    assert check_diagrams(versions) == [], "run `make diagrams` and commit the drawings"


def test_a_changed_diagram_or_a_leftover_drawing_is_stale(
    tmp_path: Path, extensions_dir: Path
) -> None:
    shutil.copytree(extensions_dir, tmp_path / "extensions")
    spec = tmp_path / "extensions/commands/v1/spec.md"
    text = spec.read_text(encoding="utf-8")
    assert "participant M as Model" in text
    spec.write_text(text.replace("participant M as Model", "participant M as LLM"), "utf-8")
    problems = check_diagrams([find("commands/v1", tmp_path / "extensions")])
    assert any(re.search(r"the diagram at spec.md line \d+ has no drawing", p) for p in problems)
    assert any("draws no diagram of spec.md; run `make diagrams`" in p for p in problems)


def test_the_page_text_carries_the_drawing_not_the_source(extensions_dir: Path) -> None:
    version = find("commands/v1", extensions_dir)
    page = inline_diagrams(version)
    assert "```mermaid" not in page
    [source] = re.findall(r"^```mermaid\n(.*?)^```", spec_text(version), re.M | re.S)
    path = diagram_path(version, source)
    svg = path.read_text(encoding="utf-8").strip()
    # Drawn no smaller than its 16 px text at 12 px: 3/4 of its width at least.
    width = float(re.search(r'viewBox="\S+ \S+ (\S+) ', svg)[1])  # type: ignore[index]
    minimum = f"min-width: {math.ceil(width * 0.75)}px;"
    shown = re.sub(r'style="(max-width: [0-9.]+px;)"', rf'style="\1 {minimum}"', svg, count=1)
    assert shown != svg
    assert (
        f'<figure class="th-diagram">\n{shown}\n'
        f'<figcaption><a href="diagrams/{path.name}">Open the diagram full size</a></figcaption>'
        "\n</figure>"
    ) in page
    assert svg.startswith('<svg role="img"') and "<title" in svg and "<desc" in svg
    assert "\n\n" not in svg  # a blank line would end the raw HTML block


def test_the_drawing_opened_on_its_own_has_the_page_colours(extensions_dir: Path) -> None:
    version = find("commands/v1", extensions_dir)
    [name] = used_diagrams(version)
    drawn = standalone_drawing((version.folder / "diagrams" / name).read_bytes()).decode()
    assert drawn.startswith('<svg role="img"')
    assert ".messageLine0,.messageLine1{stroke:currentColor" in drawn
    plan = plan_site(SITE_URL, extensions_dir)
    assert plan.file(f"a2a/ext/commands/v1/diagrams/{name}").content == drawn.encode()
