"""The field tables' descriptions, in the spec page's own words, from ``fields.toml``.

A generated schema names its fields (``"title": "Argument Hint"``) but rarely says what they
mean, and ``schema.json`` may not change once published. So each version keeps the words its
page shows in ``fields.toml`` beside the schema: one TOML table per schema definition, one line
per property. Rows are ordered required fields first (in the schema's ``required`` order), then
the rest in schema order. A property with no description, here or in the schema, is a problem.
"""

from __future__ import annotations

import tomllib
from typing import Any

from th_ext._exceptions import PublishError
from th_ext.catalog._reader import read_file, schema_document
from th_ext.catalog._records import ExtensionVersion
from th_ext.publish._field_table import FieldRow, FieldTable, field_tables

__all__ = ["FIELDS_FILE", "check_field_descriptions", "described_field_tables"]

FIELDS_FILE = "fields.toml"


def _descriptions(version: ExtensionVersion) -> dict[str, Any]:
    path = version.folder / FIELDS_FILE
    if not path.is_file() and not path.is_symlink():
        return {}
    try:
        return tomllib.loads(read_file(version, FIELDS_FILE).decode("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise PublishError(f"{version.key}: {FIELDS_FILE} cannot be read ({exc})") from None


def _required_order(version: ExtensionVersion, title: str) -> list[str]:
    schema = schema_document(version)
    definition = (
        schema
        if str(schema.get("title", "params")) == title
        else (schema.get("$defs", {}).get(title, {}))
    )
    required = definition.get("required", []) if isinstance(definition, dict) else []
    return [str(name) for name in required]


def _described(
    version: ExtensionVersion, table: FieldTable, words: dict[str, Any]
) -> tuple[FieldTable, list[str]]:
    problems: list[str] = []
    rows: list[FieldRow] = []
    for row in table.rows:
        text = words.get(row.name)
        description = " ".join(str(text).split()) if isinstance(text, str) else ""
        if not description:  # the schema's own description, never its title
            prop = schema_document(version).get("properties", {}).get(row.name, {})
            if table.title != str(schema_document(version).get("title", "params")):
                prop = schema_document(version)["$defs"][table.title]["properties"][row.name]
            description = " ".join(str(prop.get("description", "")).split())
        if not description:
            problems.append(
                f"{version.key}: field {table.title}.{row.name} has no description; "
                f"add it to {FIELDS_FILE} under [{table.title}]"
            )
        rows.append(row.model_copy(update={"description": description}))
    order = _required_order(version, table.title)
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
