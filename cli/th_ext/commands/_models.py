"""The commands extension's card ``params`` as pydantic models.

These models are the source of ``extensions/commands/v1/schema.json``: their JSON schema, with
the ``$id`` and ``$schema`` added, is the published file byte for byte. The docstrings below
are therefore part of the published schema and must not change for v1.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from th_ext.catalog._records import canonical_schema_text as render_schema
from th_ext.commands._names import EXTENSION_URI as COMMANDS_V1_URI

__all__ = [
    "COMMANDS_V1_URI",
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
