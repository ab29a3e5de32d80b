"""The published lock: once a version is published its schema.json and its words never change.

``extensions/published.lock`` holds one line per published version, ``<name>/<version>
sha256:<hex>``, sorted, and the lines that record the version's requirements and normative
text (``th_ext.publish._words_lock``). A draft may change freely; publishing it means adding
its lines with ``add_to_lock``, which refuses to alter a schema line that is already there and
re-records the words only when every change since the last record has its erratum.
"""

from __future__ import annotations

import re
from pathlib import Path

from th_ext._exceptions import PublishedSchemaChangedError, PublishError
from th_ext.catalog._reader import schema_sha256
from th_ext.catalog._records import ExtensionVersion
from th_ext.publish._words_lock import WordsRecord, check_words, read_words, words_lines

__all__ = ["LOCK_FILE_NAME", "add_to_lock", "check_lock", "read_lock", "write_lock"]

LOCK_FILE_NAME = "published.lock"
_HEADER = (
    "# sha256 of every published schema.json, and the requirements and normative text of each\n"
    "# published version. A published schema never changes; its words change only by an\n"
    "# erratum. Add a new version, or record an erratum, with: th-ext lock add <name>/<version>\n"
)
_WORD_KINDS = ("words", "requirement", "sentence")
_LINE = re.compile(r"^(?P<key>[a-z][a-z0-9-]*/v[1-9][0-9]*) sha256:(?P<digest>[0-9a-f]{64})$")


def read_lock(path: Path) -> dict[str, str]:
    """The lock as ``{key: sha256}``; an absent file is an empty lock."""
    if not path.exists():
        return {}
    entries: dict[str, str] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        if line.split(" ", 2)[1:2] and line.split(" ", 2)[1] in _WORD_KINDS:
            continue  # a line of the version's words: read_words reads it
        match = _LINE.fullmatch(line)
        if match is None:
            raise PublishError(f"{path}:{number}: not a lock line: {line!r}")
        if match["key"] in entries:
            raise PublishError(f"{path}:{number}: {match['key']} is locked twice")
        entries[match["key"]] = match["digest"]
    return entries


def _word_lines(path: Path) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            parts = line.split(" ", 2)
            if len(parts) == 3 and parts[1] in _WORD_KINDS and not line.startswith("#"):
                found.setdefault(parts[0], []).append(line)
    return found


def write_lock(
    path: Path, entries: dict[str, str], words: dict[str, list[str]] | None = None
) -> None:
    """Write the schema lines of ``entries`` and, for each key, its words lines (``words``, or
    those the file already holds)."""
    kept = _word_lines(path) if words is None else words
    lines: list[str] = []
    for key in sorted(entries):
        lines.append(f"{key} sha256:{entries[key]}\n")
        lines += [line + "\n" for line in kept.get(key, [])]
    path.write_text(_HEADER + "".join(lines), encoding="utf-8")


def check_lock(
    versions: list[ExtensionVersion],
    lock: dict[str, str],
    words: dict[str, WordsRecord] | None = None,
) -> list[str]:
    """Problems: a locked schema that changed or vanished, a non-draft version not locked, and,
    given the recorded ``words``, a published requirement or normative sentence that changed
    without its erratum (or a published version whose words were never recorded)."""
    by_key = {version.key: version for version in versions}
    problems: list[str] = []
    for key, digest in sorted(lock.items()):
        version = by_key.get(key)
        if version is None:
            problems.append(f"{key}: published, but its folder is gone; published files stay")
        elif schema_sha256(version) != digest:
            problems.append(
                f"{key}: schema.json changed after publication (sha256 {schema_sha256(version)},"
                f" published {digest}); publish a new version instead"
            )
    problems.extend(
        f"{version.key}: status is {version.status} but it is not in the lock;"
        f" run: th-ext lock add {version.key}"
        for version in versions
        if version.status != "draft" and version.key not in lock
    )
    if words is not None:
        for key in sorted(lock):
            version = by_key.get(key)
            if version is None:
                continue
            record = words.get(key)
            if record is None:
                problems.append(
                    f"{key}: its requirements and normative text are not recorded;"
                    f" run: th-ext lock add {key}"
                )
            else:
                problems += check_words(version, record)
    return problems


def add_to_lock(path: Path, version: ExtensionVersion) -> bool:
    """Lock ``version``'s schema and record its words. False if nothing changed.

    A locked schema is never replaced. The words of a locked version are recorded again only
    when every change since the last record has its erratum (``PublishError`` names the first
    one that has not).
    """
    if version.status == "draft":
        raise PublishError(f"{version.key}: a draft is not published; set its status first")
    entries = read_lock(path)
    known = entries.get(version.key)
    if known is not None and known != schema_sha256(version):
        raise PublishedSchemaChangedError(
            f"{version.key}: already published with sha256 {known}; a published schema"
            " cannot be replaced"
        )
    words = _word_lines(path)
    record = read_words(path).get(version.key)
    if known is not None and record is not None:
        problems = check_words(version, record)
        if problems:
            raise PublishError(problems[0])
    fresh = words_lines(version)
    if known is not None and words.get(version.key) == fresh:
        return False
    entries[version.key] = schema_sha256(version)
    words[version.key] = fresh
    write_lock(path, entries, words)
    return True
