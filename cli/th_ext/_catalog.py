"""The extension catalog: every ``extensions/<name>/<version>/`` folder, read into models.

Each folder holds ``extension.toml`` (metadata and the list of examples), ``spec.md`` (the
specification text), ``schema.json`` (the params schema) and ``examples/``. Adding a version is
adding a folder: nothing here names a particular extension.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from th_ext._bundle import bundled_extensions_dir
from th_ext._exceptions import CatalogError

__all__ = [
    "Example",
    "ExtensionVersion",
    "HistoryEntry",
    "canonical_schema_text",
    "discover",
    "find",
]

NAME_PATTERN = re.compile(r"^[a-z][a-z0-9-]*$")
VERSION_PATTERN = re.compile(r"^v([1-9][0-9]*)$")

ExampleKind = Literal[
    "extension-entry",
    "agent-card",
    "extension-params",
    "message",
    "send-message-request",
    "status-update",
    "stream-response",
]


class HistoryEntry(BaseModel):
    """One line of a version's history."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    date: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$")
    change: str


class Example(BaseModel):
    """A worked example shipped with an extension version.

    ``params_pointer`` is the RFC 6901 pointer, inside the example document, to the object that
    must validate against the extension's schema (the empty string for the whole document).
    ``valid = false`` marks a counter-example, which must fail that schema.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    file: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*\.json$")
    title: str
    description: str
    kind: ExampleKind
    valid: bool = True
    params_pointer: str | None = None


class ExtensionVersion(BaseModel):
    """One published (or draft) version of one extension, as its folder describes it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=NAME_PATTERN.pattern)
    version: str = Field(pattern=VERSION_PATTERN.pattern)
    title: str
    summary: str
    status: Literal["draft", "stable", "deprecated"]
    uri: str = Field(pattern=r"^https?://\S+[^/]$")
    schema_source: str | None = Field(default=None, pattern=r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")
    history: list[HistoryEntry] = Field(min_length=1)
    examples: list[Example] = []
    folder: Path = Field(exclude=True)

    @property
    def key(self) -> str:
        """``<name>/<version>``, how the CLI and the lock name this version."""
        return f"{self.name}/{self.version}"

    @property
    def schema_url(self) -> str:
        return f"{self.uri}/schema.json"

    @property
    def schema_path(self) -> Path:
        return self.folder / "schema.json"

    @property
    def spec_path(self) -> Path:
        return self.folder / "spec.md"

    @cached_property
    def schema_bytes(self) -> bytes:
        return _read_bytes(self.schema_path)

    @cached_property
    def schema_document(self) -> dict[str, Any]:
        try:
            value = json.loads(self.schema_bytes)
        except ValueError as exc:
            raise CatalogError(f"{self.schema_path}: not valid JSON ({exc})") from None
        if not isinstance(value, dict):
            raise CatalogError(f"{self.schema_path}: a schema must be a JSON object")
        return value

    @property
    def schema_sha256(self) -> str:
        return hashlib.sha256(self.schema_bytes).hexdigest()

    def spec_text(self) -> str:
        return _read_bytes(self.spec_path).decode("utf-8")

    def example_path(self, example: Example) -> Path:
        return self.folder / "examples" / example.file

    def example_bytes(self, example: Example) -> bytes:
        return _read_bytes(self.example_path(example))

    def load_example(self, example: Example) -> Any:
        path = self.example_path(example)
        try:
            return json.loads(self.example_bytes(example))
        except ValueError as exc:
            raise CatalogError(f"{path}: not valid JSON ({exc})") from None


def canonical_schema_text(schema: dict[str, Any]) -> str:
    """The exact text of a published ``schema.json``: sorted keys, indent 2, final newline."""
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise CatalogError(f"{path}: cannot be read ({exc.strerror or exc})") from None


def _version_number(version: ExtensionVersion) -> tuple[str, int]:
    match = VERSION_PATTERN.match(version.version)
    return (version.name, int(match.group(1)) if match else 0)


def load_version(folder: Path) -> ExtensionVersion:
    """Read one ``extensions/<name>/<version>/`` folder."""
    meta_path = folder / "extension.toml"
    try:
        raw = tomllib.loads(_read_bytes(meta_path).decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise CatalogError(f"{meta_path}: not valid TOML ({exc})") from None
    try:
        version = ExtensionVersion.model_validate({**raw, "folder": folder})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "(top level)"
        raise CatalogError(f"{meta_path}: {where}: {first['msg']}") from None
    if (version.name, version.version) != (folder.parent.name, folder.name):
        raise CatalogError(
            f"{meta_path}: declares {version.key} but lives in "
            f"{folder.parent.name}/{folder.name}"
        )
    seen: set[str] = set()
    for example in version.examples:
        if example.file in seen:
            raise CatalogError(f"{meta_path}: example {example.file} is listed twice")
        seen.add(example.file)
    return version


def discover(root: Path | None = None) -> list[ExtensionVersion]:
    """Every extension version under ``root`` (the bundled copy by default), in order.

    Order is by extension name, then by version number (``v2`` before ``v10``).
    """
    base = root if root is not None else bundled_extensions_dir()
    if not base.is_dir():
        raise CatalogError(f"{base}: no extensions folder here")
    versions = [
        load_version(folder)
        for folder in sorted(base.glob("*/*/"))
        if folder.is_dir() and (folder / "extension.toml").is_file()
    ]
    return sorted(versions, key=_version_number)


def find(key: str, root: Path | None = None) -> ExtensionVersion:
    """The version named ``<name>/<version>`` or by its URI; ``CatalogError`` if none."""
    versions = discover(root)
    for version in versions:
        if key in (version.key, version.uri, version.uri + "/"):
            return version
    known = ", ".join(v.key for v in versions) or "none"
    raise CatalogError(f"no extension {key!r} (known: {known})")
