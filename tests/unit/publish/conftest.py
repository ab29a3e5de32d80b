"""A private copy of the extensions folder that a test may break."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

JsonEdit = Callable[[str, Callable[[Any], None]], None]


@pytest.fixture
def extensions_copy(tmp_path: Path, extensions_dir: Path) -> Path:
    target = tmp_path / "extensions"
    shutil.copytree(extensions_dir, target)
    return target


@pytest.fixture
def edit_json(extensions_copy: Path) -> JsonEdit:
    """Edit a JSON file of the copy in place: ``edit_json("commands/v1/schema.json", fn)``."""

    def edit(relative: str, change: Callable[[Any], None]) -> None:
        path = extensions_copy / relative
        document = json.loads(path.read_bytes())
        change(document)
        path.write_text(json.dumps(document, indent=2, sort_keys=True) + "\n")

    return edit
