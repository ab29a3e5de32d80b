"""A card that declares a draft extension version is warned that the version may change."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.support.new_version import copy_as_draft
from th_ext import find
from th_ext._bundle import bundled_schemas
from th_ext.validate._extensions import KnownExtension, check_extensions
from th_ext.validate._schema import ParamsSchema


def _known(draft: bool) -> dict[str, KnownExtension]:
    version = find("commands/v1")
    schema = ParamsSchema(
        version.schema_document,
        {version.schema_url: version.schema_document},
        name=version.schema_url,
    )
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


def test_the_bundle_reads_a_draft_status_without_the_catalog(
    tmp_path: Path, extensions_dir: Path
) -> None:
    shutil.copytree(extensions_dir, tmp_path / "extensions")
    copy_as_draft(tmp_path / "extensions", "commands/v1", "v9")
    schemas = bundled_schemas(tmp_path / "extensions")
    assert schemas is not None
    statuses = {schema.key: schema.status for schema in schemas}
    assert statuses["commands/v9"] == "draft"
    assert statuses["commands/v1"] == "stable"
