"""The validator's light read of the bundled schemas agrees with the catalog, or stands aside."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from th_ext._bundle import bundled_extensions_dir, bundled_schemas
from th_ext._catalog import discover

BASE = "https://example.org/ext"


def summary(items: object) -> list[tuple[str, str, str, object]]:
    assert isinstance(items, list | tuple)
    return [(i.key, i.uri, i.schema_url, i.schema_document) for i in items]


def test_the_bundled_tree_reads_as_the_catalog_reads_it() -> None:
    schemas = bundled_schemas()
    assert schemas is not None
    assert summary(schemas) == summary(discover())


def add_version(root: Path, name: str, version: str, uri: str | None = None) -> Path:
    source = bundled_extensions_dir() / "commands" / "v1"
    folder = root / name / version
    shutil.copytree(source, folder)
    uri = uri or f"{BASE}/{name}/{version}"
    meta = (folder / "extension.toml").read_text(encoding="utf-8")
    meta = meta.replace('name = "commands"', f'name = "{name}"')
    meta = meta.replace('version = "v1"', f'version = "{version}"')
    meta = meta.replace(
        'uri = "https://madarauchiha-314.github.io/tiny-harness/a2a/ext/commands/v1"',
        f'uri = "{BASE}/{name}/{version}"',
    )
    meta = "\n".join(line for line in meta.splitlines() if not line.startswith("schema_source"))
    (folder / "extension.toml").write_text(meta + "\n", encoding="utf-8")
    schema = json.loads((folder / "schema.json").read_text(encoding="utf-8"))
    schema["$id"] = f"{uri}/schema.json"
    (folder / "schema.json").write_text(json.dumps(schema), encoding="utf-8")
    return folder


def test_versions_come_in_catalog_order(tmp_path: Path) -> None:
    for name, version in [("zeta", "v1"), ("alpha", "v10"), ("alpha", "v2"), ("alpha", "v1")]:
        add_version(tmp_path, name, version)
    (tmp_path / "alpha" / "notes").mkdir()  # a folder without extension.toml is not a version
    schemas = bundled_schemas(tmp_path)
    assert schemas is not None
    assert [s.key for s in schemas] == ["alpha/v1", "alpha/v2", "alpha/v10", "zeta/v1"]
    assert summary(schemas) == summary(discover(tmp_path))


def test_a_schema_whose_id_is_not_its_uri_leaves_it_to_the_catalog(tmp_path: Path) -> None:
    add_version(tmp_path, "alpha", "v1")
    add_version(tmp_path, "beta", "v1", uri=f"{BASE}/elsewhere/v1")
    assert bundled_schemas(tmp_path) is None


def test_a_schema_without_an_id_or_not_json_leaves_it_to_the_catalog(tmp_path: Path) -> None:
    folder = add_version(tmp_path, "alpha", "v1")
    (folder / "schema.json").write_text('{"type": "object"}', encoding="utf-8")
    assert bundled_schemas(tmp_path) is None
    (folder / "schema.json").write_text("{", encoding="utf-8")
    assert bundled_schemas(tmp_path) is None
    (folder / "schema.json").write_text("[]", encoding="utf-8")
    assert bundled_schemas(tmp_path) is None
