"""What ``--schemas DIR`` and ``--fetch-schemas`` find: the schemas of the family's other
extensions (tiny-harness's own), which th-ext does not bundle.

``validate`` and ``conform`` both call ``family_schemas`` so that they find the same schemas,
in order: the bundled ones (this project's), the folder, then (only when asked) each ``$id``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from th_ext.catalog._family import AppliesTo, FamilySchema
    from th_ext.problems._problem import Problem
    from th_ext.sources._limits import SourceLimits

__all__ = ["family_schemas"]


def family_schemas(
    folder: Path | None, fetch: bool, limits: SourceLimits, kinds: tuple[AppliesTo, ...]
) -> tuple[tuple[FamilySchema, ...], list[Problem]]:
    """The schemas found for the family's extensions whose schema applies to one of
    ``kinds``, and the notices to report with them (a changed schema is an error). The
    modules are imported here: a run without these options does not pay for them."""
    from th_ext.catalog._family import bundled_external, family_key, schemas_from_folder
    from th_ext.problems._problem import Problem

    entries = [e for e in bundled_external() if set(e.applies_to) & set(kinds)]
    found = {s.uri: s for s in schemas_from_folder(folder, entries)} if folder else {}
    notices: list[Problem] = []
    if fetch:
        from th_ext.catalog._family_fetch import fetch_family_schemas, http_fetcher, user_cache_dir

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
