"""The extension versions in ``extensions/``, read straight from their folders.

The site checks compare what is served with these files, so they read them on their own
rather than through the publisher they are checking.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

__all__ = ["ExtensionFolder", "extension_folders"]


@dataclass(frozen=True)
class ExtensionFolder:
    key: str
    """``<name>/<version>``, the folder below ``extensions/``."""
    folder: Path
    uri: str
    title: str

    @property
    def schema_path(self) -> Path:
        return self.folder / "schema.json"

    @property
    def spec_path(self) -> Path:
        return self.folder / "spec.md"


def extension_folders(extensions_dir: Path) -> list[ExtensionFolder]:
    """Every ``extensions/<name>/<version>/`` that has an ``extension.toml``, sorted by key."""
    found = []
    for metadata_path in sorted(extensions_dir.glob("*/*/extension.toml")):
        metadata = tomllib.loads(metadata_path.read_text(encoding="utf-8"))
        folder = metadata_path.parent
        found.append(
            ExtensionFolder(
                key=folder.relative_to(extensions_dir).as_posix(),
                folder=folder,
                uri=str(metadata["uri"]),
                title=str(metadata["title"]),
            )
        )
    return found
