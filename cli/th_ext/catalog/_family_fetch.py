"""The family's schemas of a run: from a folder, and with ``--fetch-schemas`` from their ``$id``,
pinned and cached."""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from th_ext._exceptions import SchemaError, SourceError
from th_ext.catalog._family import (
    AppliesTo,
    ExternalExtension,
    FamilySchema,
    bundled_external,
    checked_schema,
    family_key,
    schemas_from_folder,
)
from th_ext.catalog._schemas import MAX_SCHEMA_BYTES, SchemaFile, parse_schema_bytes
from th_ext.problems import Problem
from th_ext.sources._source import SourceLimits, read_source

__all__ = [
    "FetchedSchemas",
    "Fetcher",
    "family_schemas",
    "fetch_family_schemas",
    "http_fetcher",
    "user_cache_dir",
]

Fetcher = Callable[[str], bytes]
"""Reads one URL's body; raises ``SourceError`` when it cannot."""


@dataclass(frozen=True)
class FetchedSchemas:
    """What ``--fetch-schemas`` found: the schemas, the changed ones, and remarks."""

    schemas: tuple[FamilySchema, ...]
    changed: tuple[tuple[ExternalExtension, str], ...]
    """An entry whose schema is not the pinned one, with the message naming both hashes."""
    notes: tuple[str, ...]


def user_cache_dir() -> Path:
    """Where fetched schemas are kept: ``TH_EXT_CACHE_DIR``, else the platform's user cache
    folder (``$XDG_CACHE_HOME`` or ``~/.cache`` on Linux), under ``th-ext/schemas``."""
    override = os.environ.get("TH_EXT_CACHE_DIR")
    if override:
        return Path(override)
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "th-ext" / "schemas"


def http_fetcher(limits: SourceLimits) -> Fetcher:
    """GET a URL under ``limits``' timeout and byte cap, sending none of its headers."""
    bare = SourceLimits(timeout=limits.timeout, max_bytes=min(limits.max_bytes, MAX_SCHEMA_BYTES))

    def read_schema_url(url: str) -> bytes:
        return read_source(url, bare, well_known=False).data

    return read_schema_url


def _pins(catalog: Any) -> dict[str, str]:
    pins: dict[str, str] = {}
    if not isinstance(catalog, dict):
        return pins
    for group in ("extensions", "external"):
        entries = catalog.get(group)
        for item in entries if isinstance(entries, list) else []:
            if not isinstance(item, dict):
                continue
            uri, digest = item.get("uri"), item.get("schema_sha256")
            if isinstance(uri, str) and isinstance(digest, str) and len(digest) == 64:
                pins[uri] = digest
    return pins


class _Cache:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.index_path = folder / "index.json"
        try:
            index = json.loads(self.index_path.read_bytes())
        except (OSError, ValueError):
            index = {}
        self.index: dict[str, str] = index if isinstance(index, dict) else {}

    def get(self, digest: str) -> bytes | None:
        try:
            content = (self.folder / f"{digest}.json").read_bytes()
        except OSError:
            return None
        return content if hashlib.sha256(content).hexdigest() == digest else None

    def put(self, url: str, content: bytes) -> None:
        digest = hashlib.sha256(content).hexdigest()
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            (self.folder / f"{digest}.json").write_bytes(content)
            self.index[url] = digest
            self.index_path.write_text(json.dumps(self.index, indent=2, sort_keys=True) + "\n")
        except OSError:
            pass  # a cache that cannot be written only costs a fetch next time


def _schema(content: bytes, entry: ExternalExtension, origin: str) -> FamilySchema:
    document = parse_schema_bytes(content, origin)
    file = SchemaFile(name=origin, content=content, document=document)
    return checked_schema(file, entry, origin)


def fetch_family_schemas(
    entries: Iterable[ExternalExtension], fetcher: Fetcher, cache_dir: Path
) -> FetchedSchemas:
    """Each entry's schema from its ``$id`` (or the cache), pinned by its sha256.

    The published catalog (``…/a2a/ext/index.json``) pins a schema it gives the sha256 of: a
    cached copy with that hash is used unfetched, and a fetched one with another hash is
    ``changed``. Without such a pin, the copy cached by an earlier run pins it.
    """
    cache = _Cache(cache_dir)
    catalogs: dict[str, dict[str, str]] = {}
    schemas: list[FamilySchema] = []
    changed: list[tuple[ExternalExtension, str]] = []
    notes: list[str] = []
    for entry in entries:
        prefix = entry.uri.rsplit("/", 2)[0] + "/"
        if prefix not in catalogs:
            try:
                catalogs[prefix] = _pins(parse_schema_bytes(fetcher(prefix + "index.json"), ""))
            except (SourceError, SchemaError) as exc:
                catalogs[prefix] = {}
                notes.append(f"the catalog {prefix}index.json was not read ({exc}); no pin")
        pin = catalogs[prefix].get(entry.uri) or cache.index.get(entry.schema_url)
        pinned_by = "the published catalog" if entry.uri in catalogs[prefix] else "the cache"
        cached = cache.get(pin) if pin else None
        if cached is not None and entry.uri in catalogs[prefix]:
            schemas.append(_schema(cached, entry, entry.schema_url))
            continue
        try:
            content = fetcher(entry.schema_url)
        except SourceError as exc:
            if cached is not None:
                notes.append(f"{entry.schema_url} was not fetched ({exc}); the cached copy used")
                schemas.append(_schema(cached, entry, entry.schema_url))
            else:
                notes.append(f"{entry.schema_url} was not fetched ({exc})")
            continue
        digest = hashlib.sha256(content).hexdigest()
        if pin is not None and digest != pin:
            message = (
                f"the schema at {entry.schema_url} changed: sha256 {digest}, but"
                f" {pinned_by} has {pin}; a published schema never changes"
            )
            changed.append((entry, message))
            continue
        try:
            schemas.append(_schema(content, entry, entry.schema_url))
        except SchemaError as exc:
            notes.append(str(exc))
            continue
        cache.put(entry.schema_url, content)
    return FetchedSchemas(tuple(schemas), tuple(changed), tuple(notes))


def family_schemas(
    folder: Path | None, fetch: bool, limits: SourceLimits, kinds: tuple[AppliesTo, ...]
) -> tuple[tuple[FamilySchema, ...], list[Problem]]:
    """The schemas found for the family's extensions whose schema applies to one of
    ``kinds``, and the notices to report with them (a changed schema is an error)."""
    entries = [e for e in bundled_external() if set(e.applies_to) & set(kinds)]
    found = {s.uri: s for s in schemas_from_folder(folder, entries)} if folder else {}
    notices: list[Problem] = []
    if fetch:
        missing = [entry for entry in entries if entry.uri not in found]
        fetched = fetch_family_schemas(missing, http_fetcher(limits), user_cache_dir())
        found.update({schema.uri: schema for schema in fetched.schemas})
        notices += [
            Problem(
                "error",
                "family-schema-changed",
                entry.uri,
                message,
                f"report it to {entry.publisher}: a change to {family_key(entry.uri)} needs a"
                " new version",
                "extension",
            )
            for entry, message in fetched.changed
        ]
        notices += [
            Problem("info", "family-schema-not-fetched", "", note, "", "extension")
            for note in fetched.notes
        ]
    return tuple(found.values()), notices
