"""The commands v1 schema: generated from the models, byte for byte the committed file, and
key for key the schema of the extension's source text."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.seed import canonical_digest, source_schema_digest
from th_ext import find
from th_ext.catalog._reader import schema_document
from th_ext.commands import COMMANDS_V1_URI, commands_v1_schema, render_schema
from th_ext.publish._site_plan import check_schema_source


def test_generated_schema_equals_committed_file_byte_for_byte(extensions_dir: Path) -> None:
    committed = (extensions_dir / "commands" / "v1" / "schema.json").read_bytes()
    assert render_schema(commands_v1_schema()).encode("utf-8") == committed


def test_committed_schema_is_the_source_schema_plus_only_the_dialect(extensions_dir: Path) -> None:
    committed = json.loads((extensions_dir / "commands" / "v1" / "schema.json").read_bytes())
    assert committed.pop("$schema") == "https://json-schema.org/draft/2020-12/schema"
    assert canonical_digest(committed) == source_schema_digest()
    committed["$defs"]["CommandSpec"]["required"].append("argument_hint")
    assert canonical_digest(committed) != source_schema_digest()


def test_schema_id_is_the_uri_plus_schema_json() -> None:
    version = find("commands/v1")
    assert version.uri == COMMANDS_V1_URI
    assert schema_document(version)["$id"] == COMMANDS_V1_URI + "/schema.json"


def test_schema_source_rule_catches_a_drifted_file(tmp_path: Path, extensions_dir: Path) -> None:
    import shutil

    shutil.copytree(extensions_dir / "commands", tmp_path / "commands")
    schema_path = tmp_path / "commands" / "v1" / "schema.json"
    schema = json.loads(schema_path.read_bytes())
    schema["description"] = "edited by hand"
    schema_path.write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n")
    problems = check_schema_source(find("commands/v1", tmp_path))
    assert problems == [
        "commands/v1: schema.json differs from what th_ext.commands:commands_v1_schema generates"
    ]


def test_a_copied_binding_is_ignored_on_a_draft_and_an_error_elsewhere(
    tmp_path: Path, extensions_dir: Path
) -> None:
    import shutil

    from tests.support.new_version import copy_as_draft

    shutil.copytree(extensions_dir, tmp_path / "extensions")
    folder = copy_as_draft(tmp_path / "extensions", "commands/v1", "v9")
    assert check_schema_source(find("commands/v9", tmp_path / "extensions")) == []

    meta = folder / "extension.toml"
    meta.write_text(meta.read_text().replace('status = "draft"', 'status = "stable"'))
    [problem] = check_schema_source(find("commands/v9", tmp_path / "extensions"))
    assert problem.startswith(
        "commands/v9: schema_source th_ext.commands:commands_v1_schema generates the schema "
        f"'{COMMANDS_V1_URI}/schema.json', not this version's"
    )
