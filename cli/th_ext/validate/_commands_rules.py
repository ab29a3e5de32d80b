"""The commands extension's rules that its schema does not encode.

The spec says a registered name matches ``^[a-z][a-z0-9-]*$``, names are unique (a name is
what a message is matched against), and ``required: true`` is wrong because a client that does
not know the extension must still work. A card may list many commands, so the common case (all
names well formed and distinct) is decided with a few C-level passes; the per-command walk
that finds the culprits runs only when one of them fails.
"""

from __future__ import annotations

import re
from operator import methodcaller
from typing import Any

from th_ext.validate._limits import ProblemList
from th_ext.validate._pointer import pointer
from th_ext.validate._problem import Problem

__all__ = ["COMMAND_NAME", "check_commands_params"]

COMMAND_NAME = re.compile(r"[a-z][a-z0-9-]*")
_ALL_NAMES = re.compile(r"(?:[a-z][a-z0-9-]*\n)*")


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
    if set(map(type, commands)) <= {dict}:
        names = list(map(methodcaller("get", "name"), commands))
    else:
        names = [c.get("name") if isinstance(c, dict) else None for c in commands]
    strings = [n for n in names if isinstance(n, str)] if not _all_strings(names) else names
    if not _names_ok(strings):
        for index, name in enumerate(names):
            if isinstance(name, str) and not COMMAND_NAME.fullmatch(name):
                problems.append(
                    Problem(
                        "error",
                        "command-name-pattern",
                        pointer((*base, "params", "commands", index, "name")),
                        f"command name {name!r} does not match ^[a-z][a-z0-9-]*$",
                        "use lower-case letters, digits and '-', starting with a letter",
                        "extension",
                    )
                )
    if len(set(strings)) != len(strings):
        first: dict[str, int] = {}
        for index, name in enumerate(names):
            if not isinstance(name, str):
                continue
            if name in first:
                problems.append(
                    Problem(
                        "error",
                        "duplicate-command",
                        pointer((*base, "params", "commands", index, "name")),
                        f"command {name!r} is already registered at index {first[name]}",
                        "register each command once; a message can run only one of them",
                        "extension",
                    )
                )
            else:
                first[name] = index
    return problems.finished(), {"commands": strings}


def _all_strings(values: list[Any]) -> bool:
    return set(map(type, values)) <= {str}


def _names_ok(names: list[str]) -> bool:
    """Whether every name matches the pattern, in one regex pass over the joined names."""
    joined = "\n".join(names) + "\n" if names else ""
    return joined.count("\n") == len(names) and _ALL_NAMES.fullmatch(joined) is not None
