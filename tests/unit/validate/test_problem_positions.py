"""Lines and columns of JSON pointers in a card's text, checked against the parsed value."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from th_ext.validate import validate_bytes
from th_ext.validate._positions import Position, locate

_SCALARS = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
_JSON = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(alphabet='ab/~"\\ \n', max_size=4), inner, max_size=4)
    ),
    max_leaves=25,
)


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _pointers(value: Any, prefix: str = "") -> list[tuple[str, Any]]:
    found = [(prefix, value)]
    if isinstance(value, dict):
        for key, item in value.items():
            found.extend(_pointers(item, f"{prefix}/{_escape(key)}"))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.extend(_pointers(item, f"{prefix}/{index}"))
    return found


def _offset(text: str, position: Position) -> int:
    lines = text.split("\n")
    return sum(len(line) + 1 for line in lines[: position.line - 1]) + position.column - 1


@settings(max_examples=150)
@given(_JSON, st.sampled_from([None, 0, 2]))
def test_every_pointer_is_placed_where_its_value_starts(value: Any, indent: int | None) -> None:
    text = json.dumps(value, indent=indent)
    pointers = _pointers(value)
    positions = locate(text, [p for p, _ in pointers])
    for pointer, item in pointers:
        offset = _offset(text, positions[pointer])
        # The value parsed from that offset on is the value the pointer names.
        decoded, _ = json.JSONDecoder().raw_decode(text, offset)
        assert decoded == item, pointer


def test_a_missing_member_is_placed_at_the_object_it_belongs_in() -> None:
    """At the key of the object that should hold it, or its brace when it has no key."""
    text = '{\n  "skills": [\n    {"id": "a"}\n  ],\n  "caps": {"a": 1}\n}'
    positions = locate(text, ["/skills/0/name", "/skills/7", "/nothing/here", "", "/caps/b"])
    assert positions["/skills/0/name"] == Position(3, 5)
    assert positions["/skills/7"] == Position(2, 3)
    assert positions["/caps/b"] == Position(5, 3)
    assert positions["/nothing/here"] == Position(1, 1)
    assert positions[""] == Position(1, 1)


def test_a_pointer_asked_for_at_its_key_is_placed_at_the_key() -> None:
    text = '{\n  "caps": {\n    "extra": [1]\n  }\n}'
    assert locate(text, ["/caps/extra"]) == {"/caps/extra": Position(3, 14)}
    assert locate(text, ["/caps/extra"], keys=["/caps/extra"]) == {"/caps/extra": Position(3, 5)}


def test_escaped_keys_and_strings_with_brackets() -> None:
    text = '{"a/b": "}]{[", "c~d": {"x\\"y": [1, "]", 2]}}'
    positions = locate(text, ["/a~1b", '/c~0d/x"y/2'])
    assert positions["/a~1b"] == Position(1, 9)
    assert text[positions['/c~0d/x"y/2'].column - 1] == "2"


def test_a_malformed_pointer_is_left_out() -> None:
    assert locate('{"a": 1}', ["a", "/a"]) == {"/a": Position(1, 7)}


def test_problems_of_a_card_read_as_text_carry_line_and_column(
    card: dict[str, Any],
) -> None:
    card["capabilities"]["extensions"][0]["params"]["commands"].append(
        {"name": "Help", "description": "x"}
    )
    text = json.dumps(card, indent=2)
    report = validate_bytes(text.encode(), source="agent-card.json")
    problem = next(p for p in report.problems if p.code == "command-name-pattern")
    assert problem.line is not None and problem.column is not None
    line = text.split("\n")[problem.line - 1]
    assert line[problem.column - 1 :].startswith('"Help"')
    data = report.to_dict()["problems"]
    assert {"line": problem.line, "column": problem.column}.items() <= data[0].items()


def test_a_missing_member_is_placed_at_its_object_before_a_huge_sibling() -> None:
    text = '{"skills": [{"id": 1}, {}], "rest": [' + ",".join(["[[1]]"] * 50_000) + "]}"
    found = locate(text, ["/skills/1/name", "", "/skills/0/id"])
    assert found == {
        "/skills/1/name": Position(1, text.index("{}") + 1),
        "": Position(1, 1),
        "/skills/0/id": Position(1, text.index("1") + 1),
    }


def test_a_long_flat_run_and_long_strings_are_placed() -> None:
    numbers = ",".join(["1"] * 200_000)
    long_string = '"' + 'x\\"y' * 100_000 + '"'
    text = f'{{"a": [{numbers}], "b": {long_string}, "c": [1, 2]}}'
    found = locate(text, ["/c/1", "/b"])
    assert found["/c/1"] == Position(1, len(text) - 2)
    assert found["/b"] == Position(1, text.index('"b": ') + 6)
