"""Published means frozen: the lock catches a changed or vanished schema."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.unit.publish.conftest import JsonEdit
from th_ext import PublishedSchemaChangedError, PublishError, discover, find
from th_ext.publish import LOCK_FILE_NAME, add_to_lock, check_lock, read_lock


def test_the_committed_lock_matches_every_published_schema(extensions_dir: Path) -> None:
    lock = read_lock(extensions_dir / LOCK_FILE_NAME)
    assert "commands/v1" in lock
    assert check_lock(discover(extensions_dir), lock) == []


def test_a_changed_schema_is_caught(extensions_copy: Path, edit_json: JsonEdit) -> None:
    edit_json("commands/v1/schema.json", lambda s: s.update({"title": "Renamed"}))
    problems = check_lock(discover(extensions_copy), read_lock(extensions_copy / LOCK_FILE_NAME))
    assert len(problems) == 1
    assert problems[0].startswith("commands/v1: schema.json changed after publication")


def test_a_vanished_version_is_caught(extensions_copy: Path) -> None:
    shutil.rmtree(extensions_copy / "commands" / "v1")
    problems = check_lock(discover(extensions_copy), read_lock(extensions_copy / LOCK_FILE_NAME))
    assert problems == ["commands/v1: published, but its folder is gone; published files stay"]


def test_a_stable_version_missing_from_the_lock_is_caught(extensions_copy: Path) -> None:
    (extensions_copy / LOCK_FILE_NAME).unlink()
    problems = check_lock(discover(extensions_copy), read_lock(extensions_copy / LOCK_FILE_NAME))
    assert problems == [
        "commands/v1: status is stable but it is not in the lock; run: th-ext lock add commands/v1"
    ]


def test_add_records_once_and_never_replaces(extensions_copy: Path, edit_json: JsonEdit) -> None:
    lock_path = extensions_copy / LOCK_FILE_NAME
    lock_path.unlink()
    assert add_to_lock(lock_path, find("commands/v1", extensions_copy)) is True
    before = lock_path.read_bytes()
    assert add_to_lock(lock_path, find("commands/v1", extensions_copy)) is False
    edit_json("commands/v1/schema.json", lambda s: s.update({"title": "Renamed"}))
    with pytest.raises(PublishedSchemaChangedError):
        add_to_lock(lock_path, find("commands/v1", extensions_copy))
    assert lock_path.read_bytes() == before


def test_a_draft_cannot_be_locked(extensions_copy: Path) -> None:
    meta = extensions_copy / "commands" / "v1" / "extension.toml"
    meta.write_text(meta.read_text().replace('status = "stable"', 'status = "draft"'))
    with pytest.raises(PublishError, match="a draft is not published"):
        add_to_lock(extensions_copy / LOCK_FILE_NAME, find("commands/v1", extensions_copy))


@pytest.mark.parametrize(
    "line", ["commands/v1 e0a3", "commands/v1 sha256:" + "g" * 64, "Commands/v1 sha256:" + "0" * 64]
)
def test_a_malformed_lock_line_is_an_error(tmp_path: Path, line: str) -> None:
    path = tmp_path / LOCK_FILE_NAME
    path.write_text(line + "\n")
    with pytest.raises(PublishError, match="not a lock line"):
        read_lock(path)
