"""The built spec page carries every requirement ID as an anchor, in the text and in the
requirements table, so the links in conform's reports land on them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from th_ext import find
from th_ext._requirements import load_requirements

pytestmark = pytest.mark.slow


def test_every_requirement_has_its_anchor_and_a_table_row(built_site: Path) -> None:
    version = find("commands/v1")
    page = (built_site / "a2a/ext/commands/v1/index.html").read_text(encoding="utf-8")
    table = page.split('id="requirements"', 1)[1]
    for requirement in load_requirements(version):
        anchor = requirement.anchor
        marker = re.search(rf'<a [^>]*id="{anchor}"[^>]*>([^<]*)</a>', page)
        assert marker is not None, anchor
        assert marker.group(1) == f"{requirement.id} {requirement.level}"
        assert f'href="#{anchor}"' in table
    normative = page.split('id="specification"', 1)[1].split("<h2", 1)[0]
    assert "The task's state does not change." in normative
