"""Installing a built subtree into a Pages artifact: only under its folder, never over others."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from th_ext._exceptions import SubtreeConflictError
from th_ext.publish import MANIFEST_NAME, install_subtree


def _built(root: Path) -> Path:
    files = {
        "index.html": "catalog",
        "index.json": "{}",
        "404.html": "root only",
        "commands/v1/index.html": "commands",
        "commands/v1/schema.json": "{}",
        "assets/site.css": "css",
    }
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    return root


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.fixture
def built(tmp_path: Path) -> Path:
    return _built(tmp_path / "built")


@pytest.fixture
def host(tmp_path: Path) -> Path:
    root = tmp_path / "host"
    (root / "a2a/ext/task").mkdir(parents=True)
    (root / "index.html").write_text("host home", encoding="utf-8")
    (root / "a2a/ext/task/v1.html").write_text("host task", encoding="utf-8")
    return root


def test_it_writes_only_under_its_folder_and_records_what_it_wrote(built: Path, host: Path) -> None:
    result = install_subtree(built, host)
    tree = _tree(host)
    assert tree["index.html"] == b"host home"
    assert tree["a2a/ext/task/v1.html"] == b"host task"
    assert tree["a2a/ext/commands/v1/index.html"] == b"commands"
    assert "a2a/ext/404.html" not in tree, "a site's root 404 page is not a subtree file"
    assert set(result.written) == set(tree) - {
        "index.html", "a2a/ext/task/v1.html", f"a2a/ext/{MANIFEST_NAME}"
    }  # fmt: skip
    manifest = json.loads(tree[f"a2a/ext/{MANIFEST_NAME}"])
    assert set(manifest["files"]) == set(result.written)


@pytest.mark.parametrize(
    "foreign",
    [
        "a2a/ext/index.json",  # a file it would write
        "a2a/ext/commands/v1.html",  # a clean-URL page answering the commands URI
        "a2a/ext/commands",  # a file where it needs a folder
        "a2a/ext.html",  # a clean-URL page answering the catalog's address
    ],
)
def test_a_file_it_did_not_write_stops_it_before_anything_is_written(
    foreign: str, built: Path, host: Path
) -> None:
    (host / foreign).parent.mkdir(parents=True, exist_ok=True)
    (host / foreign).write_text("the host's", encoding="utf-8")
    before = _tree(host)
    with pytest.raises(SubtreeConflictError, match=re.escape(str(host / foreign))):
        install_subtree(built, host)
    assert _tree(host) == before


def test_a_rerun_replaces_its_own_files_and_removes_those_it_no_longer_has(
    built: Path, host: Path
) -> None:
    install_subtree(built, host)
    (built / "assets/site.css").unlink()
    (built / "index.json").write_text('{"v": 2}', encoding="utf-8")
    result = install_subtree(built, host)
    assert result.removed == ("a2a/ext/assets/site.css",)
    assert not (host / "a2a/ext/assets").exists(), "an emptied folder is left behind"
    assert (host / "a2a/ext/index.json").read_text(encoding="utf-8") == '{"v": 2}'


def test_its_own_file_changed_by_someone_else_is_not_replaced(built: Path, host: Path) -> None:
    install_subtree(built, host)
    (host / "a2a/ext/index.html").write_text("edited", encoding="utf-8")
    with pytest.raises(SubtreeConflictError, match=r"index\.html is in the way"):
        install_subtree(built, host)
    assert (host / "a2a/ext/index.html").read_text(encoding="utf-8") == "edited"


def test_a_manifest_it_cannot_read_stops_it(built: Path, host: Path) -> None:
    (host / f"a2a/ext/{MANIFEST_NAME}").write_text("not json", encoding="utf-8")
    with pytest.raises(SubtreeConflictError, match="is not a manifest this build wrote"):
        install_subtree(built, host)
