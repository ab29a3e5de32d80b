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
from th_ext.commands._names import COMMAND_NAME_PATTERN, EXTENSION_URI
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
    "EXTENSION_URI",
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
