"""Field tables for a spec page and a host page: the rows derived from a params schema, and
the words they show, kept in ``fields.toml``."""

from __future__ import annotations

import json
import tomllib
from typing import Any

from pydantic import BaseModel, ConfigDict

from th_ext._exceptions import PublishError
from th_ext.catalog._reader import read_file, schema_document
from th_ext.catalog._records import ExtensionVersion

__all__ = [
    "FieldRow",
    "FieldTable",
    "check_field_descriptions",
    "described_field_tables",
    "field_tables",
]


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


def describe_type(prop: dict[str, Any]) -> str:
    """A short human name for a property's type (``array of CommandSpec``, ``string``...)."""
    if "$ref" in prop:
        return str(prop["$ref"]).rsplit("/", 1)[-1]
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
    """Every object definition of ``schema`` as a table, the root object first.

    Written here, not taken from a schema-to-Markdown package: the rows are a few lines of
    code, and the tables must match the page's own anchors and wording.
    """
    tables = [_table(str(schema.get("title", "params")), schema)]
    definitions: dict[str, Any] = schema.get("$defs", {})
    tables.extend(
        _table(name, definition)
        for name, definition in definitions.items()
        if isinstance(definition, dict) and "properties" in definition
    )
    return tables


# The field tables' descriptions, in the spec page's own words, from ``fields.toml``.
#
# A generated schema names its fields (``"title": "Argument Hint"``) but rarely says what they
# mean, and ``schema.json`` may not change once published. So each version keeps the words its
# page shows in ``fields.toml`` beside the schema: one TOML table per schema definition, one line
# per property. Rows are ordered required fields first (in the schema's ``required`` order), then
# the rest in schema order. A property with no description, here or in the schema, is a problem.

FIELDS_FILE = "fields.toml"


def _descriptions(version: ExtensionVersion) -> dict[str, Any]:
    path = version.folder / FIELDS_FILE
    if not path.is_file() and not path.is_symlink():
        return {}
    try:
        return tomllib.loads(read_file(version, FIELDS_FILE).decode("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise PublishError(f"{version.key}: {FIELDS_FILE} cannot be read ({exc})") from None


def _definition(schema: dict[str, Any], title: str) -> Any:
    """The object definition of ``schema`` that the table ``title`` shows."""
    if str(schema.get("title", "params")) == title:
        return schema
    return schema.get("$defs", {}).get(title, {})


def _described(
    version: ExtensionVersion, table: FieldTable, words: dict[str, Any]
) -> tuple[FieldTable, list[str]]:
    definition = _definition(schema_document(version), table.title)
    problems: list[str] = []
    rows: list[FieldRow] = []
    for row in table.rows:
        text = words.get(row.name)
        description = " ".join(str(text).split()) if isinstance(text, str) else ""
        if not description:  # the schema's own description, never its title
            prop = definition.get("properties", {}).get(row.name, {})
            description = " ".join(str(prop.get("description", "")).split())
        if not description:
            problems.append(
                f"{version.key}: field {table.title}.{row.name} has no description; "
                f"add it to {FIELDS_FILE} under [{table.title}]"
            )
        rows.append(row.model_copy(update={"description": description}))
    required = definition.get("required", []) if isinstance(definition, dict) else []
    order = [str(name) for name in required]
    rows.sort(key=lambda row: (0, order.index(row.name)) if row.name in order else (1, 0))
    return table.model_copy(update={"rows": tuple(rows)}), problems


def _all(version: ExtensionVersion) -> tuple[list[FieldTable], list[str]]:
    words = _descriptions(version)
    tables: list[FieldTable] = []
    problems: list[str] = []
    for table in field_tables(schema_document(version)):
        section = words.get(table.title, {})
        described, found = _described(version, table, section if isinstance(section, dict) else {})
        tables.append(described)
        problems += found
    return tables, problems


def described_field_tables(version: ExtensionVersion) -> list[FieldTable]:
    """The version's field tables with the page's descriptions, in the page's row order."""
    return _all(version)[0]


def check_field_descriptions(versions: list[ExtensionVersion]) -> list[str]:
    """Every schema property without a description, one problem each."""
    problems: list[str] = []
    for version in versions:
        try:
            problems += _all(version)[1]
        except PublishError as exc:
            problems += exc.problems
    return problems
