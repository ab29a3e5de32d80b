"""The built spec page carries every requirement ID as an anchor, in the text and in the
requirements table, so the links in conform's reports land on them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from th_ext import find
from th_ext.catalog._reader import load_requirements

pytestmark = pytest.mark.slow


def test_every_requirement_has_its_anchor_and_a_table_row(built_site: Path) -> None:
    version = find("commands/v1")
    page = (built_site / "a2a/ext/commands/v1/index.html").read_text(encoding="utf-8")
    table = page.split('id="requirements"', 1)[1]
    for requirement in load_requirements(version):
        anchor = requirement.anchor
        if not requirement.in_force:
            # A retired ID keeps its anchor on its struck-through row, and no marker in the text.
            row = table.split(f'<span id="{anchor}"></span>', 1)[1].split("</tr>", 1)[0]
            assert f"<del>{requirement.id}</del>" in row
            assert "retired 2026-12-04" in row
            continue
        marker = re.search(rf'<a [^>]*id="{anchor}"[^>]*>([^<]*)</a>', page)
        assert marker is not None, anchor
        assert marker.group(1) == f"{requirement.id} {requirement.level}"
        assert f'href="#{anchor}"' in table
    normative = page.split('id="specification"', 1)[1].split("<h2", 1)[0]
    assert "The task's state does not change." in normative
    errata = page.split('id="errata"', 1)[1]
    assert errata.count("<td>2026-12-04</td>") == len(version.errata)
    assert '<a href="#cmd-13">CMD-13</a>' in errata
