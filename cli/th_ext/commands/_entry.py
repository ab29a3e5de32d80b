"""What a usable entry of the commands extension's ``params.commands`` is: the one definition,
with the URI, the name rule and the messages every part shares (no third-party import)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from th_ext.problems._text import quoted

__all__ = [
    "COMMAND_NAME_PATTERN",
    "ENTRY_FIELDS",
    "EXTENSION_URI",
    "NAME_RULE",
    "duplicate_message",
    "entry_fault",
    "is_command_name",
    "listed_twice",
    "name_mismatch",
    "name_requirement",
    "repeated_names",
    "runs_on_message",
]

EXTENSION_URI = "https://madarauchiha-314.github.io/tiny-harness/a2a/ext/commands/v1"
"""The extension's URI, exported as ``th_ext.commands.COMMANDS_V1_URI``."""

NAME_RULE = "^[a-z][a-z0-9-]*$"
"""The name rule as the spec and every message write it."""

COMMAND_NAME_PATTERN = re.compile(NAME_RULE[1:-1])
"""What a registered command name looks like (matched against the whole name)."""

ENTRY_FIELDS = frozenset({"name", "description", "argument_hint"})
"""The fields an entry may have; ``name`` and ``description`` are required."""


def is_command_name(value: object) -> bool:
    """Whether ``value`` is a string that matches the name rule as a whole."""
    return isinstance(value, str) and COMMAND_NAME_PATTERN.fullmatch(value) is not None


def name_mismatch(name: object) -> str:
    """What is wrong with a listed name that breaks the rule."""
    return f"name {quoted(name)} does not match {NAME_RULE}"


def name_requirement(name: object) -> str:
    """Why a program may not register or answer with ``name``."""
    return f"command name {quoted(name)} must match {NAME_RULE}"


def duplicate_message(name: str, first: int) -> str:
    """What is wrong with a name listed again after index ``first``, in a report."""
    return f"command {quoted(name)} is already registered at index {first}"


def listed_twice(name: str) -> str:
    """What is wrong with a name listed again, for a client that leaves the entry out."""
    return f"{quoted(name)} is listed twice"


def runs_on_message(name: object) -> str:
    """Why an entry with ``runsOn`` does not belong on a commands v1 card, and the ways out."""
    return (
        f"command {quoted(name)} carries runsOn: tiny-harness 0.9 writes runsOn for a command the "
        "client runs itself; commands v1 as published does not allow it"
    )


def entry_fault(raw: Any) -> str | None:
    """The first reason a client cannot use the entry ``raw``, or None when it can."""
    if not isinstance(raw, dict):
        return "not a JSON object"
    if "runsOn" in raw:
        return runs_on_message(raw.get("name"))
    unknown = sorted(set(raw) - ENTRY_FIELDS)
    if unknown:
        return f"unknown field {quoted(unknown[0])}"
    name = raw.get("name")
    if not isinstance(name, str):
        return "name is missing or not a string"
    if not is_command_name(name):
        return name_mismatch(name)
    if not isinstance(raw.get("description"), str):
        return f"{quoted(name)} has no description"
    if not isinstance(raw.get("argument_hint", ""), str):
        return f"{quoted(name)}: argument_hint is not a string"
    return None


def repeated_names(names: Iterable[object]) -> Iterator[tuple[int, str, int]]:
    """``(index, name, first index)`` for every string name listed again, in order.

    Values that are not strings (entries left out, or without a usable name) are skipped and
    do not stop the search.
    """
    first: dict[str, int] = {}
    for index, name in enumerate(names):
        if not isinstance(name, str):
            continue
        if name in first:
            yield index, name, first[name]
        else:
            first[name] = index
