"""The messages conform sends: every selected command, and the messages that must stay ordinary.

Each scenario is built from the card alone. A command whose argument hint asks for an argument
(``<focus>``, outside square brackets) is sent with one; an optional one (``[<model>]``) is
left out, which keeps side effects small. The unregistered name is chosen so that it matches
the name pattern and is not on the card.
"""

from __future__ import annotations

import uuid
from typing import Any

from th_ext._record import record
from th_ext.commands._card import CardCommand
from th_ext.commands._hint import asks_for_argument

__all__ = ["Scenario", "command_text", "scenarios", "user_message"]

ARGUMENT = "th-ext conform"
"""The argument sent to a command whose hint requires one."""


@record
class Scenario:
    """One message to send, and what the extension says it must do."""

    label: str
    parts: tuple[dict[str, Any], ...]
    command: str | None
    """The command it runs, or None for a message that must stay ordinary."""
    requirement: str
    """The requirement an ordinary message's answer is checked against (CMD-6 or CMD-8)."""


def command_text(command: CardCommand) -> str:
    """``/name``, plus an argument when the hint asks for one outside square brackets."""
    if asks_for_argument(command.argument_hint):
        return f"/{command.name} {ARGUMENT}"
    return f"/{command.name}"


def scenarios(commands: list[CardCommand], registered: list[str]) -> list[Scenario]:
    """Every selected command, then the ordinary messages, in a fixed order."""
    found = [
        Scenario(f"/{c.name}", ({"text": command_text(c)},), c.name, "CMD-1") for c in commands
    ]
    unregistered = _unregistered_name(registered)
    known = registered[0] if registered else "help"
    found += [
        Scenario(f"unregistered /{unregistered}", ({"text": f"/{unregistered}"},), None, "CMD-6"),
        Scenario("leading whitespace", ({"text": f" /{known}"},), None, "CMD-8"),
        Scenario(
            f"/{known} beside a second part",
            ({"text": f"/{known}"}, {"text": "and a second part"}),
            None,
            "CMD-8",
        ),
        Scenario("a data part", ({"data": {"text": f"/{known}"}},), None, "CMD-8"),
        Scenario("an ordinary message", ({"text": "What is A2A?"},), None, "CMD-8"),
    ]
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
