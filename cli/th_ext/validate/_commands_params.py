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

from th_ext.commands._entry import (
    COMMAND_NAME_PATTERN,
    duplicate_message,
    is_command_name,
    name_mismatch,
    repeated_names,
    runs_on_message,
)
from th_ext.problems._problem import Problem
from th_ext.validate._limits import ProblemList
from th_ext.validate._pointer import pointer
from th_ext.validate._tables import MIN_ROWS, table

__all__ = ["check_commands_params", "explain_runs_on"]

RUNS_ON_HINT = (
    "two ways out: leave the commands the client runs itself off a v1 card (a client runs "
    "them without the agent listing them), or declare the next version, "
    "https://madarauchiha-314.github.io/tiny-harness/a2a/ext/commands/v2 (a draft), whose "
    "schema allows runsOn"
)

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


def _runs_on_index(problem: Problem, prefix: str) -> int | None:
    """The command index of a schema problem about a ``runsOn`` key, or None."""
    if problem.code != "schema-violation" or not problem.path.startswith(prefix):
        return None
    index, _, rest = problem.path[len(prefix) :].partition("/")
    return int(index) if rest == "runsOn" and index.isdigit() else None


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
