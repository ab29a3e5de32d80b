"""The reference implementation of the tiny-harness commands extension: the dispatch rule, the
command reply, the card reader and the registry."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from th_ext.commands._card import CardCommand, CardCommands, read_card_commands
from th_ext.commands._dispatch_rule import (
    ASCII_WHITESPACE,
    CommandCall,
    CommandDecision,
    closest_name,
    decide,
    parse_command,
)
from th_ext.commands._entry import COMMAND_NAME_PATTERN, EXTENSION_URI
from th_ext.commands._entry import EXTENSION_URI as COMMANDS_V1_URI
from th_ext.commands._reply import (
    TASK_STATES,
    CommandReply,
    MetadataPlace,
    build_command_reply,
    command_reply_metadata,
    command_reply_of,
    reply_command_name,
)

if TYPE_CHECKING:
    from th_ext.commands._registry import (
        CommandRegistry,
        CommandsExtensionParams,
        CommandSpec,
        commands_v1_schema,
        render_schema,
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

_ON_PYDANTIC = frozenset(
    {
        "CommandRegistry",
        "CommandSpec",
        "CommandsExtensionParams",
        "commands_v1_schema",
        "render_schema",
    }
)


def __getattr__(name: str) -> Any:
    """The registry and the params models, on first use: they stand on pydantic, which took a
    command that reads cards from 19 ms to 107 ms of start-up, and building the models costs
    about 17 ms even where pydantic is loaded. ``th-ext validate``, the dry run and every client
    that only decides messages never register a command."""
    if name in _ON_PYDANTIC:
        from th_ext.commands import _registry  # deferred: pydantic, see the docstring

        return getattr(_registry, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
