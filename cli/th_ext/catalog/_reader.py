"""Reading the extension catalog: each ``extensions/<name>/<version>/`` folder into records,
the files of a version's folder, and its requirements."""

from __future__ import annotations

import json
import os
import re
import stat
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Literal, get_args

from th_ext._exceptions import CatalogError, is_folder, os_reason
from th_ext.catalog._records import (
    ErratumEntry,
    Example,
    ExampleKind,
    ExtensionVersion,
    HistoryEntry,
    Status,
    bundled_extensions_dir,
)
from th_ext.problems import closest_name

__all__ = [
    "Requirement",
    "annotation_pattern",
    "discover",
    "example_bytes",
    "find",
    "load_example",
    "load_requirements",
    "load_version",
    "read_file",
    "requirement_anchor",
    "schema_bytes",
    "schema_document",
    "schema_sha256",
    "spec_text",
]


NAME_PATTERN = re.compile(r"^[a-z][a-z0-9-]*$")
VERSION_PATTERN = re.compile(r"^v([1-9][0-9]*)$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_URI = re.compile(r"https?://\S*[^/\s]")
_EXAMPLE_FILE = re.compile(r"^[a-z0-9][a-z0-9-]*\.json$")
_REQUIREMENT_ID = re.compile(r"^[A-Z][A-Z0-9]*-[1-9][0-9]*$")
_SCHEMA_SOURCE = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")


def read_file(version: ExtensionVersion, relative: str) -> bytes:
    """The bytes of the regular file ``relative`` inside the version's folder."""
    return _read_regular(version.folder, relative)


def schema_bytes(version: ExtensionVersion) -> bytes:
    """The version's ``schema.json`` as it is now (read at each call: a preview server's
    catalog sees each edit)."""
    return read_file(version, "schema.json")


def schema_document(version: ExtensionVersion) -> dict[str, Any]:
    """The version's schema as a JSON object."""
    try:
        value = json.loads(schema_bytes(version))
    except ValueError as exc:
        raise CatalogError(f"{version.schema_path}: not valid JSON ({exc})") from None
    if not isinstance(value, dict):
        raise CatalogError(f"{version.schema_path}: a schema must be a JSON object")
    return value


def schema_sha256(version: ExtensionVersion) -> str:
    import hashlib  # loading OpenSSL is a start-up cost only the lock pays

    return hashlib.sha256(schema_bytes(version)).hexdigest()


def spec_text(version: ExtensionVersion) -> str:
    return read_file(version, "spec.md").decode("utf-8")


def example_bytes(version: ExtensionVersion, example: Example) -> bytes:
    return read_file(version, f"examples/{example.file}")


def load_example(version: ExtensionVersion, example: Example) -> Any:
    try:
        return json.loads(example_bytes(version, example))
    except ValueError as exc:
        raise CatalogError(f"{version.example_path(example)}: not valid JSON ({exc})") from None


def _refuse_links(path: Path) -> None:
    """Refuse ``path`` when it, or a folder on the way down from ``extensions/``, is a link."""
    try:
        info = path.lstat()
    except OSError:
        return
    if stat.S_ISLNK(info.st_mode):
        raise CatalogError(f"{path}: is a symbolic link; only regular files are read")


def _read_regular(folder: Path, relative: str) -> bytes:
    """The bytes of ``folder/relative``, refusing a symbolic link on the way or a special file,
    so that a change to ``extensions/`` cannot publish what a link points to."""
    path = folder / relative
    for part in (folder.parent, folder, *reversed(path.parents[: relative.count("/")]), path):
        _refuse_links(part)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise CatalogError(f"{path}: is not a regular file")
            return handle.read()
    except OSError as exc:
        raise CatalogError(f"{path}: cannot be read ({os_reason(exc)})") from None


class _Fields:
    """Reads one TOML table's fields, each checked for type and pattern, naming the culprit."""

    def __init__(self, table: Any, where: str) -> None:
        if not isinstance(table, dict):
            raise CatalogError(f"{where}: must be a table")
        self.table = table
        self.where = where

    def text(self, key: str, pattern: re.Pattern[str] | None = None, default: Any = ...) -> Any:
        if key not in self.table:
            if default is ...:
                raise CatalogError(f"{self.where}: {key} is missing")
            return default
        value = self.table[key]
        if not isinstance(value, str):
            raise CatalogError(f"{self.where}: {key} must be a string")
        if pattern is not None and not pattern.fullmatch(value):
            raise CatalogError(f"{self.where}: {key} {value!r} does not match {pattern.pattern}")
        return value

    def choice(self, key: str, allowed: tuple[str, ...]) -> Any:
        value = self.text(key)
        if value not in allowed:
            raise CatalogError(f"{self.where}: {key} must be one of {', '.join(allowed)}")
        return value

    def flag(self, key: str, default: bool) -> bool:
        value = self.table.get(key, default)
        if not isinstance(value, bool):
            raise CatalogError(f"{self.where}: {key} must be true or false")
        return value

    def tables(self, key: str) -> list[Any]:
        value = self.table.get(key, [])
        if not isinstance(value, list):
            raise CatalogError(f"{self.where}: {key} must be an array of tables")
        return value

    def reject_unknown(self, known: set[str]) -> None:
        unknown = sorted(set(self.table) - known)
        if unknown:
            raise CatalogError(f"{self.where}: unknown key {unknown[0]}")


def _history(meta: _Fields) -> tuple[HistoryEntry, ...]:
    entries = []
    for index, table in enumerate(meta.tables("history")):
        item = _Fields(table, f"{meta.where}: history[{index}]")
        item.reject_unknown({"date", "change"})
        entries.append(HistoryEntry(date=item.text("date", _DATE), change=item.text("change")))
    if not entries:
        raise CatalogError(f"{meta.where}: history needs at least one entry")
    return tuple(entries)


def _errata(meta: _Fields) -> tuple[ErratumEntry, ...]:
    entries = []
    for index, table in enumerate(meta.tables("errata")):
        item = _Fields(table, f"{meta.where}: errata[{index}]")
        item.reject_unknown({"date", "requirements", "change", "why"})
        ids = table.get("requirements")
        if (
            not isinstance(ids, list)
            or not ids
            or not all(isinstance(i, str) and _REQUIREMENT_ID.fullmatch(i) for i in ids)
        ):
            raise CatalogError(
                f"{item.where}: requirements must list requirement IDs such as CMD-3"
            )
        entries.append(
            ErratumEntry(
                date=item.text("date", _DATE),
                requirements=tuple(ids),
                change=item.text("change"),
                why=item.text("why"),
            )
        )
    return tuple(entries)


def _examples(meta: _Fields) -> tuple[Example, ...]:
    examples: list[Example] = []
    for index, table in enumerate(meta.tables("examples")):
        item = _Fields(table, f"{meta.where}: examples[{index}]")
        item.reject_unknown({f.name for f in fields(Example)})
        example = Example(
            file=item.text("file", _EXAMPLE_FILE),
            title=item.text("title"),
            description=item.text("description"),
            kind=item.choice("kind", get_args(ExampleKind)),
            valid=item.flag("valid", True),
            params_pointer=item.text("params_pointer", default=None),
        )
        if any(known.file == example.file for known in examples):
            raise CatalogError(f"{meta.where}: example {example.file} is listed twice")
        examples.append(example)
    return tuple(examples)


def load_version(folder: Path) -> ExtensionVersion:
    """Read one ``extensions/<name>/<version>/`` folder."""
    meta_path = folder / "extension.toml"
    try:
        raw = tomllib.loads(_read_regular(folder, "extension.toml").decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise CatalogError(f"{meta_path}: not valid TOML ({exc})") from None
    meta = _Fields(raw, str(meta_path))
    meta.reject_unknown({f.name for f in fields(ExtensionVersion)} - {"folder"})
    version = ExtensionVersion(
        name=meta.text("name", NAME_PATTERN),
        version=meta.text("version", VERSION_PATTERN),
        title=meta.text("title"),
        summary=meta.text("summary"),
        status=meta.choice("status", get_args(Status)),
        uri=meta.text("uri", _URI),
        schema_source=meta.text("schema_source", _SCHEMA_SOURCE, default=None),
        history=_history(meta),
        examples=_examples(meta),
        errata=_errata(meta),
        folder=folder,
    )
    if (version.name, version.version) != (folder.parent.name, folder.name):
        raise CatalogError(
            f"{meta_path}: declares {version.key} but lives in {folder.parent.name}/{folder.name}"
        )
    return version


def _order(version: ExtensionVersion) -> tuple[str, int]:
    match = VERSION_PATTERN.match(version.version)
    return (version.name, int(match.group(1)) if match else 0)


def discover(root: Path | None = None) -> list[ExtensionVersion]:
    """Every extension version under ``root`` (the bundled copy by default), in order.

    Order is by extension name, then by version number (``v2`` before ``v10``).
    """
    base = root if root is not None else bundled_extensions_dir()
    if not is_folder(base):
        raise CatalogError(f"{base}: no extensions folder here")
    versions = [
        load_version(folder)
        for folder in sorted(base.glob("*/*/"))
        if folder.is_dir() and (folder / "extension.toml").is_file()
    ]
    return sorted(versions, key=_order)


def find(key: str, root: Path | None = None) -> ExtensionVersion:
    """The version named ``<name>/<version>`` or by its URI; ``CatalogError`` if none."""
    versions = discover(root)
    for version in versions:
        if key in (version.key, version.uri, version.uri + "/"):
            return version
    known = ", ".join(v.key for v in versions) or "none"
    meant = closest_name(key, [v.uri if key.startswith("http") else v.key for v in versions])
    suggestion = f"; did you mean {meant!r}?" if meant is not None else ""
    raise CatalogError(f"no extension {key!r}{suggestion} (known: {known})")


# An extension version's requirements: stable IDs with RFC 2119 levels, kept as data.
#
# Each version folder may hold ``requirements.toml``: one ``[[requirements]]`` table per
# requirement, with its ``id`` (``CMD-1``...), ``level`` (MUST, SHOULD, MAY), ``subject`` (who must
# comply: ``agent`` or ``client``), a one-line ``summary``, the passage of ``spec.md`` it
# ``annotates`` (quoted exactly; line breaks may differ) and whether ``th-ext conform`` checks it.
# A requirement an erratum withdrew keeps its ID and row with ``retired`` (a date) and
# ``retired_why``: IDs are never reused.
# The spec page and the conformance checker both read this one file, so adding a version needs no
# code.

REQUIREMENTS_FILE = "requirements.toml"
Level = Literal["MUST", "SHOULD", "MAY"]
_LEVELS = ("MUST", "SHOULD", "MAY")
_SUBJECTS = ("agent", "client")


@dataclass(frozen=True, slots=True)
class Requirement:
    """One requirement of an extension version."""

    id: str
    level: Level
    subject: Literal["agent", "client"]
    summary: str
    annotates: str
    conform: bool
    why_not: str = ""
    retired: str = ""
    """The date of the erratum that withdrew it, or "" for a requirement in force."""
    retired_why: str = ""

    @property
    def anchor(self) -> str:
        return requirement_anchor(self.id)

    @property
    def in_force(self) -> bool:
        return not self.retired


def requirement_anchor(requirement_id: str) -> str:
    """The anchor of a requirement on its spec page: ``CMD-3`` is ``cmd-3``."""
    return requirement_id.lower()


def annotation_pattern(passage: str) -> re.Pattern[str]:
    """A pattern matching ``passage`` in the spec text, whatever whitespace separates its words."""
    return re.compile(r"\s+".join(re.escape(word) for word in passage.split()))


def load_requirements(version: ExtensionVersion) -> tuple[Requirement, ...]:
    """The version's requirements in file order; none when it has no ``requirements.toml``."""
    path = version.folder / REQUIREMENTS_FILE
    if not path.is_file() and not path.is_symlink():
        return ()
    try:  # as every file of a version: a regular file, never through a link
        raw = tomllib.loads(read_file(version, REQUIREMENTS_FILE).decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CatalogError(f"{path}: cannot be read as TOML ({exc})") from None
    tables = raw.get("requirements")
    if not isinstance(tables, list) or set(raw) != {"requirements"}:
        raise CatalogError(f"{path}: expected only [[requirements]] tables")
    requirements = [
        _requirement(table, f"{path}: requirements[{i}]") for i, table in enumerate(tables)
    ]
    ids = [requirement.id for requirement in requirements]
    duplicates = sorted({rid for rid in ids if ids.count(rid) > 1})
    if duplicates:
        raise CatalogError(f"{path}: duplicate requirement id {', '.join(duplicates)}")
    spec = spec_text(version)
    for requirement in requirements:
        if requirement.retired and not requirement.annotates:
            continue
        if len(annotation_pattern(requirement.annotates).findall(spec)) != 1:
            raise CatalogError(
                f"{path}: {requirement.id} annotates a passage that spec.md must hold exactly "
                f"once: {requirement.annotates!r}"
            )
    return tuple(requirements)


def _requirement(table: object, where: str) -> Requirement:
    if not isinstance(table, dict):
        raise CatalogError(f"{where}: not a table")
    unknown = sorted(set(table) - {f.name for f in fields(Requirement)})
    if unknown:
        raise CatalogError(f"{where}: unknown key {unknown[0]!r}")
    retired = table.get("retired", "")
    retired_why = table.get("retired_why", "")
    if not isinstance(retired, str) or not isinstance(retired_why, str):
        raise CatalogError(f"{where}: retired and retired_why must be strings")
    if retired and (not _DATE.fullmatch(retired) or not retired_why.strip()):
        raise CatalogError(f"{where}: a retired requirement needs its date and retired_why")
    if retired_why and not retired:
        raise CatalogError(f"{where}: retired_why without the date it was retired")
    required = ("id", "level", "subject", "summary") + (() if retired else ("annotates",))
    for key in required:
        if not isinstance(table.get(key), str) or not table[key].strip():
            raise CatalogError(f"{where}: {key} must be a non-empty string")
    if retired and table.get("conform", False):
        raise CatalogError(f"{where}: a retired requirement is not checked (conform = false)")
    if not _REQUIREMENT_ID.fullmatch(table["id"]):
        raise CatalogError(f"{where}: id {table['id']!r} is not like CMD-1")
    if table["level"] not in _LEVELS:
        raise CatalogError(f"{where}: level must be one of {', '.join(_LEVELS)}")
    if table["subject"] not in _SUBJECTS:
        raise CatalogError(f"{where}: subject must be agent or client")
    conform = table.get("conform", False)
    why_not = table.get("why_not", "")
    if not isinstance(conform, bool) or not isinstance(why_not, str):
        raise CatalogError(f"{where}: conform must be a boolean and why_not a string")
    if not conform and not why_not and not retired:
        raise CatalogError(f"{where}: a requirement conform does not check needs why_not")
    return Requirement(
        id=table["id"],
        level=table["level"],
        subject=table["subject"],
        summary=table["summary"],
        annotates=table.get("annotates", ""),
        conform=conform,
        why_not=why_not,
        retired=retired,
        retired_why=retired_why,
    )
