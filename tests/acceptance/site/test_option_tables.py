"""The options tables of the th-ext pages name each option once, by names the command has."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer.main

from th_ext.cli import app

PAGES = Path(__file__).resolve().parents[3] / "site" / "th-ext"
OPTION = re.compile(r"(?<![\w-])(--?[a-zA-Z][\w-]*)")


def _tables(page: str) -> list[list[str]]:
    """The first cells of each table whose header starts with ``| Option |``."""
    tables: list[list[str]] = []
    rows: list[str] | None = None
    for line in (PAGES / page).read_text(encoding="utf-8").splitlines():
        if line.startswith("| Option |"):
            rows = []
            tables.append(rows)
        elif rows is not None and line.startswith("|") and not line.startswith("|---"):
            rows.append(line.split(" | ")[0].lstrip("| "))
        elif not line.startswith("|"):
            rows = None
    return tables


def _options(command: str) -> set[str]:
    group = typer.main.get_command(app)
    params = group.commands[command].params  # type: ignore[attr-defined]
    return {
        name
        for param in params
        if param.param_type_name == "option"
        for name in (*param.opts, *param.secondary_opts)
    }


# (page, table in page order, command)
TABLES = [
    ("validate.md", 0, "validate"),
    ("dispatch.md", 0, "dispatch"),
    ("dispatch.md", 1, "demo"),
    ("conform.md", 0, "conform"),
]


@pytest.mark.parametrize(("page", "index", "command"), TABLES)
def test_each_option_is_listed_once_by_its_own_names(page: str, index: int, command: str) -> None:
    first_cells = _tables(page)[index]
    named = [
        [name for name in OPTION.findall(" ".join(re.findall(r"`([^`]*)`", cell)))]
        for cell in first_cells
    ]
    listed = [name for row in named for name in dict.fromkeys(row)]
    twice = sorted({name for name in listed if listed.count(name) > 1})
    assert twice == [], f"{page}: listed in more than one row: {twice}"
    unknown = sorted(set(listed) - _options(command) - {"-"})
    assert unknown == [], f"{page}: {command} has no option {unknown}"
