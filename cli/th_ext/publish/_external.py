"""Extensions listed in the catalog but published elsewhere under the same URI prefix.

``extensions/external.toml`` names, by URI only, the extensions that the host site publishes
itself (tiny-harness's own documentation). The catalog shows them, marked external, so that a
reader sees every extension that lives under the prefix; nothing else is built for them.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from th_ext._exceptions import CatalogError
from th_ext._record import record

__all__ = ["EXTERNAL_FILE_NAME", "ExternalExtension", "read_external"]

EXTERNAL_FILE_NAME = "external.toml"


@record(slots=False)
class ExternalExtension:
    """One extension URI published by someone else (``publisher``)."""

    uri: str
    publisher: str


def read_external(path: Path) -> list[ExternalExtension]:
    """The external extensions listed in ``path``, in file order; none when it is absent."""
    if not path.is_file():
        return []
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CatalogError(f"{path}: cannot be read: {exc}") from None
    publisher = data.get("publisher")
    entries = data.get("extension", [])
    if not isinstance(publisher, str) or not publisher.strip():
        raise CatalogError(f"{path}: 'publisher' must name who publishes these extensions")
    if not isinstance(entries, list):
        raise CatalogError(f"{path}: 'extension' must be a list of [[extension]] tables")
    found: list[ExternalExtension] = []
    for number, entry in enumerate(entries, start=1):
        uri = entry.get("uri") if isinstance(entry, dict) else None
        if not isinstance(uri, str) or not uri.startswith("https://") or uri.endswith("/"):
            raise CatalogError(
                f"{path}: extension {number}: 'uri' must be an https URI without a trailing '/'"
            )
        unknown = sorted(set(entry) - {"uri"})
        if unknown:
            raise CatalogError(f"{path}: extension {number}: unknown key {unknown[0]!r}")
        if any(known.uri == uri for known in found):
            raise CatalogError(f"{path}: {uri} is listed twice")
        found.append(ExternalExtension(uri=uri, publisher=publisher))
    return found
