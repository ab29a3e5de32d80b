"""The Markdown of one extension version's specification page.

The page is assembled from the version's folder: a header (URI, schema, status), the
specification text from ``spec.md`` with its example directives expanded, the field tables and
the raw schema, every worked example, and the version history.
"""

from __future__ import annotations

import json
import re

from th_ext._exceptions import PublishError
from th_ext.catalog._reader import example_bytes, schema_bytes
from th_ext.catalog._records import Example, ExtensionVersion
from th_ext.publish._check_box import check_box
from th_ext.publish._diagrams import inline_diagrams
from th_ext.publish._draft import draft_banner, publication_lines
from th_ext.publish._field_table import FieldTable
from th_ext.publish._field_text import described_field_tables
from th_ext.publish._requirements_page import (
    annotate_requirements,
    errata_section,
    requirements_section,
)

__all__ = ["EXAMPLE_DIRECTIVE", "INLINE_LIMIT", "render_spec_page"]

EXAMPLE_DIRECTIVE = re.compile(r"^<!-- th-ext:example (?P<file>\S+) -->$", re.MULTILINE)
_RST_LITERAL = re.compile(r"``(.+?)``")
# A requirement tag of the extension owner's text, such as "(R6.7)": a reference, not prose.
_REQUIREMENT_TAG = re.compile(r" ?\((R[0-9][0-9.]*)\)")
# An example bigger than this is linked, not shown: highlighting a 40 MB block takes a
# gigabyte and makes a page nobody reads.
INLINE_LIMIT = 64 * 1024


def _cell(text: str) -> str:
    """Text made safe for one Markdown table cell."""
    return " ".join(text.split()).replace("|", "\\|")


def _prose(text: str) -> str:
    """A schema description as Markdown: reST ````literals```` become code spans, and a
    requirement tag such as ``(R6.7)`` a small reference after the words it marks."""
    text = _RST_LITERAL.sub(r"`\1`", text)
    text = _REQUIREMENT_TAG.sub(
        r' <small class="th-ref" title="requirement \1 of tiny-harness">\1</small>', text
    )
    return _cell(text)


def _json_block(text: str, title: str | None = None) -> str:
    """A JSON code block, left out of the site's search index: every page downloads that
    index, and the punctuation and keys of an example are not what a reader searches for."""
    header = f'```json title="{title}"' if title else "```json"
    return f"<div markdown data-search-exclude>\n\n{header}\n{text.rstrip()}\n```\n\n</div>"


def _shown_example(version: ExtensionVersion, example: Example) -> str:
    """The example as a code block, or, past ``INLINE_LIMIT``, a link to download it."""
    content = example_bytes(version, example)
    if len(content) > INLINE_LIMIT:
        return (
            f"*{example.file} is {len(content) // 1024} KiB, too big to show on this page:"
            f" [download it](examples/{example.file}).*"
        )
    return _json_block(content.decode("utf-8"), example.file)


def _example_block(version: ExtensionVersion, file: str) -> str:
    for example in version.examples:
        if example.file == file:
            return _shown_example(version, example)
    raise PublishError(f"{version.key}: spec.md shows example {file}, which extension.toml lacks")


def _type_cell(type_name: str, anchors: dict[str, str]) -> str:
    for title, anchor in anchors.items():
        if type_name == title or type_name.endswith(f" {title}"):
            prefix = _cell(type_name.removesuffix(title))
            return (f"{prefix} " if prefix else "") + f"[`{title}`](#{anchor})"
    return _cell(type_name)


def _field_section(tables: list[FieldTable]) -> str:
    anchors = {table.title: table.anchor for table in tables}
    parts = []
    for index, table in enumerate(tables):
        role = "the `params` object" if index == 0 else "definition"
        lines = [f"### `{table.title}` ({role}) {{ #{table.anchor} }}", ""]
        if table.description:
            lines += [_prose(table.description), ""]
        lines += [
            '<div class="th-fields" markdown>',
            "",
            "| Field | Type | Required | Default | Description |",
            "|---|---|---|---|---|",
        ]
        lines += [
            f"| `{row.name}` | {_type_cell(row.type, anchors)} | "
            f"{'yes' if row.required else 'no'} | "
            f"{f'`{_cell(row.default)}`' if row.default is not None else '—'} | "
            f"{_prose(row.description) or '—'} |"
            for row in table.rows
        ]
        lines += ["", "</div>"]
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def _examples_section(version: ExtensionVersion) -> str:
    blocks = []
    for example in version.examples:
        verdict = (
            ""
            if example.params_pointer is None
            else " It passes the schema."
            if example.valid
            else " It fails the schema, as it should."
        )
        blocks.append(
            f"### {example.title}\n\n{example.description}{verdict}\n\n"
            + _shown_example(version, example)
            + f"\n\n[Download {example.file}](examples/{example.file})"
        )
    return "\n\n".join(blocks)


def _history_section(version: ExtensionVersion, siblings: list[ExtensionVersion]) -> str:
    lines = ["| Date | Change |", "|---|---|"]
    lines += [f"| {entry.date} | {_cell(entry.change)} |" for entry in version.history]
    others = [other for other in siblings if other.key != version.key]
    if others:
        links = ", ".join(
            f"[{other.version}](../{other.version}/index.md) ({other.status})" for other in others
        )
        lines += ["", f"Other versions of this extension: {links}."]
    return "\n".join(lines)


def render_spec_page(
    version: ExtensionVersion, siblings: list[ExtensionVersion], folder: str | None = None
) -> str:
    """The page's Markdown; ``siblings`` are all versions of the same extension. ``folder``
    is where the page is in the docs (``a2a/ext/commands/v1``): given, the page carries the
    "Check your agent" box, linked to the th-ext pages from there."""
    body = EXAMPLE_DIRECTIVE.sub(
        lambda match: _example_block(version, match["file"]),
        annotate_requirements(version, inline_diagrams(version)),
    )
    schema_text = schema_bytes(version).decode("utf-8")
    front_matter = {
        "title": version.title,
        "description": version.summary,
    }
    if version.status == "draft":  # the navigation marks the page (mkdocs.yml extra.status)
        front_matter["status"] = "draft"
    header = [
        "---",
        *(f"{key}: {json.dumps(value)}" for key, value in front_matter.items()),
        "---",
        "",
        f"# {version.title}",
        "",
        version.summary,
        "",
        *draft_banner(version),
        '!!! info "Identifiers"',
        "",
        f"    - **URI:** `{version.uri}`",
        f"    - **Schema:** [`{version.schema_url}`](schema.json)",
        f"    - **Status:** {version.status}",
        *publication_lines(version),
        "",
        *(check_box(version, folder) if folder is not None else []),
    ]
    sections = [
        "\n".join(header),
        body.strip(),
        *filter(None, [requirements_section(version)]),
        "## Schema\n\nThe extension's `params` on the agent card must validate against this "
        "schema (JSON Schema draft 2020-12). Absent `params` mean an empty object.",
        _field_section(described_field_tables(version)),
        "### The schema document { #schema-document }\n\n"
        f"Served at `{version.schema_url}`, where its `$id` points.\n\n"
        '[Download schema.json](schema.json){ download="schema.json" .md-button '
        "#download-schema }\n\n" + _json_block(schema_text, "schema.json"),
        "## Examples\n\n" + _examples_section(version),
        "## Version history\n\n" + _history_section(version, siblings),
        *filter(None, [errata_section(version)]),
    ]
    return "\n\n".join(sections) + "\n"
