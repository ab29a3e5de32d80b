"""The two identifiers of the commands extension that every part of it shares.

They live here, apart from the pydantic models, so that deciding a message (the dispatch rule
and the dry run) needs nothing heavier than ``re``.
"""

from __future__ import annotations

import re

__all__ = ["COMMAND_NAME_PATTERN", "EXTENSION_URI"]

EXTENSION_URI = "https://madarauchiha-314.github.io/tiny-harness/a2a/ext/commands/v1"
"""The extension's URI, exported as ``th_ext.commands.COMMANDS_V1_URI``."""

COMMAND_NAME_PATTERN = re.compile(r"[a-z][a-z0-9-]*")
"""What a registered command name looks like (matched against the whole name)."""
