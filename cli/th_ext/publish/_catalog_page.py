"""The index of all extensions: a page for readers and ``index.json`` for programs."""

from __future__ import annotations

import json
import posixpath

from th_ext._catalog import ExtensionVersion

__all__ = ["render_catalog_json", "render_index_page"]


def render_index_page(versions: list[ExtensionVersion], paths: dict[str, str], here: str) -> str:
    """The Markdown index page. ``paths`` maps a version's key to its folder in the site;
    ``here`` is the folder of the index page itself."""
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
        folder = posixpath.relpath(paths[version.key], here)
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
    return "\n".join(lines)


def render_catalog_json(versions: list[ExtensionVersion]) -> str:
    """``index.json``: the machine-readable catalog, stable byte for byte for the same input."""
    document = {
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
        ]
    }
    return json.dumps(document, indent=2, sort_keys=True) + "\n"
