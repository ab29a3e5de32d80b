"""The extension layer: each extension entry on the card, its params' schema problems, and the
rules beside the schema, the commands extension's own (``check_commands_params``) among them."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from th_ext._deadline import Deadline
from th_ext.catalog._family import ExternalExtension, family_entry, unknown_schema_hint
from th_ext.commands._entry import (
    COMMAND_NAME_PATTERN,
    duplicate_message,
    is_command_name,
    name_mismatch,
    repeated_names,
    runs_on_message,
)
from th_ext.net import shown_url
from th_ext.problems._problem import Problem
from th_ext.problems._text import quoted
from th_ext.validate._card import extension_entries
from th_ext.validate._limits import ProblemList
from th_ext.validate._positions import pointer
from th_ext.validate._schema import ParamsSchema

__all__ = [
    "ExtensionRules",
    "KnownExtension",
    "check_commands_params",
    "check_extensions",
    "explain_runs_on",
    "near_miss",
]


def near_miss(uri: str, published: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """``(key, difference)`` for the published ``(uri, key)`` that ``uri`` is nearest to. One that
    differs only in how it is written (case, scheme, a slash, white space) is nearer than one
    whose version segment differs; a URI as near to two as to one names both, in the order given
    (then they are versions of one extension, and it differs from each in the same way).
    Empty when ``uri`` is published, or far from every published URI.

    ``difference`` completes "differs from <key> only by ...", e.g. "a trailing slash".
    """
    found: list[tuple[bool, str, str]] = []
    for known, key in published:
        if uri == known:
            return []
        near = _difference(uri, known)
        if near is not None:
            difference, versioned = near
            found.append((versioned, key, difference))
    if not found:
        return []
    nearest = min(versioned for versioned, _, _ in found)
    return [(key, difference) for versioned, key, difference in found if versioned == nearest]


def _difference(uri: str, known: str) -> tuple[str, bool] | None:
    """How ``uri`` differs from ``known``, and whether the version segment is part of it."""
    differences = []
    candidate = uri.strip()
    if candidate != uri:
        differences.append("white space around it")
    if candidate.endswith("/") and not known.endswith("/"):
        candidate = candidate.rstrip("/")
        differences.append("a trailing slash")
    scheme, _, rest = candidate.partition("://")
    known_scheme = known.partition("://")[0]
    schemes = {scheme.lower(), known_scheme}
    if scheme.lower() != known_scheme.lower() and schemes == {"http", "https"}:
        differences.append(f"the scheme {scheme}: instead of {known_scheme}:")
        candidate = f"{known_scheme}://{rest}"
    if candidate != known and candidate.lower() == known.lower():
        differences.append("letter case")
        candidate = known
    if candidate == known:
        return (" and ".join(differences), False) if differences else None
    version = _version_difference(candidate, known)
    if version is not None:
        return " and ".join([*differences, version]), True
    return None


def _version_difference(candidate: str, known: str) -> str | None:
    """A URI equal to ``known`` but for its last path segment (the version), or without it."""
    parent, _, version = known.rpartition("/")
    lowered = candidate.lower()
    if lowered == parent.lower():
        return f"a missing version segment (/{version})"
    head, _, other = candidate.rpartition("/")
    if head.lower() == parent.lower() and other and urlsplit(candidate).path:
        # The URI itself is shown beside this; its last segment needs no more than a glance.
        return f"its version segment ({quoted(other, 24)} instead of {quoted(version)})"
    return None


RUNS_ON_HINT = (
    "two ways out: leave the commands the client runs itself off a v1 card (a client runs "
    "them without the agent listing them), or declare the next version, "
    "https://madarauchiha-314.github.io/tiny-harness/a2a/ext/commands/v2 (a draft), whose "
    "schema allows runsOn"
)

# Possessive (``*+``): each name ends at its newline, so there is nothing to backtrack into,
# and telling the engine so makes the match several times faster on a long list.
_ALL_NAMES = re.compile(f"{COMMAND_NAME_PATTERN.pattern}(?:\n{COMMAND_NAME_PATTERN.pattern})*+")


def check_commands_params(
    entry: dict[str, Any], params: Any, base: tuple[str | int, ...]
) -> tuple[list[Problem], dict[str, Any]]:
    """The rule problems of one commands entry, and its summary (the command names, in order)."""
    problems = ProblemList()
    if entry.get("required") is True:
        problems.append(
            Problem(
                "warning",
                "required-extension",
                pointer((*base, "required")),
                "the commands extension is marked required: true",
                "set required: false (or leave it out): a client that does not know the "
                "extension must still be able to talk to the agent",
                "extension",
            )
        )
    commands = params.get("commands") if isinstance(params, dict) else None
    if not isinstance(commands, list):
        return problems.finished(), {"commands": []}
    names: list[Any] = [c.get("name") if isinstance(c, dict) else None for c in commands]
    all_strings = set(map(type, names)) <= {str}
    strings = names if all_strings else [n for n in names if isinstance(n, str)]
    if not _names_ok(strings):
        for index, name in enumerate(names):
            if isinstance(name, str) and not is_command_name(name):
                problems.append(
                    Problem(
                        "error",
                        "command-name-pattern",
                        pointer((*base, "params", "commands", index, "name")),
                        f"command {name_mismatch(name)}",
                        _name_hint(name),
                        "extension",
                    )
                )
    if len(set(strings)) != len(strings):
        for index, name, first in repeated_names(names):
            problems.append(
                Problem(
                    "error",
                    "duplicate-command",
                    pointer((*base, "params", "commands", index, "name")),
                    duplicate_message(name, first),
                    "register each command once; a message can run only one of them",
                    "extension",
                )
            )
    return problems.finished(), {"commands": strings}


def explain_runs_on(
    problems: list[Problem], params: Any, base: tuple[str | int, ...]
) -> list[Problem]:
    """``problems`` with the schema's "runsOn is not allowed" on a command entry replaced by
    ``command-runs-on``, which names the command and the two ways out.

    Only a schema that refuses ``runsOn`` (commands v1) produces the problem it replaces, so a
    card declaring a version that allows it is left alone.
    """
    commands = params.get("commands") if isinstance(params, dict) else None
    prefix = pointer((*base, "params", "commands")) + "/"
    # The problems are few (bounded); the commands may be half a million: look at them first.
    if not isinstance(commands, list) or all(_runs_on_index(p, prefix) is None for p in problems):
        return problems
    result: list[Problem] = []
    for problem in problems:
        index = _runs_on_index(problem, prefix)
        if index is None or index >= len(commands) or not isinstance(commands[index], dict):
            result.append(problem)
            continue
        result.append(
            Problem(
                "error",
                "command-runs-on",
                problem.path,
                runs_on_message(commands[index].get("name")),
                RUNS_ON_HINT,
                "extension",
                at_key=True,
            )
        )
    return result


_NAME_HINT = "use lower-case letters, digits and '-', starting with a letter"


def _name_hint(name: str) -> str:
    """The hint for a malformed command name, with the valid name it most likely meant, as
    unknown keys get the key they most likely meant."""
    meant = _meant_name(name)
    return f"{_NAME_HINT}; did you mean {meant!r}?" if meant is not None else _NAME_HINT


def _meant_name(name: str) -> str | None:
    if is_command_name(name.lower()):
        return name.lower()
    last = len(name) - 1
    for index, character in enumerate(name):
        if 0 < index < last:
            if character.isalnum():
                continue
            candidate = f"{name[:index]}-{name[index + 1 :]}"
        else:
            candidate = name[:index] + name[index + 1 :]
        if candidate and is_command_name(candidate):
            return candidate
    return None


def _runs_on_index(problem: Problem, prefix: str) -> int | None:
    """The command index of a schema problem about a ``runsOn`` key, or None."""
    if problem.code != "schema-violation" or not problem.path.startswith(prefix):
        return None
    index, _, rest = problem.path[len(prefix) :].partition("/")
    return int(index) if rest == "runsOn" and index.isdigit() else None


def _names_ok(names: list[str]) -> bool:
    """Whether every name matches the pattern, in one regex pass over the joined names."""
    if not names:
        return True
    joined = "\n".join(names)
    return joined.count("\n") == len(names) - 1 and _ALL_NAMES.fullmatch(joined) is not None


ExtensionRules = Callable[
    [dict[str, Any], Any, tuple[str | int, ...]], tuple[list[Problem], dict[str, Any]]
]

#: The rules beyond the schema, by extension name (every version of it shares them).
RULES: dict[str, ExtensionRules] = {"commands": check_commands_params}


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
    deadline: Deadline | None = None,
    schema_problems: Mapping[int, list[Problem]] | None = None,
) -> tuple[list[Problem], list[dict[str, Any]]]:
    """The extension layer's problems, and a summary of every extension entry on the card;
    ``schema_problems`` are the params' schema problems, by the entry's index."""
    problems = ProblemList()
    summaries: list[dict[str, Any]] = []
    entries = extension_entries(card)
    declared: dict[str, int] = {}
    for index, entry in enumerate(entries):
        if deadline is not None:
            deadline.check()
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
                    f"extension {shown_url(uri)} is already declared at index {declared[uri]}",
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
        found, summary = _check_entry(
            entry, extension, base, (schema_problems or {}).get(index, [])
        )
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
    problems.extend(_missing(required, declared, known, bool(entries)))
    return problems.finished(), summaries


def _unchecked(uri: str, path: str, known: Mapping[str, KnownExtension]) -> Problem:
    """An extension th-ext does not check: an error when it nearly names one it does."""
    meant = near_miss(uri, ((k.uri, k.key) for k in known.values()))
    family = family_entry(uri) if not meant else None
    if family is not None:
        return _family_unchecked(family, path)
    if meant:
        uris = {k.key: k.uri for k in known.values()}
        (key, difference), *others = meant
        also = "".join(f", and from {other} in the same way" for other, _ in others)
        targets = " or ".join(uris[key] for key, _ in meant)
        exact = f"the exact URI meant, {targets}" if others else f"the exact URI {targets}"
        return Problem(
            "error",
            "near-miss-extension-uri",
            path,
            f"extension URI {shown_url(uri)} differs from {key} only by {difference}{also}",
            f"use {exact}; as it is, its params are not checked",
            "extension",
        )
    return Problem(
        "info",
        "extension-not-checked",
        path,
        f"extension {shown_url(uri)} is not one th-ext publishes; its params were not checked",
        "nothing to do if the extension is meant; otherwise check the URI",
        "extension",
    )


def _family_unchecked(entry: ExternalExtension, path: str) -> Problem:
    """A host extension of the family whose params this run cannot check, and why."""
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
    entry: dict[str, Any],
    extension: KnownExtension,
    base: tuple[str | int, ...],
    problems: list[Problem],
) -> tuple[list[Problem], dict[str, Any]]:
    params = entry.get("params", {})
    if not isinstance(params, dict):
        return [], {}  # the card layer reports the wrong type
    if extension.key.split("/", 1)[0] == "commands":  # a card written for a later version
        problems = explain_runs_on(problems, params, base)
    summary: dict[str, Any] = {}
    if extension.rules is not None:
        found, summary = extension.rules(entry, params, base)
        problems = [*problems, *found]
    return list(problems), summary


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
