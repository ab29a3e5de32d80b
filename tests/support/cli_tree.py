"""What the tests read off the ``th-ext`` command tree and its JUnit documents."""

from __future__ import annotations

import xml.etree.ElementTree as ET

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
