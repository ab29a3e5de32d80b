"""An operating system error inside a message: its words lower-cased, as every message puts it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from th_ext import CatalogError
from th_ext.catalog import find, schema_bytes
from th_ext.problems import os_reason

REPO = Path(__file__).resolve().parents[2]


def test_the_system_s_words_are_lower_cased() -> None:
    assert os_reason(FileNotFoundError(2, "No such file or directory")) == (
        "no such file or directory"
    )


def test_an_error_without_the_system_s_words_is_said_as_it_is() -> None:
    assert os_reason(OSError("cannot open /Volumes/Cards")) == "cannot open /Volumes/Cards"


def test_a_catalog_file_that_cannot_be_read_is_said_in_the_same_words(tmp_path: Path) -> None:
    folder = tmp_path / "extensions" / "commands" / "v1"
    shutil.copytree(REPO / "extensions" / "commands" / "v1", folder)
    version = find("commands/v1", tmp_path / "extensions")
    (folder / "schema.json").unlink()
    with pytest.raises(CatalogError, match=r"cannot be read \(no such file or directory\)$"):
        schema_bytes(version)
