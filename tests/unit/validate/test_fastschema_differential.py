"""The fast schema check held to jsonschema where its table path runs: arrays of 256 rows on.

``_fastschema`` checks an array of ``MIN_ROWS`` (256) or more items from the facts ``_tables``
shares (``_all_rows``), and a shorter one item by item or column by column. Every case here
runs on both sides of that threshold (255, 256, 257 rows and more), with one bad row at the
start, in the middle or at the end (or every row bad), at module level (with and without the
facts computed beforehand, as the validator does) and through the public entries: the
library's ``validate_value`` with a replacement schema, and ``th-ext validate --schema``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

from tests.unit.validate.conftest import COMMANDS_URI, example_card
from th_ext.cli import app
from th_ext.validate import ValidateOptions, validate_value
from th_ext.validate._fastschema import _SUPPORTED, compile_check
from th_ext.validate._tables import MIN_ROWS, shared_tables, table
from th_ext.validate._validator import SchemaOverride

SIZES = [1, MIN_ROWS - 1, MIN_ROWS, MIN_ROWS + 1, 2 * MIN_ROWS + 3]

DEFS: dict[str, Any] = {
    "Int": {"type": "integer"},
    "Str": {"type": "string"},
    "Named": {"required": ["a"]},
    "Row": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
    "Ints": {"type": "array", "items": {"$ref": "#/$defs/Int"}},
}

# (name, item schema, a good row, a bad row): each bad row breaks the rule the case is about.
CASES: list[tuple[str, Any, Any, Any]] = [
    ("required", {"type": "object", "required": ["a"]}, {"a": 1}, {"b": 1}),
    (
        "required-among-ragged-rows",
        {"type": "object", "required": ["a"]},
        {"a": 1, "b": 2},
        {"b": 2, "c": 3},
    ),
    ("closed", {"properties": {"a": {}}, "additionalProperties": False}, {"a": 1}, {"z": 1}),
    (
        "additional-properties-true",
        {"properties": {"a": {"type": "integer"}}, "additionalProperties": True},
        {"a": 1, "z": 1},
        {"a": "1", "z": 1},
    ),
    (
        "additional-properties-schema",
        {"properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "integer"}},
        {"a": "x", "n": 1},
        {"a": "x", "n": "one"},
    ),
    (
        "additional-properties-ref",
        {"properties": {"a": {"type": "string"}}, "additionalProperties": {"$ref": "#/$defs/Int"}},
        {"a": "x", "n": 1},
        {"a": "x", "n": 1.5},
    ),
    (
        "uniform-values",
        {
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
            "additionalProperties": False,
        },
        {"a": "x", "b": "y"},
        {"a": "x", "b": 2},
    ),
    (
        "uniform-values-and-ref",
        {
            "$ref": "#/$defs/Named",
            "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
            "additionalProperties": False,
        },
        {"a": "x", "b": "y"},
        {"b": "y"},
    ),
    ("ref-only", {"$ref": "#/$defs/Row"}, {"a": "x"}, {"a": 1}),
    (
        "columns-and-ref",
        {"$ref": "#/$defs/Named", "properties": {"b": {"type": "integer"}}},
        {"a": 0, "b": 1},
        {"b": 1},
    ),
    (
        "optional-column",
        {"properties": {"a": {"type": "string"}, "b": {"type": "integer"}}},
        {"a": "x"},
        {"a": "x", "b": "no"},
    ),
    (
        "nested-objects",
        {"properties": {"a": {"properties": {"b": {"$ref": "#/$defs/Int"}}}}},
        {"a": {"b": 1}},
        {"a": {"b": "1"}},
    ),
    ("pattern-properties", {"patternProperties": {"^n": {"type": "integer"}}}, {"n": 1}, {"n": ""}),
    ("array-items", {"type": "array", "items": {"type": "integer"}}, [1, 2], [1, "2"]),
    ("array-items-ref", {"$ref": "#/$defs/Ints"}, [1, 2], [1, 2.5]),
    (
        "array-items-and-ref",
        {"type": "array", "items": {"type": "number"}, "$ref": "#/$defs/Ints"},
        [1, 2.0],
        [1, 2.5],
    ),
    ("integral-floats", {"type": "integer"}, 2.0, 2.5),
    ("scalars-ref", {"$ref": "#/$defs/Str"}, "x", 1),
    ("not-an-object", {"type": "object"}, {}, []),
    (
        "objects-and-arrays",
        {"type": ["object", "array"], "properties": {"a": {"type": "integer"}}},
        {"a": 1},
        {"a": "x"},
    ),
]
CASE_IDS = [case[0] for case in CASES]


def _schema(item: Any) -> dict[str, Any]:
    return {"type": "array", "items": item, "$defs": DEFS}


def _rows(good: Any, bad: Any, size: int, where: str) -> list[Any]:
    """``size`` rows: copies of ``good`` with ``bad`` at the start, middle or end (or ``all``
    rows bad, or ``none``). Each row is its own object, as a parser makes them."""
    rows = [json.loads(json.dumps(good)) for _ in range(size)]
    spots = {"start": [0], "middle": [size // 2], "end": [size - 1], "all": range(size)}
    for index in spots.get(where, []):
        rows[index] = json.loads(json.dumps(bad))
    return rows


def _fast_answers(schema: Any, instance: Any) -> list[bool]:
    """The fast check's answer alone, and inside a validation's shared facts."""
    check = compile_check(schema, {})
    if check is None:
        assert "patternProperties" in json.dumps(schema), "only patternProperties leaves it"
        return []
    answers = [check(instance)]
    with shared_tables():
        if isinstance(instance, list) and len(instance) >= MIN_ROWS:
            table(instance).parsed_objects()  # as the document pass leaves them
        answers += [check(instance), check(instance)]
    return answers


@pytest.mark.parametrize("where", ["none", "start", "middle", "end", "all"])
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_the_fast_check_agrees_with_jsonschema(
    case: tuple[str, Any, Any, Any], size: int, where: str
) -> None:
    _, item, good, bad = case
    schema = _schema(item)
    rows = _rows(good, bad, size, where)
    expected = where == "none"
    assert Draft202012Validator(schema).is_valid(rows) is expected, "the case is as described"
    assert _fast_answers(schema, rows) in ([expected] * 3, [])


@pytest.mark.parametrize("size", SIZES)
def test_the_shared_facts_are_read_from_the_threshold_on(
    size: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cases above run on both paths: the table path from ``MIN_ROWS`` rows, not before."""
    from th_ext.validate import _fastschema

    read: list[int] = []

    def facts(rows: list[Any]) -> Any:
        read.append(len(rows))
        return table(rows)

    monkeypatch.setattr(_fastschema, "table", facts)
    check = compile_check(_schema({"type": "object", "required": ["a"]}), {})
    assert check is not None
    assert check([{"a": i} for i in range(size)])
    assert read == ([size] if size >= MIN_ROWS else [])


def test_every_keyword_of_the_subset_at_once() -> None:
    schema = {
        "$id": "https://example.org/all.json",
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$comment": "c",
        "title": "t",
        "description": "d",
        "default": [],
        "examples": [[]],
        "deprecated": False,
        "readOnly": False,
        "writeOnly": False,
        "format": "f",
        "definitions": {},
        "$defs": DEFS,
        "$ref": "#/$defs/Ints",
        "type": "array",
        "items": {"type": "integer"},
        "properties": {},
        "required": [],
        "additionalProperties": False,
    }
    assert set(schema) == _SUPPORTED
    for size in SIZES:
        rows = list(range(size))
        assert Draft202012Validator(schema).is_valid(rows)
        assert _fast_answers(schema, rows) == [True] * 3
        assert _fast_answers(schema, [*rows, 1.5]) == [False] * 3


def _command(index: int) -> dict[str, Any]:
    return {"name": f"c{index}", "description": "d"}


# A draft of the commands schema whose commands may carry extra members, all strings.
OPEN_COMMANDS = {
    "$id": COMMANDS_URI + "/schema.json",
    "type": "object",
    "properties": {"commands": {"type": "array", "items": {"$ref": "#/$defs/Command"}}},
    "additionalProperties": False,
    "$defs": {
        "Command": {
            "type": "object",
            "properties": {"name": {"type": "string"}, "description": {"type": "string"}},
            "required": ["name", "description"],
            "additionalProperties": {"type": "string"},
        },
        "Named": {"required": ["name"]},
    },
}
# Its commands hold strings only and nothing else: checked in one pass over the values, and
# the ``$ref`` beside it must still hold.
CLOSED_COMMANDS = {
    **OPEN_COMMANDS,
    "$defs": {
        "Command": {
            "$ref": "#/$defs/Named",
            "type": "object",
            "properties": {"name": {"type": "string"}, "description": {"type": "string"}},
            "additionalProperties": False,
        },
        "Named": {"required": ["name"]},
    },
}
BROKEN_COMMANDS = [
    (OPEN_COMMANDS, {"name": "x", "description": "d", "note": 7}),
    (OPEN_COMMANDS, {"name": "x"}),
    (CLOSED_COMMANDS, {"description": "d"}),
    (CLOSED_COMMANDS, {"name": "x", "description": 1}),
]


def _card(commands: list[Any]) -> dict[str, Any]:
    card = example_card()
    card["capabilities"]["extensions"] = [{"uri": COMMANDS_URI, "params": {"commands": commands}}]
    return card


def _schema_problems(card: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    options = ValidateOptions(schema=SchemaOverride(schema, "draft.json"))
    report = validate_value(card, options=options)
    return [p.path for p in report.problems if p.code == "schema-violation"]


@pytest.mark.parametrize("size", [MIN_ROWS - 1, MIN_ROWS, MIN_ROWS + 1, 300])
@pytest.mark.parametrize(("schema", "bad"), BROKEN_COMMANDS)
def test_a_replacement_schema_finds_the_bad_command(
    schema: dict[str, Any], bad: dict[str, Any], size: int
) -> None:
    commands = [_command(i) for i in range(size)]
    commands.append({**commands[-1], "name": "y"})
    assert _schema_problems(_card(commands), schema) == []
    commands[size // 2] = bad
    params = {"commands": commands}
    assert not Draft202012Validator(schema).is_valid(params)
    assert _schema_problems(_card(commands), schema), "the bad command is reported"


def test_validate_with_a_schema_whose_additional_properties_is_a_schema(tmp_path: Path) -> None:
    """``th-ext validate --schema``: 300 commands, one with an extra member of the wrong type."""
    schema_file = tmp_path / "draft.json"
    schema_file.write_text(json.dumps(OPEN_COMMANDS), encoding="utf-8")
    commands = [_command(i) for i in range(300)]
    card_file = tmp_path / "card.json"
    card_file.write_text(json.dumps(_card(commands)), encoding="utf-8")
    args = ["validate", "--schema", str(schema_file), str(card_file)]
    outcome = CliRunner().invoke(app, args)
    assert outcome.exit_code == 0
    assert outcome.output.splitlines()[-1] == "valid (0 errors, 0 warnings)"
    commands[299]["note"] = 7
    card_file.write_text(json.dumps(_card(commands)), encoding="utf-8")
    outcome = CliRunner().invoke(app, args)
    assert outcome.exit_code == 1
    assert "/capabilities/extensions/0/params/commands/299/note" in outcome.output
    assert outcome.output.splitlines()[-1] == "invalid (1 error, 0 warnings)"


# Any row schema of the subset (and patternProperties, outside it), any rows near the
# threshold: the answer is jsonschema's.
keys = st.sampled_from(["a", "b", "n"])
type_names = st.sampled_from(["object", "array", "string", "integer", "number", "null"])
leaf_schemas = (
    st.booleans()
    | st.fixed_dictionaries({"type": type_names | st.lists(type_names, min_size=1, max_size=2)})
    | st.sampled_from([{"$ref": f"#/$defs/{name}"} for name in DEFS])
)
row_schemas = st.recursive(
    leaf_schemas,
    lambda children: st.fixed_dictionaries(
        {},
        optional={
            "type": type_names,
            "properties": st.dictionaries(keys, children, max_size=3),
            "required": st.lists(keys, max_size=2, unique=True),
            "additionalProperties": children,
            "patternProperties": st.dictionaries(st.sampled_from(["^a", "^n"]), children),
            "items": children,
            "$ref": st.sampled_from([f"#/$defs/{name}" for name in DEFS]),
        },
    ),
    max_leaves=6,
)
atoms = st.none() | st.booleans() | st.integers(-2, 2) | st.sampled_from([1.0, 1.5, "", "x"])
row_values = st.recursive(
    atoms,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(keys, children, max_size=3),
    max_leaves=5,
)


@settings(max_examples=150)
@given(
    row_schemas,
    st.lists(row_values, min_size=1, max_size=3),
    st.sampled_from(SIZES),
    st.lists(st.tuples(st.integers(0, 2 * MIN_ROWS), row_values), max_size=2),
)
def test_any_row_schema_on_rows_near_the_threshold(
    item: Any, pool: list[Any], size: int, odd: list[tuple[int, Any]]
) -> None:
    rows = [json.loads(json.dumps(pool[i % len(pool)])) for i in range(size)]
    for index, value in odd:
        rows[index % size] = value
    schema = _schema(item)
    expected = Draft202012Validator(schema).is_valid(rows)
    assert all(answer is expected for answer in _fast_answers(schema, rows))
