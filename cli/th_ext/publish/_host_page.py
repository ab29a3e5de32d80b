"""A reference page for a host extension that has no page of its own, made from its schema.

The host writes the schema; this page only reads it: the URI, the schema's link and sha256,
where the data travels (from ``extensions/external.toml``), and one field table per object
definition in the schema's own words (``description``, else ``title``). It says which host
file it was generated from, so no reader takes it for the host's specification.
"""

from __future__ import annotations

import html
import json
import posixpath
import re

from th_ext.catalog._family import ExternalExtension
from th_ext.publish._field_table import FieldTable, field_tables
from th_ext.publish._host_schemas import HostSchema

__all__ = ["forwarding_page", "host_page_title", "render_host_page"]

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
