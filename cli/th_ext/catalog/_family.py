"""The family's other extensions: those under the same URI prefix whose schemas the host
writes, and their schemas found for a run of ``validate`` or ``conform``."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal, get_args

from th_ext._exceptions import CatalogError, SchemaError, is_file, is_folder
from th_ext.catalog._records import bundled_extensions_dir
from th_ext.catalog._schemas import SchemaFile, declared_schema_defect, read_schema_file

__all__ = [
    "EXTERNAL_FILE_NAME",
    "AppliesTo",
    "ExternalExtension",
    "FamilySchema",
    "bundled_external",
    "checked_schema",
    "family_entry",
    "family_key",
    "read_external",
    "schemas_from_folder",
    "unknown_schema_hint",
]


EXTERNAL_FILE_NAME = "external.toml"

AppliesTo = Literal[
    "card params",
    "Task.metadata key",
    "status update metadata key",
    "data part media type",
]
_APPLIES_TO: tuple[str, ...] = get_args(AppliesTo)
_KEYS = {"uri", "host_file", "applies_to", "metadata_key", "media_type"}
_HOST_FILE = re.compile(r"[a-z0-9][a-z0-9._-]*\.json")
_MEDIA_TYPE = re.compile(r"[a-z0-9][a-z0-9!#$&^_.+-]*/[a-z0-9][a-z0-9!#$&^_.+-]*")


@dataclass(frozen=True)
class ExternalExtension:
    """One extension URI whose schema someone else (``publisher``) writes."""

    uri: str
    publisher: str
    host_file: str | None = None
    """The schema's file name in the publisher's ``schemas_folder`` (``status.json``)."""
    applies_to: tuple[AppliesTo, ...] = ()
    metadata_key: str | None = None
    media_type: str | None = None
    schemas_folder: str = "docs/a2a/ext"

    @property
    def schema_url(self) -> str:
        return f"{self.uri}/schema.json"

    @property
    def host_path(self) -> str | None:
        """Where the schema lives in the publisher's repository (``docs/a2a/ext/status.json``)."""
        return f"{self.schemas_folder}/{self.host_file}" if self.host_file else None

    def travels(self) -> list[str]:
        """Where the schema's data travels, one phrase per place, in words for a reader."""
        places: list[str] = []
        for kind in self.applies_to:
            if kind == "card params":
                places.append("the `params` of its entry in the agent card's extensions")
            elif kind == "Task.metadata key":
                places.append(f'`Task.metadata["{self.metadata_key}"]`')
            elif kind == "status update metadata key":
                places.append(f'`TaskStatusUpdateEvent.metadata["{self.metadata_key}"]`')
            else:
                places.append(f"data parts whose media type is `{self.media_type}`")
        return places


def _entry(
    entry: object, number: int, publisher: str, folder: str, where: Path
) -> ExternalExtension:
    def entry_error(why: str) -> CatalogError:
        return CatalogError(f"{where}: extension {number}: {why}")

    if not isinstance(entry, dict):
        raise entry_error("must be an [[extension]] table")
    uri = entry.get("uri")
    if not isinstance(uri, str) or not uri.startswith("https://") or uri.endswith("/"):
        raise entry_error("'uri' must be an https URI without a trailing '/'")
    unknown = sorted(set(entry) - _KEYS)
    if unknown:
        raise entry_error(f"unknown key {unknown[0]!r}")
    host_file = entry.get("host_file")
    if host_file is not None and (
        not isinstance(host_file, str) or not _HOST_FILE.fullmatch(host_file)
    ):
        raise entry_error("'host_file' must be a file name ending in .json")
    applies_to = entry.get("applies_to", [])
    if not isinstance(applies_to, list) or any(kind not in _APPLIES_TO for kind in applies_to):
        raise entry_error(f"'applies_to' must be a list of: {', '.join(_APPLIES_TO)}")
    if len(set(applies_to)) != len(applies_to):
        raise entry_error("'applies_to' names a place twice")
    metadata_key = entry.get("metadata_key")
    wants_key = {"Task.metadata key", "status update metadata key"} & set(applies_to)
    if bool(wants_key) != isinstance(metadata_key, str) or metadata_key == "":
        raise entry_error(
            "'metadata_key' is a non-empty string exactly when a metadata key is named"
        )
    media_type = entry.get("media_type")
    wants_type = "data part media type" in applies_to
    if wants_type != (isinstance(media_type, str) and bool(_MEDIA_TYPE.fullmatch(media_type))):
        raise entry_error(
            "'media_type' is a media type exactly when a data part media type is named"
        )
    return ExternalExtension(
        uri=uri,
        publisher=publisher,
        host_file=host_file,
        applies_to=tuple(applies_to),
        metadata_key=metadata_key,
        media_type=media_type,
        schemas_folder=folder,
    )


def read_external(path: Path) -> list[ExternalExtension]:
    """The external extensions listed in ``path``, in file order; none when it is absent."""
    if not is_file(path):
        return []
    import tomllib  # read only when a run needs the family

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CatalogError(f"{path}: cannot be read: {exc}") from None
    publisher = data.get("publisher")
    folder = data.get("schemas_folder", "docs/a2a/ext")
    entries = data.get("extension", [])
    if not isinstance(publisher, str) or not publisher.strip():
        raise CatalogError(f"{path}: 'publisher' must name who publishes these extensions")
    if not isinstance(folder, str) or not folder.strip("/"):
        raise CatalogError(f"{path}: 'schemas_folder' must name a folder of the publisher's")
    if not isinstance(entries, list):
        raise CatalogError(f"{path}: 'extension' must be a list of [[extension]] tables")
    unknown = sorted(set(data) - {"publisher", "schemas_folder", "extension"})
    if unknown:
        raise CatalogError(f"{path}: unknown key {unknown[0]!r}")
    found: list[ExternalExtension] = []
    for number, raw in enumerate(entries, start=1):
        entry = _entry(raw, number, publisher, folder.strip("/"), path)
        if any(known.uri == entry.uri for known in found):
            raise CatalogError(f"{path}: {entry.uri} is listed twice")
        found.append(entry)
    return found


@cache
def bundled_external() -> tuple[ExternalExtension, ...]:
    """The family's external extensions as this installation knows them."""
    return tuple(read_external(bundled_extensions_dir() / EXTERNAL_FILE_NAME))


# The schemas of the family's other extensions, found for a run of ``validate`` or ``conform``.
#
# This project bundles only its own schemas; the host's (tiny-harness's ``task``, ``status``,
# ``media``...) are its own. A run finds them, in order, in a folder given with ``--schemas``
# (a tiny-harness checkout's ``docs/a2a/ext``), then, only with ``--fetch-schemas``, at their
# ``$id`` (``th_ext.catalog._family_fetch``). A schema found is checked: it must be a valid
# schema and its ``$id`` the extension's URI plus ``/schema.json``. An extension whose schema
# is not found stays unchecked, with a note that says how to provide it.


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
    if not is_folder(folder):
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
