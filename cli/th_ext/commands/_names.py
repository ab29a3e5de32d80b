"""The identifiers of the commands extension that every part of it shares.

They live here, apart from the pydantic models, so that deciding a message (the dispatch rule
and the dry run) needs nothing heavier than ``re``.
"""

from __future__ import annotations

import re

__all__ = ["COMMAND_NAME_PATTERN", "EXTENSION_URI", "NAME_RULE"]

EXTENSION_URI = "https://madarauchiha-314.github.io/tiny-harness/a2a/ext/commands/v1"
"""The extension's URI, exported as ``th_ext.commands.COMMANDS_V1_URI``."""

NAME_RULE = "^[a-z][a-z0-9-]*$"
"""The name rule as the spec and every message write it."""

COMMAND_NAME_PATTERN = re.compile(NAME_RULE[1:-1])
"""What a registered command name looks like (matched against the whole name)."""
