"""The dispatch rule: does an A2A 1.0 message run a command, and if so which one."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from th_ext.commands._entry import is_command_name
from th_ext.problems import closest_name

__all__ = [
    "ASCII_WHITESPACE",
    "NON_TEXT_CONTENT",
    "CommandCall",
    "CommandDecision",
    "closest_name",
    "decide",
    "parse_command",
]

ASCII_WHITESPACE = " \t\n\r\f\v"
"""Space, tab, line feed, carriage return, form feed, vertical tab: the rule's whitespace."""

NON_TEXT_CONTENT = ("raw", "url", "data")
"""The content fields of a part that is not a text part (a file's ``raw`` or ``url``, ``data``)."""
_FIRST_WHITESPACE = re.compile(r"[ \t\n\r\f\v]")


@dataclass(frozen=True, slots=True)
class CommandCall:
    """A message that runs a command: the registered ``name`` and its ``arguments``."""

    name: str
    arguments: str


@dataclass(frozen=True, slots=True)
class CommandDecision:
    """The rule's answer with its reason in words.

    ``call`` is None for an ordinary message; ``name`` is the name the text would give
    (``models`` for ``/models``) even when it is not registered, or None when the message does
    not get that far.
    """

    call: CommandCall | None
    name: str | None
    reason: str


def parse_command(message: Any, registered_names: Collection[str]) -> CommandCall | None:
    """The command ``message`` runs, or None when it is an ordinary message."""
    return decide(message, registered_names).call


def decide(message: Any, registered_names: Collection[str]) -> CommandDecision:
    """Apply the rule to ``message`` (A2A 1.0 JSON) and say why it is or is not a command.

    Pure, so that an agent and a client decide alike: no I/O, no state, no exception for any
    input; a message that is not what the rule expects is an ordinary message.
    """
    text, why_not = _only_text(message)
    if text is None:
        return CommandDecision(None, None, why_not)
    if not text.startswith("/"):
        if text.lstrip(ASCII_WHITESPACE).startswith("/"):
            why = 'the text has whitespace before "/"; a command must begin with "/"'
        else:
            why = 'the text does not begin with "/"'
        return CommandDecision(None, None, why)
    name, arguments = _split(text)
    if not name:
        return CommandDecision(None, name, 'the name after "/" is empty')
    if name not in registered_names or not is_command_name(name):
        near = closest_name(name, registered_names)
        hint = f" (did you mean /{near}?)" if near is not None else ""
        return CommandDecision(
            None, name, f"{name!r} is not registered{hint}; {_registered(registered_names)}"
        )
    return CommandDecision(CommandCall(name, arguments), name, f"{name!r} is a registered command")


def _only_text(message: Any) -> tuple[str | None, str]:
    """The text of the message's only part, or None and the reason there is none."""
    if not isinstance(message, Mapping):
        return None, "the message is not a JSON object"
    parts = message.get("parts")
    if not isinstance(parts, list):
        return None, "the message has no parts list"
    if len(parts) != 1:
        return None, f"the message has {len(parts)} parts; a command message has exactly one"
    part = parts[0]
    if not isinstance(part, Mapping):
        return None, "the message's part is not a JSON object"
    others = [key for key in NON_TEXT_CONTENT if key in part]
    if "text" not in part:
        kind = others[0] if others else "no content"
        return None, f"the message's only part is not a text part (it has {kind})"
    if others:
        return None, f"the message's part has {others[0]} beside text; it is not a text part"
    text = part["text"]
    if not isinstance(text, str):
        return None, "the message's text is not a string"
    return text, ""


def _split(text: str) -> tuple[str, str]:
    """``/name args`` into the name and the stripped arguments (``text`` begins with ``/``)."""
    end = _FIRST_WHITESPACE.search(text, 1)
    if end is None:
        return text[1:], ""
    return text[1 : end.start()], text[end.start() :].strip(ASCII_WHITESPACE)


def _registered(registered_names: Collection[str]) -> str:
    names = [name for name in registered_names if isinstance(name, str)]
    if not names:
        return "no commands are registered"
    return "the registered commands are " + ", ".join(f"/{name}" for name in names)
