"""The command registry and the card ``params`` models it fills: what an agent puts on its card.
Its models generate the published schema, so their docstrings are part of it and must not change."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel, ConfigDict

from th_ext._exceptions import CommandRegistrationError
from th_ext.catalog._records import canonical_schema_text as render_schema
from th_ext.commands._entry import EXTENSION_URI as COMMANDS_V1_URI
from th_ext.commands._entry import is_command_name, name_requirement

__all__ = [
    "COMMANDS_V1_URI",
    "CommandRegistry",
    "CommandSpec",
    "CommandsExtensionParams",
    "commands_v1_schema",
    "render_schema",
]

JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


class CommandSpec(BaseModel):
    """What clients see on the card (R6.7). ``name`` must match ``[a-z][a-z0-9-]*``; the
    registry enforces it."""

    model_config = ConfigDict(extra="forbid")

    name: str
    description: str
    argument_hint: str = ""


class CommandsExtensionParams(BaseModel):
    """The commands extension's card ``params``: every registered command, in registration
    order, for clients to offer as ``/`` completions (R6.7)."""

    model_config = ConfigDict(extra="forbid")

    commands: list[CommandSpec] = []


def commands_v1_schema() -> dict[str, Any]:
    """The v1 params schema as a dict: the models' schema plus ``$id`` and ``$schema``."""
    schema = CommandsExtensionParams.model_json_schema()
    schema["$id"] = f"{COMMANDS_V1_URI}/schema.json"
    schema["$schema"] = JSON_SCHEMA_DIALECT
    return schema


class CommandRegistry:
    """The commands an agent has registered, in registration order."""

    def __init__(self) -> None:
        self._specs: dict[str, CommandSpec] = {}

    def register(self, name: str, description: str, argument_hint: str = "") -> CommandSpec:
        """Register ``/name``; ``CommandRegistrationError`` if the name is malformed or taken."""
        if not is_command_name(name):
            raise CommandRegistrationError(name_requirement(name))
        if name in self._specs:
            raise CommandRegistrationError(f"command name {name!r} is already registered")
        if not isinstance(description, str) or not description.strip():
            raise CommandRegistrationError(f"command {name!r} needs a description")
        if not isinstance(argument_hint, str):
            raise CommandRegistrationError(f"command {name!r}: argument_hint must be a string")
        spec = CommandSpec(name=name, description=description, argument_hint=argument_hint)
        self._specs[name] = spec
        return spec

    @property
    def names(self) -> tuple[str, ...]:
        """The registered names, in registration order."""
        return tuple(self._specs)

    def get(self, name: str) -> CommandSpec | None:
        return self._specs.get(name)

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def __iter__(self) -> Iterator[CommandSpec]:
        return iter(self._specs.values())

    def __len__(self) -> int:
        return len(self._specs)

    def params(self) -> CommandsExtensionParams:
        """The extension's card params: every command, in registration order."""
        return CommandsExtensionParams(commands=list(self._specs.values()))

    def card_params(self) -> dict[str, Any]:
        """The params as JSON, ready for ``capabilities.extensions[].params``."""
        return self.params().model_dump(mode="json")

    def card_extension(
        self, description: str = "Slash commands run on the harness.", *, required: bool = False
    ) -> dict[str, Any]:
        """The whole ``capabilities.extensions[]`` entry that declares the extension."""
        return {
            "uri": COMMANDS_V1_URI,
            "description": description,
            "required": required,
            "params": self.card_params(),
        }
