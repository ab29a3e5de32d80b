"""The extension catalog's records: what an ``extensions/<name>/<version>/`` folder says."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

__all__ = [
    "ErratumEntry",
    "Example",
    "ExampleKind",
    "ExtensionVersion",
    "HistoryEntry",
    "Status",
    "bundled_extensions_dir",
    "canonical_schema_text",
]


# Where the extensions' published files are found at run time.
#
# An installed wheel carries them as ``th_ext/_bundled/extensions``; a source checkout (or an
# editable install) reads the repository's own ``extensions/`` folder, which is the same tree.

_PACKAGE_DIR = Path(__file__).resolve().parent.parent  # th_ext/


@cache
def bundled_extensions_dir() -> Path:
    """The folder that holds ``<name>/<version>/`` for every bundled extension."""
    installed = _PACKAGE_DIR / "_bundled" / "extensions"
    if installed.is_dir():
        return installed
    return _PACKAGE_DIR.parent.parent / "extensions"


ExampleKind = Literal[
    "agent-card",
    "extension-entry",
    "extension-params",
    "message",
    "send-message-request",
    "status-update",
    "stream-response",
]
Status = Literal["draft", "stable", "deprecated"]


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One line of a version's history."""

    date: str
    change: str


@dataclass(frozen=True, slots=True)
class ErratumEntry:
    """One erratum of a published version: which requirements it touches, what and why.

    An erratum clarifies how the published words are read; it never adds a MUST.
    """

    date: str
    requirements: tuple[str, ...]
    change: str
    why: str


@dataclass(frozen=True, slots=True)
class Example:
    """A worked example shipped with an extension version.

    ``params_pointer`` is the RFC 6901 pointer, inside the example document, to the object that
    must validate against the extension's schema (the empty string for the whole document).
    ``valid = false`` marks a counter-example, which must fail that schema.
    """

    file: str
    title: str
    description: str
    kind: ExampleKind
    valid: bool = True
    params_pointer: str | None = None


@dataclass(frozen=True, slots=True)
class ExtensionVersion:
    """One published (or draft) version of one extension, as its folder describes it.

    The records are dataclasses checked by hand, not pydantic models: every run reads the
    catalog, and building models would cost more start-up time than a small card's validation.
    """

    name: str
    version: str
    title: str
    summary: str
    status: Status
    uri: str
    history: tuple[HistoryEntry, ...]
    folder: Path
    examples: tuple[Example, ...] = ()
    schema_source: str | None = None
    errata: tuple[ErratumEntry, ...] = ()

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

    def example_path(self, example: Example) -> Path:
        return self.folder / "examples" / example.file


def canonical_schema_text(schema: dict[str, Any]) -> str:
    """The exact text of a published ``schema.json``: sorted keys, indent 2, final newline."""
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"
