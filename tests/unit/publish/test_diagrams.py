"""The diagram cache: every Mermaid block of every spec has its current drawing, and only that."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from th_ext import discover, find
from th_ext.publish._diagrams import check_diagrams, diagram_path, inline_diagrams


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
    [source] = re.findall(r"^```mermaid\n(.*?)^```", version.spec_text(), re.M | re.S)
    svg = diagram_path(version, source).read_text(encoding="utf-8").strip()
    assert f'<figure class="th-diagram">\n{svg}\n</figure>' in page
    assert svg.startswith('<svg role="img"') and "<title" in svg and "<desc" in svg
    assert "\n\n" not in svg  # a blank line would end the raw HTML block
