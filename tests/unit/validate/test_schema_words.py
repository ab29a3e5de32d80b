"""An extension schema's errors in a card author's words, keyword by keyword: the message, the
hint that proposes a fix, and where the problem points; and a ``--schema`` file read or refused.

The schema here is a draft's own (given with ``--schema``), so every keyword's words are seen
without the commands rules that follow the bundled schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.unit.validate.conftest import example_card
from th_ext._exceptions import SchemaError
from th_ext.sources import SourceLimits
from th_ext.validate import SchemaOverride, ValidateOptions, read_schema_override, validate_value

DRAFT = "https://example.com/ext/words/v1"
PARAMS = "/capabilities/extensions/0/params"

SCHEMA: dict[str, Any] = {
    "$id": DRAFT + "/schema.json",
    "type": "object",
    "properties": {
        "mode": {"enum": [f"m{n}" for n in range(12)]},
        "kind": {"const": "plain"},
        "size": {"type": ["string", "null"]},
        "count": {"type": "integer"},
        "label": {"type": "string", "pattern": "^[a-z]+$"},
        "either": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
        "note": {"type": "string", "maxLength": 2},
        "one": {"type": "object", "properties": {"solo": {}}, "additionalProperties": False},
        "none": {"type": "object", "additionalProperties": False},
        "tags": {"type": "array", "items": {"type": "string"}},
    },
    "patternProperties": {"^x-": {"type": "string"}},
    "additionalProperties": False,
}


def problems(params: Any, schema: dict[str, Any] = SCHEMA) -> list[tuple[str, str, str, bool]]:
    """The extension layer's schema problems of a card whose draft extension has ``params``:
    (path, message, hint, at the key)."""
    card = example_card()
    card["capabilities"]["extensions"] = [{"uri": DRAFT, "params": params}]
    options = ValidateOptions(schema=SchemaOverride(schema, "draft.json"))
    report = validate_value(card, options=options)
    return [
        (p.path, p.message, p.hint, p.at_key)
        for p in report.problems
        if p.layer == "extension" and p.code == "schema-violation"
    ]


def test_a_value_outside_an_enum_is_told_the_first_ten_values() -> None:
    [(path, _, hint, at_key)] = problems({"mode": "m99"})
    shown = ", ".join(repr(f"m{n}") for n in range(10))
    assert (path, hint, at_key) == (
        f"{PARAMS}/mode",
        f"use one of {shown}, as draft.json requires",
        False,
    )


def test_a_value_other_than_a_const_is_told_the_const() -> None:
    assert problems({"kind": "fancy"}) == [
        (f"{PARAMS}/kind", "'plain' was expected", "use 'plain', as draft.json requires", False)
    ]


def test_a_wrong_type_is_told_every_type_allowed_in_words() -> None:
    assert problems({"size": 3, "count": "3"}) == [
        (f"{PARAMS}/count", "'3' is not of type 'integer'",
         "make it an integer, as draft.json requires", False),
        (f"{PARAMS}/size", "3 is not of type 'string', 'null'",
         "make it a string or null, as draft.json requires", False),
    ]  # fmt: skip


def test_a_pattern_missed_is_told_the_pattern() -> None:
    assert problems({"label": "Abc"}) == [
        (f"{PARAMS}/label", "'Abc' does not match '^[a-z]+$'",
         "use a value that matches ^[a-z]+$, as draft.json requires", False),
    ]  # fmt: skip


def test_a_keyword_with_no_fix_points_at_the_schema() -> None:
    assert problems({"either": 1.5, "note": "abc"}) == [
        (f"{PARAMS}/either", "1.5 is not valid under any of the given schemas",
         "see what draft.json allows here", False),
        (f"{PARAMS}/note", "'abc' is too long", "see what draft.json allows here", False),
    ]  # fmt: skip


def test_an_unknown_key_is_named_at_the_key_with_the_closest_allowed_one() -> None:
    found = problems({"mdoe": "m1", "x-ok": "kept", "zzzzzz": 1})
    allowed = "count, either, kind, label, mode, none, note, one, size and tags"
    assert found == [
        (f"{PARAMS}/mdoe", "'mdoe' is not a key this object may have",
         f"did you mean 'mode'? The keys allowed here are {allowed}", True),
        (f"{PARAMS}/zzzzzz", "'zzzzzz' is not a key this object may have",
         f"remove it or rename it: the keys allowed here are {allowed}", True),
    ]  # fmt: skip


def test_a_key_matching_a_pattern_is_checked_by_that_pattern_s_schema() -> None:
    assert problems({"x-ok": 5}) == [
        (f"{PARAMS}/x-ok", "5 is not of type 'string'",
         "make it a string, as draft.json requires", False),
    ]  # fmt: skip


def test_the_allowed_keys_are_said_for_one_key_and_for_none() -> None:
    assert problems({"one": {"solo": 1, "duo": 2}, "none": {"any": 1}}) == [
        (f"{PARAMS}/none/any", "'any' is not a key this object may have",
         "remove it or rename it: no keys are allowed here", True),
        (f"{PARAMS}/one/duo", "'duo' is not a key this object may have",
         "remove it or rename it: the only key allowed here is solo", True),
    ]  # fmt: skip


def test_each_missing_required_key_is_one_problem_with_a_value_to_add() -> None:
    schema = {
        "$id": DRAFT + "/schema.json",
        "type": "object",
        "properties": {
            "b": {"type": "string", "default": "café"},
            "a": {
                "type": "array",
                "minItems": 1,
                "items": {"type": "object", "required": ["n"], "properties": {"n": {"const": 7}}},
            },
        },
        "required": ["a", "b"],
    }
    assert problems({}, schema) == [
        (f"{PARAMS}/a", "the required key 'a' is missing", 'add "a": [{"n": 7}]', False),
        (f"{PARAMS}/b", "the required key 'b' is missing", 'add "b": "café"', False),
    ]
    assert [found[:2] for found in problems({"b": "x"}, schema)] == [
        (f"{PARAMS}/a", "the required key 'a' is missing")
    ]


def test_a_long_message_is_one_line_of_at_most_240_characters() -> None:
    schema = {"$id": DRAFT + "/schema.json", "properties": {"k": {"maxLength": 1}}}
    for size in (224, 225):  # the message whole is 240 characters, then 241
        [(_, message, _, _)] = problems({"k": "a  " + "b" * size}, schema)
        whole = f"'a {'b' * size}' is too long"  # its run of spaces read as one
        assert message == (whole if len(whole) <= 240 else whole[:239] + "…")
        assert len(message) == 240


# --- --schema: a file read, or refused in one line ---


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "draft.json"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_schema_file_is_read_as_the_override(tmp_path: Path) -> None:
    source = write(tmp_path, json.dumps(SCHEMA))
    override = read_schema_override(source, SourceLimits())
    assert override == SchemaOverride(SCHEMA, source, ())


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[1, 2]", "the document is an array, not a JSON object"),
        ('{"type": 5}', "not a valid JSON schema (5 is not valid under any of the given schemas)"),
    ],
    ids=["not-an-object", "not-a-schema"],
)
def test_a_schema_file_that_is_no_schema_is_refused(tmp_path: Path, text: str, reason: str) -> None:
    source = write(tmp_path, text)
    with pytest.raises(SchemaError) as raised:
        read_schema_override(source, SourceLimits())
    assert str(raised.value) == f"--schema {source}: {reason}"


def test_a_schema_file_that_is_not_json_says_where_it_breaks(tmp_path: Path) -> None:
    source = write(tmp_path, '{"type": }')
    with pytest.raises(SchemaError) as raised:
        read_schema_override(source, SourceLimits())
    assert str(raised.value).startswith(f"--schema {source}: ")
    assert "line 1" in str(raised.value) and "\n" not in str(raised.value)


def test_a_schema_file_that_cannot_be_read_names_the_option(tmp_path: Path) -> None:
    with pytest.raises(SchemaError) as raised:
        read_schema_override(str(tmp_path / "absent.json"), SourceLimits())
    assert str(raised.value).startswith("--schema: ")
    assert "absent.json" in str(raised.value)


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (None, "null"),
        (True, "true"),
        ({"a": [1.5e300, None, False]}, '{"a": [1.5e+300, null, false]}'),
        (["x", None], '["x", null]'),
        (7.5, "7.5"),
        ("seven", "'seven'"),
    ],
)
def test_a_value_in_a_message_is_written_as_json(value: Any, shown: str) -> None:
    [(_, message, _, _)] = problems({"count": value})
    assert message == f"{shown} is not of type 'integer'"
