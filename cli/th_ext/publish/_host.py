"""The host's own schemas in the subtree build: served at their ``$id``, and a page generated
for each that has none of its own."""

from __future__ import annotations

import html
import json
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from th_ext._exceptions import HostSchemaDriftError, PublishError, SchemaError, SiteBuildError
from th_ext.catalog._family import ExternalExtension
from th_ext.catalog._reader import schema_bytes, schema_sha256
from th_ext.catalog._records import ExtensionVersion
from th_ext.catalog._schemas import (
    SchemaFile,
    declared_schema_defect,
    parse_schema_bytes,
    read_schema_folder,
)
from th_ext.publish._field_table import FieldTable, field_tables
from th_ext.validate._positions import first_difference, pointer

__all__ = [
    "HostSchema",
    "HostSchemas",
    "forwarding_page",
    "host_page_title",
    "read_host_schemas",
    "render_host_page",
]


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


def _drift_message(host: HostSchema, version: ExtensionVersion) -> str:
    ours = parse_schema_bytes(schema_bytes(version), str(version.schema_path))
    where = first_difference(host.document, ours)  # the host's order of members first
    place = (
        "the same JSON in other bytes (spacing or key order)"
        if where is None
        else f"first difference at {where or '(root)'}"
    )
    return (
        f"{host.schema_id}: the host's {host.file.name} (sha256 {host.file.sha256}) is not the"
        f" schema this project published (sha256 {schema_sha256(version)}),"
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
        why = f"must be an extension URI under {prefix_url} followed by {_SUFFIX}"
        return None, None, f"{file.name}: $id {schema_id} {why}"
    defect = declared_schema_defect(file.document)
    if defect is not None:
        where = pointer(defect.path) or "(root)"
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


# A reference page for a host extension that has no page of its own, made from its schema.
#
# The host writes the schema; this page only reads it: the URI, the schema's link and sha256,
# where the data travels (from ``extensions/external.toml``), and one field table per object
# definition in the schema's own words (``description``, else ``title``). It says which host
# file it was generated from, so no reader takes it for the host's specification.

_RST_LITERAL = re.compile(r"``([^`]+)``")


def _cell(text: str) -> str:
    return _RST_LITERAL.sub(r"`\1`", " ".join(text.split()).replace("|", "\\|"))


def host_page_title(schema: HostSchema) -> str:
    """``Status extension v1`` for ``…/a2a/ext/status/v1``."""
    *names, version = schema.folder.split("/")
    name = " ".join(names).replace("-", " ") if names else version
    return f"{name[:1].upper()}{name[1:]} extension {version}" if names else name


def _table(table: FieldTable, anchors: dict[str, str], first: bool) -> list[str]:
    role = "the document" if first else "definition"
    lines = [f"### `{table.title}` ({role}) {{ #{table.anchor} }}", ""]
    if table.description:
        lines += [_cell(table.description), ""]
    if not table.rows:
        return [*lines, "No fields.", ""]
    lines += ["| Field | Type | Required | Default | Description |", "|---|---|---|---|---|"]
    for row in table.rows:
        kind = _cell(row.type)
        for title, anchor in anchors.items():
            if row.type == title or row.type.endswith(f" {title}"):
                prefix = _cell(row.type.removesuffix(title)).strip()
                kind = (f"{prefix} " if prefix else "") + f"[`{title}`](#{anchor})"
        default = f"`{_cell(row.default)}`" if row.default is not None else "—"
        lines.append(
            f"| `{_cell(row.name)}` | {kind} | {'yes' if row.required else 'no'} | {default} | "
            f"{_cell(row.description) or '—'} |"
        )
    return [*lines, ""]


def _travels(entry: ExternalExtension | None) -> list[str]:
    if entry is None or not entry.applies_to:
        return ["This project's list of the family does not record where this extension's data"
                " travels.", ""]  # fmt: skip
    return [*(f"- {place}" for place in entry.travels()), ""]


def render_host_page(
    schema: HostSchema, entry: ExternalExtension | None, owner: str, schemas_folder: str
) -> str:
    """The page's Markdown, for ``<folder>/index.md`` beside the served ``schema.json``;
    ``schemas_folder`` is where the owner keeps its schemas (``docs/a2a/ext``)."""
    title = host_page_title(schema)
    source = f"{schemas_folder}/{schema.file.name}"
    summary = " ".join(str(schema.document.get("description", "")).split())
    tables = field_tables(schema.document)
    anchors = {table.title: table.anchor for table in tables}
    lines = [
        "---",
        f"title: {json.dumps(title)}",
        f"description: {json.dumps(f'Reference for {schema.uri}, generated from its schema.')}",
        "---",
        "",
        f"# {title}",
        "",
        f'!!! info "Generated from {owner}\'s `{source}`"',
        "",
        f"    {owner} owns this extension and writes its schema. This page is generated from",
        f"    {owner}'s `{source}` and says nothing the schema does not say.",
        "",
        "- **URI:** `" + schema.uri + "`",
        f"- **Schema:** [`{schema.schema_id}`](schema.json), served byte for byte as {owner}"
        " commits it",
        f"- **sha256:** `{schema.file.sha256}`",
        f"- **Owner:** {owner}",
        "",
    ]
    if summary:
        lines += [_cell(summary), ""]
    lines += ["## Where the data travels", "", *_travels(entry)]
    lines += ["## Fields", ""]
    if tables and tables[0].description == summary:  # said once, above
        tables[0] = tables[0].model_copy(update={"description": ""})
    for index, table in enumerate(tables):
        lines += _table(table, anchors, index == 0)
    lines += [
        "## The schema document { #schema-document }",
        "",
        f'```json title="schema.json"\n{schema.file.content.decode("utf-8").rstrip()}\n```',
        "",
    ]
    return "\n".join(lines)


def forwarding_page(title: str, folder: str, host_page: str) -> bytes:
    """``<folder>/index.html`` leading to the host's clean-URL page ``host_page`` (both
    relative to the subtree). Serving ``<folder>/schema.json`` makes ``<folder>`` a folder,
    and GitHub Pages then answers the URI by redirecting to ``<folder>/``, no longer with the
    host's ``<folder>.html``; this page, in that folder, sends the reader on to it."""
    target = html.escape(posixpath.relpath(host_page, folder), quote=True)
    name = html.escape(title)
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">\n'
        f"<title>{name}</title>\n"
        f'<meta http-equiv="refresh" content="0; url={target}">\n'
        f'<link rel="canonical" href="{target}">\n'
        '<meta name="robots" content="noindex">\n'
        f'</head><body><p>The {name} page is <a href="{target}">here</a>; its schema is'
        ' <a href="schema.json">schema.json</a>.</p></body></html>\n'
    ).encode()
