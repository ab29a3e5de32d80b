"""The published-schema lock: once a version is published its schema.json never changes.

``extensions/published.lock`` holds one line per published version, ``<name>/<version>
sha256:<hex>``, sorted. A draft may change freely; publishing it means adding its line with
``add_to_lock``, which refuses to alter a line that is already there.
"""

from __future__ import annotations

import re
from pathlib import Path

from th_ext._catalog import ExtensionVersion
from th_ext._exceptions import PublishedSchemaChangedError, PublishError

__all__ = ["LOCK_FILE_NAME", "add_to_lock", "check_lock", "read_lock", "write_lock"]

LOCK_FILE_NAME = "published.lock"
_HEADER = (
    "# sha256 of every published schema.json. A published schema never changes;\n"
    "# add a new version with: th-ext lock add <name>/<version>\n"
)
_LINE = re.compile(r"^(?P<key>[a-z][a-z0-9-]*/v[1-9][0-9]*) sha256:(?P<digest>[0-9a-f]{64})$")


def read_lock(path: Path) -> dict[str, str]:
    """The lock as ``{key: sha256}``; an absent file is an empty lock."""
    if not path.exists():
        return {}
    entries: dict[str, str] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        match = _LINE.fullmatch(line)
        if match is None:
            raise PublishError(f"{path}:{number}: not a lock line: {line!r}")
        if match["key"] in entries:
            raise PublishError(f"{path}:{number}: {match['key']} is locked twice")
        entries[match["key"]] = match["digest"]
    return entries


def write_lock(path: Path, entries: dict[str, str]) -> None:
    lines = [f"{key} sha256:{entries[key]}\n" for key in sorted(entries)]
    path.write_text(_HEADER + "".join(lines), encoding="utf-8")


def check_lock(versions: list[ExtensionVersion], lock: dict[str, str]) -> list[str]:
    """Problems: a locked schema that changed or vanished, or a non-draft version not locked."""
    by_key = {version.key: version for version in versions}
    problems: list[str] = []
    for key, digest in sorted(lock.items()):
        version = by_key.get(key)
        if version is None:
            problems.append(f"{key}: published, but its folder is gone; published files stay")
        elif version.schema_sha256 != digest:
            problems.append(
                f"{key}: schema.json changed after publication (sha256 {version.schema_sha256},"
                f" published {digest}); publish a new version instead"
            )
    problems.extend(
        f"{version.key}: status is {version.status} but it is not in the lock;"
        f" run: th-ext lock add {version.key}"
        for version in versions
        if version.status != "draft" and version.key not in lock
    )
    return problems


def add_to_lock(path: Path, version: ExtensionVersion) -> bool:
    """Lock ``version``'s schema. False if it was already locked with the same digest."""
    if version.status == "draft":
        raise PublishError(f"{version.key}: a draft is not published; set its status first")
    entries = read_lock(path)
    known = entries.get(version.key)
    if known == version.schema_sha256:
        return False
    if known is not None:
        raise PublishedSchemaChangedError(
            f"{version.key}: already published with sha256 {known}; a published schema"
            " cannot be replaced"
        )
    entries[version.key] = version.schema_sha256
    write_lock(path, entries)
    return True
