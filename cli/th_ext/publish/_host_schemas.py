"""The host's own schemas, served at their ``$id`` by the subtree build.

The host (tiny-harness) commits a JSON Schema for each of its extensions in its repository
(``docs/a2a/ext/<name>.json``); its docs site serves none of them. The subtree build reads
that folder and serves every schema whose ``$id`` lies under the extensions' prefix at the
path of its ``$id``, byte for byte. Everything is checked before anything is written: each
file is JSON, a valid schema of its draft, its ``$id`` ends in ``/schema.json``, no two files
share an ``$id``; and a schema whose ``$id`` this project publishes must be the published one,
byte for byte, or the build stops on the drift (``HostSchemaDriftError``).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from th_ext._exceptions import HostSchemaDriftError, PublishError, SchemaError, SiteBuildError
from th_ext.catalog._reader import schema_bytes
from th_ext.catalog._records import ExtensionVersion
from th_ext.catalog._schema_check import declared_schema_defect
from th_ext.catalog._schema_files import SchemaFile, parse_schema_bytes, read_schema_folder

__all__ = ["HostSchema", "HostSchemas", "first_difference", "read_host_schemas"]

_SUFFIX = "/schema.json"
# One segment of a host schema's path; the path is split on "/" first, so that no pattern
# repeats a repeated group (which dlint's regex check refuses).
_ID_SEGMENT = re.compile(r"[a-z0-9][a-z0-9._-]*")


def _plain_id_path(path: str) -> bool:
    """``status/v1/schema.json``: one or more plain segments, then ``schema.json``."""
    *folders, last = path.split("/")
    return last == "schema.json" and bool(folders) and all(map(_ID_SEGMENT.fullmatch, folders))


@dataclass(frozen=True)
class HostSchema:
    """One host schema to serve: its file, its ``$id`` and its path inside the subtree."""

    file: SchemaFile
    path: str
    """The path of its ``$id`` below the extensions' prefix (``status/v1/schema.json``)."""

    @property
    def schema_id(self) -> str:
        return str(self.file.document["$id"])

    @property
    def uri(self) -> str:
        return self.schema_id.removesuffix(_SUFFIX)

    @property
    def folder(self) -> str:
        """The URI's folder inside the subtree (``status/v1``)."""
        return self.path.removesuffix(_SUFFIX)

    @property
    def document(self) -> dict[str, Any]:
        document: dict[str, Any] = self.file.document
        return document


@dataclass(frozen=True)
class HostSchemas:
    """What a host schema folder adds to the subtree, and what it leaves out."""

    serve: tuple[HostSchema, ...]
    """Schemas to write at their ``$id`` (those this project publishes itself left out)."""
    same_as_published: tuple[HostSchema, ...]
    """Schemas byte-identical to one this project publishes (served by the build anyway)."""
    skipped: tuple[str, ...]
    """``<file> (why)`` for each file that is not served: no ``$id``, or one elsewhere."""


def _pointer_token(key: str | int) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def first_difference(ours: Any, theirs: Any, pointer: str = "") -> str | None:
    """The JSON pointer of the first place where two JSON values differ, or None.

    Objects are walked in ``theirs``' key order, then ``ours``' extra keys; ``1`` and
    ``1.0`` or ``true`` differ, as their bytes do.
    """
    if type(ours) is not type(theirs):
        return pointer
    if isinstance(ours, dict):
        for key in [*theirs, *(key for key in ours if key not in theirs)]:
            if key not in ours or key not in theirs:
                return f"{pointer}/{_pointer_token(key)}"
            found = first_difference(ours[key], theirs[key], f"{pointer}/{_pointer_token(key)}")
            if found is not None:
                return found
        return None
    if isinstance(ours, list):
        for index, (left, right) in enumerate(zip(ours, theirs, strict=False)):
            found = first_difference(left, right, f"{pointer}/{index}")
            if found is not None:
                return found
        if len(ours) != len(theirs):
            return f"{pointer}/{min(len(ours), len(theirs))}"
        return None
    return None if ours == theirs else pointer


def _drift_message(host: HostSchema, version: ExtensionVersion) -> str:
    ours = parse_schema_bytes(schema_bytes(version), str(version.schema_path))
    where = first_difference(ours, host.document)
    place = (
        "the same JSON in other bytes (spacing or key order)"
        if where is None
        else f"first difference at {where or '(root)'}"
    )
    published = hashlib.sha256(schema_bytes(version)).hexdigest()
    return (
        f"{host.schema_id}: the host's {host.file.name} (sha256 {host.file.sha256}) is not the"
        f" schema this project published (sha256 {published}),"
        f" {place}; a published schema never changes: restore the published one and publish"
        f" the change as a new version ({version.name}/v{_next(version.version)})"
    )


def _next(version: str) -> int:
    return int(version.removeprefix("v")) + 1 if version.removeprefix("v").isdigit() else 2


def _check(file: SchemaFile, prefix_url: str) -> tuple[HostSchema | None, str | None, str | None]:
    """``(schema to serve, skip note, problem)`` for one readable file."""
    schema_id = file.schema_id
    if schema_id is None:
        return None, f"{file.name} (no $id)", None
    if not schema_id.startswith(prefix_url):
        return None, f"{file.name} ($id outside {prefix_url})", None
    path = schema_id[len(prefix_url) :]
    if not _plain_id_path(path):
        return (
            None,
            None,
            (
                f"{file.name}: $id {schema_id} must be an extension URI under {prefix_url}"
                f" followed by {_SUFFIX}"
            ),
        )
    defect = declared_schema_defect(file.document)
    if defect is not None:
        where = "".join(f"/{_pointer_token(part)}" for part in defect.path) or "(root)"
        return None, None, f"{file.name}: not a valid JSON Schema at {where}: {defect.message}"
    return HostSchema(file=file, path=path), None, None


def read_host_schemas(
    folder: Path, prefix_url: str, versions: list[ExtensionVersion]
) -> HostSchemas:
    """Read and check every host schema in ``folder`` against the extensions' prefix URL
    (``https://…/tiny-harness/a2a/ext/``) and this project's published ``versions``.

    Raises ``PublishError`` listing every problem, or ``HostSchemaDriftError`` for a schema
    that differs from the one published here; in either case before anything is written.
    """
    try:
        files, problems = read_schema_folder(folder)
    except SchemaError as exc:
        raise SiteBuildError(f"host schemas: {exc}") from None
    problems = [f"host schemas: {problem}" for problem in problems]
    found: list[HostSchema] = []
    skipped: list[str] = []
    for file in files:
        schema, skip, problem = _check(file, prefix_url)
        if problem is not None:
            problems.append(f"host schemas: {problem}")
        if skip is not None:
            skipped.append(skip)
        if schema is None:
            continue
        twin = next((known for known in found if known.schema_id == schema.schema_id), None)
        if twin is not None:
            problems.append(
                f"host schemas: {twin.file.name} and {file.name} both have $id {schema.schema_id}"
            )
            continue
        found.append(schema)
    if problems:
        raise PublishError("; ".join(problems), problems)
    published = {version.schema_url: version for version in versions}
    serve: list[HostSchema] = []
    same: list[HostSchema] = []
    for schema in found:
        version = published.get(schema.schema_id)
        if version is None:
            serve.append(schema)
        elif schema_bytes(version) == schema.file.content:
            same.append(schema)
        else:
            raise HostSchemaDriftError(_drift_message(schema, version))
    return HostSchemas(serve=tuple(serve), same_as_published=tuple(same), skipped=tuple(skipped))
