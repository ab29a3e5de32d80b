"""The CI page's inputs table lists every input ``action.yml`` declares, with its default."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

REPO_ROOT = Path(__file__).resolve().parents[3]
CI_PAGE = REPO_ROOT / "site" / "th-ext" / "ci.md"

_ROW = re.compile(r"^\| `([^`]+)` \| ([^|]+) \|", re.MULTILINE)


def table_inputs(page: str) -> dict[str, str]:
    """``{input: default}`` of the table whose header is ``| Input | Default | ...``."""
    start = page.index("| Input | Default |")
    table = page[start : page.index("\n\n", start)]
    return {name: default.strip() for name, default in _ROW.findall(table)}


def declared_inputs() -> dict[str, str]:
    action = yaml.safe_load((REPO_ROOT / "action.yml").read_text(encoding="utf-8"))
    return {
        name: f"`{spec['default']}`" if spec.get("default") else "(none)"
        for name, spec in action["inputs"].items()
    }


def test_every_declared_input_is_in_the_table_with_its_default() -> None:
    assert table_inputs(CI_PAGE.read_text(encoding="utf-8")) == declared_inputs()


def test_an_input_missing_from_the_table_is_found() -> None:
    page = CI_PAGE.read_text(encoding="utf-8")
    without_keys = "\n".join(line for line in page.splitlines() if not line.startswith("| `keys`"))
    assert "keys" not in table_inputs(without_keys)
    assert table_inputs(without_keys) != declared_inputs()
