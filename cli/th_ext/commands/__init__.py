"""The reference implementation of the tiny-harness commands extension.

Import it to adopt the extension in a Python agent: register the commands with a
``CommandRegistry`` and put ``registry.card_extension()`` on the card; decide each incoming
message with ``parse_command``; answer a command with ``build_command_reply``. A client reads
the card's commands with ``read_card_commands`` and finds a command's reply in a task or an
event with ``command_reply_of``.

The rule, the reply and the card reader need only the standard library. Every name is imported
on first use, so that a client deciding messages never loads pydantic (the params models, the
schema and the registry that produces them), and the validator loads only the entry rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from th_ext._lazy import lazy_names as _lazy_names

if TYPE_CHECKING:
    from th_ext.commands._card import CardCommand, CardCommands, read_card_commands
    from th_ext.commands._dispatch_rule import (
        ASCII_WHITESPACE,
        CommandCall,
        CommandDecision,
        closest_name,
        decide,
        parse_command,
    )
    from th_ext.commands._models import (
        COMMANDS_V1_URI,
        CommandsExtensionParams,
        CommandSpec,
        commands_v1_schema,
        render_schema,
    )
    from th_ext.commands._names import COMMAND_NAME_PATTERN
    from th_ext.commands._registry import CommandRegistry
    from th_ext.commands._reply import (
        TASK_STATES,
        CommandReply,
        MetadataPlace,
        build_command_reply,
        command_reply_metadata,
        command_reply_of,
        reply_command_name,
    )

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
    "CommandReply",
    "CommandSpec",
    "CommandsExtensionParams",
    "MetadataPlace",
    "build_command_reply",
    "closest_name",
    "command_reply_metadata",
    "command_reply_of",
    "commands_v1_schema",
    "decide",
    "parse_command",
    "read_card_commands",
    "render_schema",
    "reply_command_name",
]

__getattr__ = _lazy_names(
    __name__,
    {
        "CardCommand": "th_ext.commands._card",
        "CardCommands": "th_ext.commands._card",
        "read_card_commands": "th_ext.commands._card",
        "ASCII_WHITESPACE": "th_ext.commands._dispatch_rule",
        "CommandCall": "th_ext.commands._dispatch_rule",
        "CommandDecision": "th_ext.commands._dispatch_rule",
        "closest_name": "th_ext.commands._dispatch_rule",
        "decide": "th_ext.commands._dispatch_rule",
        "parse_command": "th_ext.commands._dispatch_rule",
        "COMMANDS_V1_URI": "th_ext.commands._models",
        "CommandsExtensionParams": "th_ext.commands._models",
        "CommandSpec": "th_ext.commands._models",
        "commands_v1_schema": "th_ext.commands._models",
        "render_schema": "th_ext.commands._models",
        "COMMAND_NAME_PATTERN": "th_ext.commands._names",
        "CommandRegistry": "th_ext.commands._registry",
        "TASK_STATES": "th_ext.commands._reply",
        "build_command_reply": "th_ext.commands._reply",
        "command_reply_metadata": "th_ext.commands._reply",
        "command_reply_of": "th_ext.commands._reply",
        "CommandReply": "th_ext.commands._reply",
        "MetadataPlace": "th_ext.commands._reply",
        "reply_command_name": "th_ext.commands._reply",
    },
)
