"""The extension layer: each extension on the card whose URI this th-ext publishes.

Its ``params`` (absent means ``{}``) are checked against the bundled schema, then against the
extension's own rules that a schema cannot state. The same URI declared twice is an error, a
card that declares none of the required extensions is an error, and extensions this th-ext does
not publish are listed as not checked. The family's other extensions are checked the same way
when their schema is given (``--schemas``, ``--fetch-schemas``) and applies to the card's
params (media v1); otherwise a note says how to give it, or where their data travels instead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from th_ext.problems._problem import Problem
from th_ext.validate._commands_params import check_commands_params, explain_runs_on
from th_ext.validate._limits import ProblemList
from th_ext.validate._near_miss import near_miss
from th_ext.validate._pointer import pointer
from th_ext.validate._schema import ParamsSchema

if TYPE_CHECKING:
    from th_ext.catalog._family import ExternalExtension

__all__ = ["ExtensionRules", "KnownExtension", "check_extensions"]

ExtensionRules = Callable[
    [dict[str, Any], Any, tuple[str | int, ...]], tuple[list[Problem], dict[str, Any]]
]

#: The rules beyond the schema, by extension name (every version of it shares them).
RULES: dict[str, ExtensionRules] = {"commands": check_commands_params}

ExplainSchema = Callable[[list[Problem], Any, tuple[str | int, ...]], list[Problem]]
#: Schema problems a known departure explains better, by extension name: a card written for
#: a later version of the extension (``runsOn`` on a commands v1 card).
EXPLAINED: dict[str, ExplainSchema] = {"commands": explain_runs_on}


class KnownExtension(NamedTuple):
    """An extension URI the validator can check: its key, schema and extra rules."""

    uri: str
    key: str
    schema: ParamsSchema
    rules: ExtensionRules | None
    draft: bool = False


def check_extensions(
    card: dict[str, Any],
    known: Mapping[str, KnownExtension],
    required: Sequence[str] = (),
) -> tuple[list[Problem], list[dict[str, Any]]]:
    """The extension layer's problems, and a summary of every extension entry on the card."""
    problems = ProblemList()
    summaries: list[dict[str, Any]] = []
    capabilities = card.get("capabilities")
    entries = capabilities.get("extensions") if isinstance(capabilities, dict) else None
    if not isinstance(entries, list):
        entries = []
    declared: dict[str, int] = {}
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict) or not isinstance(entry.get("uri"), str):
            continue
        uri = entry["uri"]
        base = ("capabilities", "extensions", index)
        if uri in declared:
            problems.append(
                Problem(
                    "error",
                    "duplicate-extension",
                    pointer((*base, "uri")),
                    f"extension {uri} is already declared at index {declared[uri]}",
                    "declare each extension once, with all its params in that entry",
                    "extension",
                )
            )
            continue
        declared[uri] = index
        extension = known.get(uri)
        if extension is None:
            if uri.strip():
                problems.append(_unchecked(uri, pointer((*base, "uri")), known))
            summaries.append({"uri": uri, "path": pointer(base), "checked": False})
            continue
        found, summary = _check_entry(entry, extension, base)
        if extension.draft:
            found.insert(0, _draft_warning(extension, base))
        problems.extend(found)
        summaries.append(
            {
                "uri": uri,
                "extension": extension.key,
                "path": pointer(base),
                "checked": True,
                "valid": isinstance(entry.get("params", {}), dict)
                and not any(p.is_error for p in found),
                "required": entry.get("required") is True,
                **summary,
            }
        )
    problems.extend(_missing(required, declared, known, entries is not None and bool(entries)))
    return problems.finished(), summaries


def _unchecked(uri: str, path: str, known: Mapping[str, KnownExtension]) -> Problem:
    """An extension th-ext does not check: an error when it nearly names one it does."""
    meant = near_miss(uri, ((k.uri, k.key) for k in known.values()))
    from th_ext.catalog._family import family_entry  # read only for an unchecked URI

    family = family_entry(uri) if meant is None else None
    if family is not None:
        return _family_unchecked(family, path)
    if meant is not None:
        key, difference = meant
        target = next(k.uri for k in known.values() if k.key == key)
        return Problem(
            "error",
            "near-miss-extension-uri",
            path,
            f"extension URI {uri} differs from {key} only by {difference}",
            f"use the exact URI {target}; as it is, its params are not checked",
            "extension",
        )
    return Problem(
        "info",
        "extension-not-checked",
        path,
        f"extension {uri} is not one th-ext publishes; its params were not checked",
        "nothing to do if the extension is meant; otherwise check the URI",
        "extension",
    )


def _family_unchecked(entry: ExternalExtension, path: str) -> Problem:
    """A host extension of the family whose params this run cannot check, and why."""
    from th_ext.catalog._family import unknown_schema_hint

    owner = entry.publisher
    if "card params" in entry.applies_to:
        return Problem(
            "info",
            "extension-schema-unknown",
            path,
            f"extension {entry.uri} is {owner}'s; its schema is not known here, so its params"
            " were not checked",
            unknown_schema_hint(entry),
            "extension",
        )
    places = " and ".join(entry.travels()) or "data this run does not see"
    return Problem(
        "info",
        "extension-not-on-card",
        path,
        f"extension {entry.uri} is {owner}'s; its schema applies to {places}, not to the card",
        "th-ext conform checks that data on a live agent, given the schema",
        "extension",
    )


def _draft_warning(extension: KnownExtension, base: tuple[str | int, ...]) -> Problem:
    return Problem(
        "warning",
        "extension-draft",
        pointer((*base, "uri")),
        f"extension {extension.key} is a draft; it may change before it is published",
        "declare a published version on a production card",
        "extension",
    )


def _check_entry(
    entry: dict[str, Any], extension: KnownExtension, base: tuple[str | int, ...]
) -> tuple[list[Problem], dict[str, Any]]:
    params = entry.get("params", {})
    if not isinstance(params, dict):
        return [], {}  # the card layer reports the wrong type
    problems = extension.schema.problems(params, (*base, "params"))
    explain = EXPLAINED.get(extension.key.split("/", 1)[0])
    if explain is not None:
        problems = explain(problems, params, base)
    summary: dict[str, Any] = {}
    if extension.rules is not None:
        found, summary = extension.rules(entry, params, base)
        problems.extend(found)
    return problems, summary


def _missing(
    required: Sequence[str],
    declared: Mapping[str, int],
    known: Mapping[str, KnownExtension],
    has_entries: bool,
) -> list[Problem]:
    where = "/capabilities/extensions" if has_entries else "/capabilities"
    if required:
        return [
            Problem(
                "error",
                "missing-extension",
                where,
                f"the card does not declare the extension {uri}",
                "add it to capabilities.extensions, or drop --extension",
                "extension",
            )
            for uri in required
            if uri not in declared
        ]
    if any(uri in known for uri in declared):
        return []
    names = ", ".join(sorted(k.key for k in known.values())) or "none"
    return [
        Problem(
            "info",
            "no-known-extension",
            where,
            "the card declares none of the extensions th-ext checks: only the A2A layers "
            "were checked",
            f"to require one, name it with --extension (published: {names})",
            "extension",
        )
    ]
