"""Where the extensions' published files are found at run time.

An installed wheel carries them as ``th_ext/_bundled/extensions``; a source checkout (or an
editable install) reads the repository's own ``extensions/`` folder, which is the same tree.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["BundledSchema", "bundled_extensions_dir", "bundled_schemas"]

_PACKAGE_DIR = Path(__file__).resolve().parent
_SCHEMA_SUFFIX = "/schema.json"


@cache
def bundled_extensions_dir() -> Path:
    """The folder that holds ``<name>/<version>/`` for every bundled extension."""
    installed = _PACKAGE_DIR / "_bundled" / "extensions"
    if installed.is_dir():
        return installed
    return _PACKAGE_DIR.parent.parent / "extensions"


class BundledSchema:
    """One bundled version as a validation run needs it: its key, URI and params schema."""

    __slots__ = ("key", "schema_document", "status", "uri")

    def __init__(
        self, key: str, uri: str, schema_document: dict[str, Any], status: str = "stable"
    ) -> None:
        self.key = key
        self.uri = uri
        self.schema_document = schema_document
        self.status = status

    @property
    def schema_url(self) -> str:
        return f"{self.uri}/schema.json"


# The status line of extension.toml, read without a TOML parser (see bundled_schemas).
_DRAFT = re.compile(rb'^status\s*=\s*["\']draft["\']', re.MULTILINE)


def bundled_schemas(root: Path | None = None) -> list[BundledSchema] | None:
    """Every version's key, URI and schema, from its ``schema.json`` alone, in catalog order.

    The catalog reads ``extension.toml`` as well, and importing ``tomllib`` costs a small
    card's validation time again. The publishing checks hold each schema's ``$id`` to the
    version's URI plus ``/schema.json``, so the schema files say which URI each is for. None
    when a folder does not read cleanly that way: the caller then asks the catalog, which
    says what is wrong.
    """
    base = root if root is not None else bundled_extensions_dir()
    found: list[tuple[tuple[str, int], BundledSchema]] = []
    for folder in base.glob("*/*/"):
        if not (folder / "extension.toml").is_file():
            continue
        try:
            schema = json.loads((folder / "schema.json").read_bytes())
        except (OSError, ValueError):
            return None
        schema_id = schema.get("$id") if isinstance(schema, dict) else None
        if not isinstance(schema_id, str) or not schema_id.endswith(_SCHEMA_SUFFIX):
            return None
        uri = schema_id.removesuffix(_SCHEMA_SUFFIX)
        if not uri.endswith(f"/{folder.parent.name}/{folder.name}"):
            return None
        number = folder.name[1:]
        order = (folder.parent.name, int(number) if number.isdigit() else 0)
        draft = _DRAFT.search((folder / "extension.toml").read_bytes()) is not None
        key = f"{folder.parent.name}/{folder.name}"
        found.append((order, BundledSchema(key, uri, schema, "draft" if draft else "stable")))
    return [item for _, item in sorted(found, key=lambda pair: pair[0])]
