"""The commands extension's params, checked for what its schema does not encode.

The rules themselves (a name matches ``^[a-z][a-z0-9-]*$``, names are unique because a name is
what a message is matched against) and their words belong to ``th_ext.commands``; this module
turns them into problems with JSON-pointer paths. Beside them, ``required: true`` is wrong
because a client that does not know the extension must still work. A card may list many
commands, so the common case (all names well formed and distinct) is decided with a few
C-level passes; the per-command walk that finds the culprits runs only when one of them fails.
"""

from __future__ import annotations

import re
from operator import itemgetter, methodcaller
from typing import Any

from th_ext._problem import Problem
from th_ext.commands._entry import (
    duplicate_message,
    is_command_name,
    name_mismatch,
    repeated_names,
)
from th_ext.commands._names import COMMAND_NAME_PATTERN
from th_ext.validate._limits import ProblemList
from th_ext.validate._pointer import pointer
from th_ext.validate._tables import MIN_ROWS, table

__all__ = ["check_commands_params"]

# Possessive (``*+``): each name ends at its newline, so there is nothing to backtrack into,
# and telling the engine so makes the match several times faster on a long list.
_ALL_NAMES = re.compile(f"{COMMAND_NAME_PATTERN.pattern}(?:\n{COMMAND_NAME_PATTERN.pattern})*+")
_STR_ONLY = frozenset({str})


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
    names, all_strings = _names(commands)
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
                        "use lower-case letters, digits and '-', starting with a letter",
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


def _names(commands: list[Any]) -> tuple[list[Any], bool]:
    """Each command's name (``None`` where there is none), and whether all are strings.

    A long list's shared facts (``_tables``) can tell that every command is an object with a
    name and only string values, which spares a pass or two over it.
    """
    facts = table(commands) if len(commands) >= MIN_ROWS else None
    if facts is not None and facts.of_objects and facts.same_keys and "name" in facts.keys:
        names = list(map(itemgetter("name"), commands))
        return names, facts.value_types <= _STR_ONLY or _all_strings(names)
    if set(map(type, commands)) <= {dict}:
        names = list(map(methodcaller("get", "name"), commands))
    else:
        names = [c.get("name") if isinstance(c, dict) else None for c in commands]
    return names, _all_strings(names)


def _all_strings(values: list[Any]) -> bool:
    return set(map(type, values)) <= _STR_ONLY


def _names_ok(names: list[str]) -> bool:
    """Whether every name matches the pattern, in one regex pass over the joined names."""
    if not names:
        return True
    joined = "\n".join(names)
    return joined.count("\n") == len(names) - 1 and _ALL_NAMES.fullmatch(joined) is not None
