"""The messages conform sends: every selected command, and the messages that must stay ordinary.

Each scenario is built from the card alone. A command whose argument hint asks for an argument
(``<focus>``, outside square brackets) is sent with one; an optional one (``[<model>]``) is
left out, which keeps side effects small. The unregistered name is chosen so that it matches
the name pattern and is not on the card.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from th_ext.commands._card import CardCommand
from th_ext.commands._hint import asks_for_argument
from th_ext.conform._rule_edges import rule_edges

__all__ = ["Scenario", "command_text", "edge_scenarios", "scenarios", "user_message"]

ARGUMENT = "th-ext conform"
"""The argument sent to a command whose hint requires one."""


@dataclass(frozen=True, slots=True)
class Scenario:
    """One message to send, and what the extension says it must do."""

    label: str
    parts: tuple[dict[str, Any], ...]
    command: str | None
    """The command it runs, or None for a message that must stay ordinary."""
    requirement: str
    """The requirement its answer is checked against: CMD-1 for a command, CMD-6 for an
    unregistered name, CMD-8 for any other ordinary message."""
    source: str = "command"
    """Where it comes from: ``command`` (a registered command), ``unregistered``, ``plain``,
    ``table`` (a row of the rule's table) or ``condition N`` (a numbered condition)."""


def command_text(command: CardCommand) -> str:
    """``/name``, plus an argument when the hint asks for one outside square brackets."""
    if asks_for_argument(command.argument_hint):
        return f"/{command.name} {ARGUMENT}"
    return f"/{command.name}"


def scenarios(commands: list[CardCommand], registered: list[str]) -> list[Scenario]:
    """What every binding and mode gets, on a new and on an existing task: each selected
    command, an unregistered name and a plain question."""
    found = [
        Scenario(f"/{c.name}", ({"text": command_text(c)},), c.name, "CMD-1") for c in commands
    ]
    unregistered = _unregistered_name(registered)
    found += [
        Scenario(
            f"unregistered /{unregistered}",
            ({"text": f"/{unregistered}"},),
            None,
            "CMD-6",
            "unregistered",
        ),
        Scenario("an ordinary message", ({"text": "What is A2A?"},), None, "CMD-8", "plain"),
    ]
    return found


def edge_scenarios(spec: str, commands: list[CardCommand], registered: list[str]) -> list[Scenario]:
    """The edges of the rule (``th_ext.conform._rule_edges``), sent once per interface on an
    existing task. They name a selected command, preferring one that takes no argument; with
    none selected, the unregistered name, and only the messages that must stay ordinary."""
    chosen = sorted(commands, key=lambda c: bool(c.argument_hint))[:1]
    name = chosen[0].name if chosen else _unregistered_name(registered)
    argument = ARGUMENT if chosen else ""
    found = []
    for edge in rule_edges(spec, name, argument, registered):
        if edge.command is not None and not chosen:
            continue
        requirement = "CMD-1" if edge.command else "CMD-6" if edge.unregistered_name else "CMD-8"
        found.append(Scenario(edge.label, edge.parts, edge.command, requirement, edge.source))
    return found


def user_message(
    parts: tuple[dict[str, Any], ...], task: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A fresh user message; with ``task``, addressed to that task and its context."""
    message: dict[str, Any] = {
        "messageId": str(uuid.uuid4()),
        "role": "ROLE_USER",
        "parts": [dict(part) for part in parts],
    }
    if task is not None:
        message["taskId"] = task["id"]
        if isinstance(task.get("contextId"), str) and task["contextId"]:
            message["contextId"] = task["contextId"]
    return message


def _unregistered_name(registered: list[str]) -> str:
    name, n = "th-ext-unregistered", 1
    while name in registered:
        n += 1
        name = f"th-ext-unregistered-{n}"
    return name
