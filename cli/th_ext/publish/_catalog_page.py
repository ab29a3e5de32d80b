"""The index of all extensions: a page for readers and ``index.json`` for programs."""

from __future__ import annotations

import json
import posixpath

from th_ext._catalog import ExtensionVersion
from th_ext.publish._external import ExternalExtension

__all__ = ["render_catalog_json", "render_index_page"]


def render_index_page(
    versions: list[ExtensionVersion],
    paths: dict[str, str],
    here: str,
    external: list[ExternalExtension] | None = None,
) -> str:
    """The Markdown index page. ``paths`` maps a version's key to its folder in the site;
    ``here`` is the folder of the index page itself ("" for the site's root)."""
    lines = [
        "---",
        'title: "Extensions"',
        "---",
        "",
        "# Extensions",
        "",
        "Every tiny-harness A2A extension, one row per version. The URI is the identifier an",
        "agent puts on its card; it is also the address of the version's specification, and",
        "its schema is served beside it as `schema.json`.",
        "",
        "| Extension | Version | Status | URI | Schema |",
        "|---|---|---|---|---|",
    ]
    for version in versions:
        folder = posixpath.relpath(paths[version.key], here or ".")
        lines.append(
            f"| [{version.title}]({folder}/index.md) | {version.version} | {version.status} | "
            f"`{version.uri}` | [schema.json]({folder}/schema.json) |"
        )
    lines += [
        "",
        "Programs can read the same list as JSON: [index.json](index.json) gives each",
        "version's URI, schema URL and the sha256 of its schema.",
        "",
    ]
    if external:
        lines += _external_section(external)
    return "\n".join(lines)


def _external_section(external: list[ExternalExtension]) -> list[str]:
    publishers = sorted({entry.publisher for entry in external})
    lines = [
        "## Published elsewhere under the same prefix { #external }",
        "",
        f"These extensions are published by {', '.join(publishers)} itself, not by this project:",
        "their specifications and schemas are served by its own documentation. They are listed",
        "here, marked external, so that every extension under the prefix is in one place.",
        "",
        "| URI | Published by |",
        "|---|---|",
    ]
    lines += [f"| `{entry.uri}` | {entry.publisher} (external) |" for entry in external]
    return [*lines, ""]


def render_catalog_json(
    versions: list[ExtensionVersion], external: list[ExternalExtension] | None = None
) -> str:
    """``index.json``: the machine-readable catalog, stable byte for byte for the same input.

    ``extensions`` are the versions published here; ``external`` the URIs published by the
    host site under the same prefix (``external: true`` on each, so no reader mistakes one).
    """
    document: dict[str, object] = {
        "extensions": [
            {
                "name": version.name,
                "version": version.version,
                "title": version.title,
                "status": version.status,
                "uri": version.uri,
                "schema_url": version.schema_url,
                "schema_sha256": version.schema_sha256,
            }
            for version in versions
        ],
        "external": [
            {"uri": entry.uri, "publisher": entry.publisher, "external": True}
            for entry in external or []
        ],
    }
    return json.dumps(document, indent=2, sort_keys=True) + "\n"
