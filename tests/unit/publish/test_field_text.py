"""The spec page's field tables take their words from fields.toml, required fields first."""

from __future__ import annotations

import tomllib
from pathlib import Path

from th_ext import find
from th_ext.catalog._reader import schema_bytes
from th_ext.publish._field_table import check_field_descriptions, described_field_tables


def test_rows_use_the_page_words_required_first_then_schema_order(extensions_dir: Path) -> None:
    version = find("commands/v1", extensions_dir)
    words = tomllib.loads((version.folder / "fields.toml").read_text(encoding="utf-8"))
    tables = {table.title: table for table in described_field_tables(version)}
    spec = tables["CommandSpec"]
    assert [row.name for row in spec.rows] == ["name", "description", "argument_hint"]
    for table in tables.values():
        for row in table.rows:
            assert row.description == " ".join(words[table.title][row.name].split())
            assert row.description.lower() != row.name.replace("_", " ")
    assert check_field_descriptions([version]) == []
    # the published schema keeps its own text: the words live only in fields.toml
    assert "typed after the slash" not in schema_bytes(version).decode("utf-8")
