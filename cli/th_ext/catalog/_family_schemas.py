"""The schemas of the family's other extensions, found for a run of ``validate`` or ``conform``.

This project bundles only its own schemas; the host's (tiny-harness's ``task``, ``status``,
``media``...) are its own. A run finds them, in order, in a folder given with ``--schemas``
(a tiny-harness checkout's ``docs/a2a/ext``), then, only with ``--fetch-schemas``, at their
``$id`` (``th_ext.catalog._family_fetch``). A schema found is checked: it must be a valid schema and
its ``$id`` the extension's URI plus ``/schema.json``. An extension whose schema is not found
stays unchecked, with a note that says how to provide it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from th_ext._exceptions import SchemaError
from th_ext.catalog._family import ExternalExtension, bundled_external
from th_ext.catalog._schema_check import declared_schema_defect
from th_ext.catalog._schema_files import SchemaFile, read_schema_file

__all__ = [
    "FamilySchema",
    "checked_schema",
    "family_entry",
    "family_key",
    "schemas_from_folder",
    "unknown_schema_hint",
]


@dataclass(frozen=True)
class FamilySchema:
    """One host extension's schema as a run uses it, and where it came from."""

    entry: ExternalExtension
    document: dict[str, Any]
    sha256: str
    origin: str
    """The file or URL it was read from."""

    @property
    def uri(self) -> str:
        return self.entry.uri

    @property
    def key(self) -> str:
        return family_key(self.entry.uri)


def family_key(uri: str) -> str:
    """``status/v1`` for ``…/a2a/ext/status/v1``: the last two parts of the URI."""
    return "/".join(uri.rstrip("/").split("/")[-2:])


def family_entry(uri: str) -> ExternalExtension | None:
    """The family's entry for ``uri`` (as ``extensions/external.toml`` lists it), or None."""
    return next((entry for entry in bundled_external() if entry.uri == uri), None)


def unknown_schema_hint(entry: ExternalExtension) -> str:
    """How to give a run the schema of ``entry``, in one line."""
    where = entry.host_path or f"{entry.schemas_folder}/<name>.json"
    return (
        f"give {entry.publisher}'s {entry.schemas_folder} folder with --schemas DIR (it holds"
        f" {where.rsplit('/', 1)[-1]}), or fetch {entry.schema_url} with --fetch-schemas"
    )


def checked_schema(file: SchemaFile, entry: ExternalExtension, origin: str) -> FamilySchema:
    """``file`` as ``entry``'s schema; ``SchemaError`` when it cannot serve as one."""
    if file.schema_id != entry.schema_url:
        raise SchemaError(f"{origin}: its $id is {file.schema_id!r}, not {entry.schema_url}")
    defect = declared_schema_defect(file.document)
    if defect is not None:
        where = "".join(f"/{part}" for part in defect.path) or "(root)"
        raise SchemaError(f"{origin}: not a valid JSON Schema at {where}: {defect.message}")
    return FamilySchema(entry=entry, document=file.document, sha256=file.sha256, origin=origin)


def schemas_from_folder(
    folder: Path, entries: Iterable[ExternalExtension] | None = None
) -> list[FamilySchema]:
    """The family's schemas found in ``folder``, by ``$id`` (a file of any name).

    A file that cannot be read is ignored unless it is an entry's ``host_file`` (then it is a
    ``SchemaError``), as is a file whose ``$id`` names an extension outside the family.
    """
    if not folder.is_dir():
        raise SchemaError(f"--schemas {folder}: not a folder")
    wanted = {entry.schema_url: entry for entry in (entries or bundled_external())}
    host_files = {entry.host_file for entry in wanted.values() if entry.host_file}
    found: dict[str, FamilySchema] = {}
    for path in sorted(folder.glob("*.json")):
        try:
            file = read_schema_file(path)
        except SchemaError:
            if path.name in host_files:
                raise
            continue
        entry = wanted.get(file.schema_id or "")
        if entry is None:
            continue
        if entry.uri in found:
            raise SchemaError(
                f"--schemas {folder}: {found[entry.uri].origin} and {path} both have $id"
                f" {entry.schema_url}"
            )
        found[entry.uri] = checked_schema(file, entry, str(path))
    return list(found.values())
