from __future__ import annotations

from th_ext import find
from th_ext.catalog._reader import schema_document
from th_ext.publish import field_tables
from th_ext.publish._field_table import describe_type


def test_commands_schema_gives_one_table_per_definition_with_every_property() -> None:
    tables = field_tables(schema_document(find("commands/v1")))
    assert [table.title for table in tables] == ["CommandsExtensionParams", "CommandSpec"]
    params, spec = tables
    assert [(r.name, r.type, r.required, r.default) for r in params.rows] == [
        ("commands", "array of CommandSpec", False, "[]")
    ]
    assert {(r.name, r.type, r.required, r.default) for r in spec.rows} == {
        ("name", "string", True, None),
        ("description", "string", True, None),
        ("argument_hint", "string", False, '""'),
    }
    assert spec.description.startswith("What clients see on the card")


def test_describe_type_covers_the_usual_shapes() -> None:
    assert describe_type({"anyOf": [{"type": "string"}, {"type": "null"}]}) == "string or null"
    assert describe_type({"enum": ["a", "b"]}) == 'one of "a", "b"'
    assert describe_type({"const": 1}) == "constant 1"
    assert describe_type({"type": ["string", "integer"]}) == "string or integer"
    assert describe_type({}) == "any"
