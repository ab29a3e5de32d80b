"""A card that declares a draft extension version is warned that the version may change."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.support.new_version import copy_as_draft
from th_ext import find
from th_ext.catalog._reader import discover, schema_document
from th_ext.validate._extensions import KnownExtension, check_extensions
from th_ext.validate._schema import ParamsSchema


def _known(draft: bool) -> dict[str, KnownExtension]:
    version = find("commands/v1")
    schema = ParamsSchema(schema_document(version), version.schema_url, version.schema_url)
    return {version.uri: KnownExtension(version.uri, version.key, schema, None, draft=draft)}


@pytest.mark.parametrize("draft", [True, False])
def test_a_draft_version_gets_a_warning(draft: bool) -> None:
    uri = find("commands/v1").uri
    card: dict[str, Any] = {"capabilities": {"extensions": [{"uri": uri, "params": {}}]}}
    problems, _ = check_extensions(card, _known(draft))
    warnings = [p for p in problems if p.code == "extension-draft"]
    if draft:
        [warning] = warnings
        assert warning.severity == "warning"
        assert warning.path == "/capabilities/extensions/0/uri"
        assert "commands/v1 is a draft" in warning.message
    else:
        assert warnings == []


def test_the_catalog_reads_a_draft_status(tmp_path: Path, extensions_dir: Path) -> None:
    shutil.copytree(extensions_dir, tmp_path / "extensions")
    copy_as_draft(tmp_path / "extensions", "commands/v1", "v9")
    statuses = {version.key: version.status for version in discover(tmp_path / "extensions")}
    assert statuses["commands/v9"] == "draft"
    assert statuses["commands/v1"] == "stable"
