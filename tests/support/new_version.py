"""Starting a new extension version the way CONTRIBUTING.md says: copy a folder, change the URI
and ``$id``, set ``status = "draft"``, and nothing else (the copied ``schema_source`` stays)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

__all__ = ["copy_as_draft"]


def copy_as_draft(
    extensions_dir: Path, key: str, new_version: str, *, retarget_examples: bool = True
) -> Path:
    """Copy ``extensions/<key>`` to ``<name>/<new_version>`` as a draft; return the new folder.

    The URI is changed in ``extension.toml`` and the schema's ``$id``; with
    ``retarget_examples`` also in the examples, as a search-and-replace over the folder does.
    """
    name, old_version = key.split("/")
    source = extensions_dir / name / old_version
    target = extensions_dir / name / new_version
    shutil.copytree(source, target)
    old_path, new_path = f"/{name}/{old_version}", f"/{name}/{new_version}"
    meta_path = target / "extension.toml"
    meta = meta_path.read_text(encoding="utf-8")
    meta = meta.replace(f'version = "{old_version}"', f'version = "{new_version}"', 1)
    meta = meta.replace(old_path, new_path)
    meta = meta.replace('status = "stable"', 'status = "draft"', 1)
    meta = meta.replace(f"extension {old_version}", f"extension {new_version}")
    meta_path.write_text(meta, encoding="utf-8")
    schema_path = target / "schema.json"
    schema = json.loads(schema_path.read_bytes())
    schema["$id"] = schema["$id"].replace(old_path, new_path)
    schema_path.write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    if retarget_examples:
        for example in (target / "examples").iterdir():
            text = example.read_text(encoding="utf-8")
            example.write_text(text.replace(old_path, new_path), encoding="utf-8")
    return target
