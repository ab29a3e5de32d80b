"""The reference implementation of the tiny-harness commands extension.

Import it to adopt the extension in a Python agent: the card params models, and (with the
dispatch rule) everything an agent needs to decide whether a message runs a command.
"""

from th_ext.commands._models import (
    COMMANDS_V1_URI,
    CommandsExtensionParams,
    CommandSpec,
    commands_v1_schema,
    render_schema,
)

__all__ = [
    "COMMANDS_V1_URI",
    "CommandSpec",
    "CommandsExtensionParams",
    "commands_v1_schema",
    "render_schema",
]
