"""An extension version's requirements: stable IDs with RFC 2119 levels, kept as data.

Each version folder may hold ``requirements.toml``: one ``[[requirements]]`` table per
requirement, with its ``id`` (``CMD-1``...), ``level`` (MUST, SHOULD, MAY), ``subject`` (who must
comply: ``agent`` or ``client``), a one-line ``summary``, the passage of ``spec.md`` it
``annotates`` (quoted exactly; line breaks may differ) and whether ``th-ext conform`` checks it.
A requirement an erratum withdrew keeps its ID and row with ``retired`` (a date) and
``retired_why``: IDs are never reused.
The spec page and the conformance checker both read this one file, so adding a version needs no
code.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from th_ext._exceptions import CatalogError
from th_ext.catalog._reader import read_file, spec_text

if TYPE_CHECKING:
    from th_ext.catalog._records import ExtensionVersion

__all__ = [
    "REQUIREMENTS_FILE",
    "Requirement",
    "annotation_pattern",
    "load_requirements",
    "requirement_anchor",
]

REQUIREMENTS_FILE = "requirements.toml"
Level = Literal["MUST", "SHOULD", "MAY"]
_LEVELS = ("MUST", "SHOULD", "MAY")
_SUBJECTS = ("agent", "client")
_ID = re.compile(r"^[A-Z][A-Z0-9]*-[1-9][0-9]*$")
_KEYS = {
    "id",
    "level",
    "subject",
    "summary",
    "annotates",
    "conform",
    "why_not",
    "retired",
    "retired_why",
}
_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")


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
    unknown = sorted(set(table) - _KEYS)
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
    if not _ID.fullmatch(table["id"]):
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
