"""The site plan: every file the extensions add to the built site, and the rules checked first.

This is the whole generation step, as plain functions that need no MkDocs: the MkDocs plugin
only hands the plan's files to the build. A plan is made only when every rule holds; otherwise
``PublishError`` lists every problem found.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from th_ext._exceptions import PublishError
from th_ext.catalog._family import EXTERNAL_FILE_NAME, read_external
from th_ext.catalog._reader import discover, example_bytes, read_file, schema_bytes
from th_ext.catalog._records import ExtensionVersion
from th_ext.publish._catalog_page import (
    ServedSchema,
    family_external,
    render_catalog_json,
    render_index_page,
)
from th_ext.publish._checks import check_version, relative_path
from th_ext.publish._diagrams import (
    DIAGRAMS_DIR,
    check_diagrams,
    standalone_drawing,
    used_diagrams,
)
from th_ext.publish._draft import check_draft_examples
from th_ext.publish._field_text import check_field_descriptions
from th_ext.publish._lock import LOCK_FILE_NAME, check_lock, read_lock
from th_ext.publish._spec_page import render_spec_page
from th_ext.publish._words_lock import read_words

__all__ = ["GeneratedFile", "NavEntry", "SitePlan", "plan_site"]


class GeneratedFile(BaseModel):
    """One file of the built site, by its path relative to the site's root."""

    model_config = ConfigDict(frozen=True)

    path: str
    content: bytes
    kind: Literal["page", "asset"]


class NavEntry(BaseModel):
    model_config = ConfigDict(frozen=True)

    title: str
    path: str


class SitePlan(BaseModel):
    model_config = ConfigDict(frozen=True)

    files: tuple[GeneratedFile, ...]
    nav: tuple[NavEntry, ...]

    def file(self, path: str) -> GeneratedFile:
        for generated in self.files:
            if generated.path == path:
                return generated
        raise KeyError(path)


def _version_files(
    version: ExtensionVersion, folder: str, siblings: list[ExtensionVersion]
) -> list[GeneratedFile]:
    files = [
        GeneratedFile(
            path=f"{folder}/index.md",
            content=render_spec_page(version, siblings, folder).encode("utf-8"),
            kind="page",
        ),
        GeneratedFile(path=f"{folder}/schema.json", content=schema_bytes(version), kind="asset"),
    ]
    files += [
        GeneratedFile(
            path=f"{folder}/examples/{example.file}",
            content=example_bytes(version, example),
            kind="asset",
        )
        for example in version.examples
    ]
    files += [  # each drawing, for its "open full size" link
        GeneratedFile(
            path=f"{folder}/{DIAGRAMS_DIR}/{name}",
            content=standalone_drawing(read_file(version, f"{DIAGRAMS_DIR}/{name}")),
            kind="asset",
        )
        for name in dict.fromkeys(used_diagrams(version))
    ]
    return files


def plan_site(
    site_url: str,
    extensions_dir: Path,
    *,
    index_dir: str = "a2a/ext",
    check_published: bool = True,
    served: Mapping[str, ServedSchema] | None = None,
) -> SitePlan:
    """Check every version under ``extensions_dir`` and plan the files to publish.

    ``check_published`` compares schemas with ``published.lock`` beside the versions.
    ``index_dir`` is where the index and catalog go ("" for the site's root); the URIs listed
    in ``external.toml`` beside the versions join the catalog, marked external. ``served``
    are the host schemas the build serves (by URI), which the catalog links with their sha256.
    """
    versions = discover(extensions_dir)
    external = read_external(extensions_dir / EXTERNAL_FILE_NAME)
    served = served or {}
    publisher = external[0].publisher if external else "the host"
    external = family_external(external, served, publisher)
    problems = [problem for version in versions for problem in check_version(version, site_url)]
    problems += check_draft_examples(versions)
    problems += check_field_descriptions(versions)
    problems += check_diagrams(versions)
    if check_published:
        lock_path = extensions_dir / LOCK_FILE_NAME
        problems += check_lock(versions, read_lock(lock_path), read_words(lock_path))
    paths: dict[str, str] = {}
    for version in versions:
        path = relative_path(version.uri, site_url)
        if path is None:
            continue
        clash = next((key for key, known in paths.items() if known == path), None)
        if clash is not None:
            problems.append(f"{version.key}: URI {version.uri} is also the URI of {clash}")
        paths[version.key] = path
    for entry in external:
        if relative_path(entry.uri, site_url) is None:
            problems.append(f"{entry.uri}: listed as external, but not under {site_url}")
        if any(version.uri == entry.uri for version in versions):
            problems.append(f"{entry.uri}: listed as external, but this project publishes it")
    if problems:
        raise PublishError("; ".join(problems), problems)

    files: list[GeneratedFile] = []
    nav: list[NavEntry] = []
    for version in versions:
        siblings = [other for other in versions if other.name == version.name]
        files += _version_files(version, paths[version.key], siblings)
        nav.append(NavEntry(title=version.title, path=f"{paths[version.key]}/index.md"))
    prefix = f"{index_dir}/" if index_dir else ""
    files.append(
        GeneratedFile(
            path=f"{prefix}index.md",
            content=render_index_page(versions, paths, index_dir, external, served).encode("utf-8"),
            kind="page",
        )
    )
    files.append(
        GeneratedFile(
            path=f"{prefix}index.json",
            content=render_catalog_json(versions, external, served).encode("utf-8"),
            kind="asset",
        )
    )
    return SitePlan(files=tuple(files), nav=tuple(nav))
