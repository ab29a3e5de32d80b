"""Reading the commands extension off an agent card, as a client does when it connects."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from th_ext.commands._entry import EXTENSION_URI, entry_fault, listed_twice, repeated_names
from th_ext.problems._text import quoted

__all__ = [
    "CardCommand",
    "CardCommands",
    "asks_for_argument",
    "read_card_commands",
    "without_optional",
]


@dataclass(frozen=True, slots=True)
class CardCommand:
    """One command as the card lists it: what a client shows for ``/`` completion."""

    name: str
    description: str
    argument_hint: str = ""

    @property
    def usage(self) -> str:
        """``/name <hint>``, as a completion shows it."""
        return f"/{self.name} {self.argument_hint}".rstrip()

    def to_dict(self) -> dict[str, str]:
        return {
            "name": self.name,
            "argument_hint": self.argument_hint,
            "description": self.description,
        }


@dataclass(frozen=True, slots=True)
class CardCommands:
    """What a card says about the commands extension.

    ``declared`` is true when the card lists the extension's URI in ``capabilities.extensions``.
    Plain dataclasses, free of pydantic like the rule, so that a client's start-up stays light.
    """

    declared: bool
    required: bool = False
    commands: tuple[CardCommand, ...] = ()
    problems: tuple[str, ...] = ()

    @property
    def names(self) -> list[str]:
        return [command.name for command in self.commands]


def read_card_commands(card: Any, uri: str = EXTENSION_URI) -> CardCommands:
    """The extension as ``card`` (a parsed JSON agent card) declares it.

    An entry that cannot be used is left out and named in ``problems``, so one bad entry does
    not hide the others. Each problem starts with the JSON pointer (RFC 6901) of what it is
    about, as every report of th-ext places its problems:
    ``/capabilities/extensions/0/params/commands/1: ...``.
    """
    found = _find_entry(card, uri)
    if found is None:
        return CardCommands(declared=False)
    place, entry = found
    required = entry.get("required") is True
    params = entry.get("params", {})
    at = f"/capabilities/extensions/{place}/params"
    if not isinstance(params, dict):
        return CardCommands(
            declared=True, required=required, problems=(f"{at}: params is not a JSON object",)
        )
    raw_commands = params.get("commands", [])
    if not isinstance(raw_commands, list):
        return CardCommands(
            declared=True,
            required=required,
            problems=(f"{at}/commands: params.commands is not a list",),
        )
    problems = [
        f"{at}/{_escaped(key)}: params has an unknown field {quoted(key)}"
        for key in params
        if key != "commands"
    ]
    faults = list(map(entry_fault, raw_commands))
    usable = [
        raw["name"] if fault is None else None
        for raw, fault in zip(raw_commands, faults, strict=True)
    ]
    for index, name, _ in repeated_names(usable):
        faults[index] = listed_twice(name)
    commands: list[CardCommand] = []
    for index, (raw, fault) in enumerate(zip(raw_commands, faults, strict=True)):
        if fault is not None:
            problems.append(f"{at}/commands/{index}: {fault}")
        else:
            commands.append(
                CardCommand(raw["name"], raw["description"], raw.get("argument_hint", ""))
            )
    return CardCommands(
        declared=True, required=required, commands=tuple(commands), problems=tuple(problems)
    )


def _escaped(key: str) -> str:
    """``key`` as one reference token of a JSON pointer (RFC 6901 section 3)."""
    return key.replace("~", "~0").replace("/", "~1")


def _find_entry(card: Any, uri: str) -> tuple[int, dict[str, Any]] | None:
    """The extension's entry in ``capabilities.extensions`` and its place there."""
    capabilities = card.get("capabilities") if isinstance(card, dict) else None
    extensions = capabilities.get("extensions") if isinstance(capabilities, dict) else None
    for place, entry in enumerate(extensions if isinstance(extensions, list) else []):
        if isinstance(entry, dict) and entry.get("uri") == uri:
            return place, entry
    return None


def without_optional(hint: str) -> str:
    """``hint`` with every ``[...]`` removed (a ``[`` never closed stays, with what follows)."""
    kept: list[str] = []
    start = 0
    while True:
        opening = hint.find("[", start)
        if opening < 0:
            break
        closing = hint.find("]", opening + 1)
        if closing < 0:
            break
        kept.append(hint[start:opening])
        start = closing + 1
    kept.append(hint[start:])
    return "".join(kept)


def asks_for_argument(hint: str) -> bool:
    """True when a ``<...>`` stands outside square brackets in ``hint``.

    As in usage lines, ``<focus>`` is required and ``[<model>]`` optional. A hint comes from a
    card and may be anything (150 kB of ``[``), so it is read with ``str.find`` only: linear time.
    """
    rest = without_optional(hint)
    opening = rest.find("<")
    return opening >= 0 and rest.find(">", opening + 1) >= 0
