"""Field tables for a spec page, derived from a params schema.

One table per object definition (the root first, then every ``$defs`` entry), one row per
property: name, type, required, default, description (the property's ``title`` when the schema
gives no ``description``). Written here rather than taken from a
schema-to-Markdown package: the schemas are small pydantic-generated documents, the rows are a
few lines of code, and the table must match the page's own anchors and wording.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict

__all__ = ["FieldRow", "FieldTable", "field_tables"]


class FieldRow(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    type: str
    required: bool
    default: str | None
    description: str


class FieldTable(BaseModel):
    model_config = ConfigDict(frozen=True)

    title: str
    anchor: str
    description: str
    rows: tuple[FieldRow, ...]


def _ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def describe_type(prop: dict[str, Any]) -> str:
    """A short human name for a property's type (``array of CommandSpec``, ``string``...)."""
    if "$ref" in prop:
        return _ref_name(str(prop["$ref"]))
    for combinator in ("anyOf", "oneOf"):
        if combinator in prop:
            return " or ".join(describe_type(option) for option in prop[combinator])
    if "const" in prop:
        return f"constant {json.dumps(prop['const'])}"
    if "enum" in prop:
        return "one of " + ", ".join(json.dumps(value) for value in prop["enum"])
    kind = prop.get("type")
    if kind == "array":
        items = prop.get("items")
        return f"array of {describe_type(items)}" if isinstance(items, dict) else "array"
    if isinstance(kind, list):
        return " or ".join(str(k) for k in kind)
    return str(kind) if kind else "any"


def _table(title: str, definition: dict[str, Any]) -> FieldTable:
    required = set(definition.get("required", []))
    properties: dict[str, Any] = definition.get("properties", {})
    rows = tuple(
        FieldRow(
            name=name,
            type=describe_type(prop),
            required=name in required,
            default=json.dumps(prop["default"]) if "default" in prop else None,
            description=" ".join(str(prop.get("description") or prop.get("title", "")).split()),
        )
        for name, prop in properties.items()
    )
    return FieldTable(
        title=title,
        anchor=f"schema-{title.lower()}",
        description=" ".join(str(definition.get("description", "")).split()),
        rows=rows,
    )


def field_tables(schema: dict[str, Any]) -> list[FieldTable]:
    """Every object definition of ``schema`` as a table, the root object first."""
    tables = [_table(str(schema.get("title", "params")), schema)]
    definitions: dict[str, Any] = schema.get("$defs", {})
    tables.extend(
        _table(name, definition)
        for name, definition in definitions.items()
        if isinstance(definition, dict) and "properties" in definition
    )
    return tables
