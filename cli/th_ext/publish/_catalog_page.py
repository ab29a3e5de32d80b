"""The index of all extensions: a page for readers and ``index.json`` for programs."""

from __future__ import annotations

import json
import posixpath
from collections.abc import Mapping
from dataclasses import dataclass

from th_ext.catalog._family import ExternalExtension
from th_ext.catalog._reader import schema_sha256
from th_ext.catalog._records import ExtensionVersion
from th_ext.publish._spec_page import _cell

__all__ = ["OWN_OWNER", "ServedSchema", "render_catalog_json", "render_index_page"]

OWN_OWNER = "th-ext"
"""The owner named for the schemas this project writes (``extensions/<name>/<version>/``)."""


@dataclass(frozen=True)
class ServedSchema:
    """A host schema this build serves at its ``$id``, and whether it wrote a page for it."""

    uri: str
    folder: str
    """The URI's folder in the site (``a2a/ext/status/v1``)."""
    sha256: str
    page_generated: bool
    """True for a page generated from the schema; False when the host has a page there."""


def render_index_page(
    versions: list[ExtensionVersion],
    paths: dict[str, str],
    here: str,
    external: list[ExternalExtension] | None = None,
    served: Mapping[str, ServedSchema] | None = None,
) -> str:
    """The Markdown index page. ``paths`` maps a version's key to its folder in the site;
    ``here`` is the folder of the index page itself ("" for the site's root); ``served``
    the host schemas this build serves, by URI."""
    lines = [
        "---",
        'title: "Extensions"',
        "---",
        "",
        "# Extensions",
        "",
        "Every tiny-harness A2A extension, one row per version. The URI is the identifier an",
        "agent puts on its card and the address of the version's page.",
        "",
        "| Extension | Version | Status | URI | Schema | sha256 | Owner |",
        "|---|---|---|---|---|---|---|",
    ]
    for version in versions:
        folder = posixpath.relpath(paths[version.key], here or ".")
        lines.append(
            f"| [{version.title}]({folder}/index.md) | {version.version} | {version.status} | "
            f"`{version.uri}` | [schema.json]({folder}/schema.json) | "
            f"`{schema_sha256(version)[:12]}…` | {OWN_OWNER} |"
        )
    lines += [
        "",
        "Each schema listed above is served beside its page as `schema.json`, the address its",
        "`$id` names. Programs can read the same list as JSON: [index.json](index.json) gives",
        "each version's URI, schema URL, owner and the full sha256 of its schema.",
        "",
    ]
    if external:
        lines += _external_section(external, served or {}, here)
    return "\n".join(lines)


def _external_section(
    external: list[ExternalExtension], served: Mapping[str, ServedSchema], here: str
) -> list[str]:
    publishers = sorted({entry.publisher for entry in external})
    lines = [
        "## The host's own extensions { #external }",
        "",
        f"{', '.join(publishers)} owns these extensions and writes their schemas in its own",
        "repository; this project does not write them. A schema that this build served from",
        "that repository is linked with its sha256, and so is the extension's page; the others",
        "are neither served nor linked here.",
        "",
        "| URI | Page | Schema | sha256 | Data | Owner |",
        "|---|---|---|---|---|---|",
    ]
    for entry in external:
        known = served.get(entry.uri)
        if known is None:  # nothing is known of a page or schema at its URI: no link
            page, schema, digest = "not built here", "not served here", "—"
        else:
            folder = posixpath.relpath(known.folder, here or ".")
            page = (
                f"[reference]({folder}/index.md)"
                if known.page_generated
                else f"[at its URI]({entry.uri})"
            )
            schema, digest = f"[schema.json]({folder}/schema.json)", f"`{known.sha256[:12]}…`"
        data = "; ".join(entry.applies_to) or "—"
        lines.append(
            f"| `{entry.uri}` | {page} | {schema} | {digest} | {_cell(data)} | {entry.publisher} |"
        )
    return [*lines, ""]


def family_external(
    external: list[ExternalExtension], served: Mapping[str, ServedSchema], publisher: str
) -> list[ExternalExtension]:
    """``external`` plus a plain entry for every served host schema it does not list."""
    listed = {entry.uri for entry in external}
    extra = [
        ExternalExtension(uri=uri, publisher=publisher)
        for uri in sorted(served)
        if uri not in listed
    ]
    return [*external, *extra]


def render_catalog_json(
    versions: list[ExtensionVersion],
    external: list[ExternalExtension] | None = None,
    served: Mapping[str, ServedSchema] | None = None,
) -> str:
    """``index.json``: the machine-readable catalog, stable byte for byte for the same input.

    ``extensions`` are the versions published here; ``external`` the host's own extensions
    under the same prefix (``external: true`` on each, so no reader mistakes one), each with
    its schema's URL and sha256, and its page's URL, only when this build served the schema
    (else null): only then does the build know the page and the schema are there.
    """
    served = served or {}
    document: dict[str, object] = {
        "extensions": [
            {
                "name": version.name,
                "version": version.version,
                "title": version.title,
                "status": version.status,
                "uri": version.uri,
                "page_url": version.uri,
                "schema_url": version.schema_url,
                "schema_sha256": schema_sha256(version),
                "owner": OWN_OWNER,
                "applies_to": ["card params"],
            }
            for version in versions
        ],
        "external": [
            {
                "uri": entry.uri,
                "publisher": entry.publisher,
                "owner": entry.publisher,
                "external": True,
                "page_url": entry.uri if entry.uri in served else None,
                "schema_url": entry.schema_url if entry.uri in served else None,
                "schema_sha256": served[entry.uri].sha256 if entry.uri in served else None,
                "applies_to": list(entry.applies_to),
                "host_file": entry.host_path,
                "metadata_key": entry.metadata_key,
                "media_type": entry.media_type,
            }
            for entry in external or []
        ],
    }
    return json.dumps(document, indent=2, sort_keys=True) + "\n"
