"""What the tests read off the ``th-ext`` command tree and its JUnit documents."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from enum import Enum
from typing import Any

import typer.main

from th_ext.cli import app


def command_paths() -> list[list[str]]:
    """Every command path: ``[]`` (the root), ``["validate"]``, ..., ``["lock", "add"]``."""
    root = typer.main.get_command(app)
    found: list[list[str]] = [[]]
    for name, command in root.commands.items():  # type: ignore[attr-defined]
        found.append([name])
        found.extend([name, sub] for sub in getattr(command, "commands", {}))
    return found


def _command(path: list[str]) -> Any:
    command: Any = typer.main.get_command(app)
    for name in path:
        command = command.commands[name]
    return command


@dataclass(frozen=True)
class BoundedOption:
    """An option that accepts a range of numbers or a fixed list of choices."""

    path: tuple[str, ...]  # the command: ("validate",), ("lock", "add")
    name: str  # its long name
    low: Any = None
    high: Any = None
    choices: tuple[str, ...] = ()

    def required_arguments(self) -> list[str]:
        """A placeholder for each argument the command requires, so that it gets as far as
        reading its options."""
        return [
            "x"
            for param in _command(list(self.path)).params
            if param.param_type_name == "argument" and param.required
        ]


def bounded_options() -> list[BoundedOption]:
    """Every option of every command that has a range (``min``, ``max``) or choices (an enum),
    read off the command tree as typer built it."""
    found = []
    for path in command_paths():
        command = _command(path)
        for param in command.params:
            kind = getattr(param, "type", None)
            if param.param_type_name != "option" or kind is None:
                continue
            name = next((o for o in param.opts if o.startswith("--")), param.opts[0])
            low, high = getattr(kind, "min", None), getattr(kind, "max", None)
            if getattr(kind, "choices", None) is not None:
                choices = tuple(
                    str(c.value) if isinstance(c, Enum) else str(c) for c in kind.choices
                )
                found.append(BoundedOption(tuple(path), name, choices=choices))
            elif low is not None or high is not None:
                found.append(BoundedOption(tuple(path), name, low, high))
    return found


def junit_cases(root: ET.Element) -> list[tuple[str, str, str]]:
    """``(classname, name, outcome)`` of every test case, in order (``pass`` when empty)."""
    return [
        (
            case.get("classname", ""),
            case.get("name", ""),
            next((child.tag for child in case), "pass"),
        )
        for case in root.iter("testcase")
    ]
