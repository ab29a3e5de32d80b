"""The reference implementation of the tiny-harness commands extension.

Import it to adopt the extension in a Python agent: register the commands with a
``CommandRegistry`` and put ``registry.card_extension()`` on the card; decide each incoming
message with ``parse_command``; answer a command with ``build_command_reply``. A client reads
the card's commands with ``read_card_commands``.

The rule, the reply and the card reader need only the standard library. The names built on
pydantic (the params models, the schema and the registry that produces them) are imported on
first use, so that a client deciding messages starts quickly.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from th_ext.commands._card import CardCommand, CardCommands, read_card_commands
from th_ext.commands._dispatch_rule import (
    ASCII_WHITESPACE,
    CommandCall,
    CommandDecision,
    decide,
    parse_command,
)
from th_ext.commands._names import COMMAND_NAME_PATTERN
from th_ext.commands._reply import (
    TASK_STATES,
    build_command_reply,
    command_reply_metadata,
    reply_command_name,
)

if TYPE_CHECKING:
    from th_ext.commands._models import (
        COMMANDS_V1_URI,
        CommandsExtensionParams,
        CommandSpec,
        commands_v1_schema,
        render_schema,
    )
    from th_ext.commands._registry import CommandRegistry

__all__ = [
    "ASCII_WHITESPACE",
    "COMMANDS_V1_URI",
    "COMMAND_NAME_PATTERN",
    "TASK_STATES",
    "CardCommand",
    "CardCommands",
    "CommandCall",
    "CommandDecision",
    "CommandRegistry",
    "CommandSpec",
    "CommandsExtensionParams",
    "build_command_reply",
    "command_reply_metadata",
    "commands_v1_schema",
    "decide",
    "parse_command",
    "read_card_commands",
    "render_schema",
    "reply_command_name",
]

_LAZY = {
    "COMMANDS_V1_URI": "th_ext.commands._models",
    "CommandsExtensionParams": "th_ext.commands._models",
    "CommandSpec": "th_ext.commands._models",
    "commands_v1_schema": "th_ext.commands._models",
    "render_schema": "th_ext.commands._models",
    "CommandRegistry": "th_ext.commands._registry",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
