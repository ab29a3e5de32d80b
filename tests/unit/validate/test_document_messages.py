"""What the document layer says, word for word, and where the byte counts start."""

from __future__ import annotations

import sys

import pytest

from th_ext.problems._problem import Problem
from th_ext.validate import MAX_DEPTH, parse_document

BOM = b"\xef\xbb\xbf"


def problems(data: bytes) -> list[tuple[str, str, str, str, str, bool]]:
    return [
        (p.severity, p.code, p.path, p.message, p.hint, p.fatal)
        for p in parse_document(data).problems
    ]


BOM_PROBLEM = (
    "error",
    "byte-order-mark",
    "",
    "the document starts with a UTF-8 byte-order mark",
    "JSON sent over a network must not start with a BOM (RFC 8259 8.1); remove it",
    False,
)


def utf8_problem(byte: int) -> tuple[str, str, str, str, str, bool]:
    return (
        "error",
        "invalid-utf8",
        "",
        f"the document is not valid UTF-8 (byte {byte})",
        "encode the card as UTF-8",
        True,
    )


@pytest.mark.parametrize(
    ("data", "byte"),
    [(b"\xff{}", 0), (b'{"a": "\xff"}', 7), (b'{"name": "caf\xe9"}', 13)],
)
def test_invalid_utf8_names_the_byte(data: bytes, byte: int) -> None:
    assert problems(data) == [utf8_problem(byte)]


@pytest.mark.parametrize(
    ("data", "byte"),
    [(b"\xff{}", 3), (b'{"a": "\xff"}', 10)],
)
def test_a_bom_then_invalid_utf8_counts_the_bom(data: bytes, byte: int) -> None:
    parsed = parse_document(BOM + data)
    assert parsed.value is None
    assert problems(BOM + data) == [BOM_PROBLEM, utf8_problem(byte)]


def test_the_bom_is_reported_and_the_card_read() -> None:
    parsed = parse_document(BOM + b'{"a": 1}')
    assert parsed.value == {"a": 1}
    assert not parsed.fatal
    assert problems(BOM + b'{"a": 1}') == [BOM_PROBLEM]


def test_only_a_bom_is_empty() -> None:
    empty = ("error", "empty-document", "", "the document is empty", "serve the card as JSON", True)
    assert problems(BOM) == [BOM_PROBLEM, empty]
    assert problems(b" \r\n") == [empty]
    assert parse_document(BOM).fatal


def test_not_json() -> None:
    assert problems(b'{"a" 1}') == [
        (
            "error",
            "invalid-json",
            "",
            "not JSON: Expecting ':' delimiter at line 1 column 6",
            "check the card with a JSON parser near this place",
            True,
        )
    ]


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        (b"[]", "an array"),
        (b'"card"', "a string"),
        (b"null", "null"),
        (b"1.5", "a number"),
        (b"true", "a boolean"),
    ],
)
def test_not_an_object(data: bytes, kind: str) -> None:
    assert problems(data) == [
        (
            "error",
            "not-an-object",
            "",
            f"the document is {kind}, not a JSON object",
            "an agent card is one JSON object",
            True,
        )
    ]


def test_duplicate_keys_say_which_key() -> None:
    assert problems(b'{"a": 1, "a": 2, "b": {"c": 0, "c": 0, "c": 0}}') == [
        (
            "error",
            "duplicate-key",
            "/a",
            "the key 'a' appears more than once in this object",
            "keep one; parsers disagree on which of the values wins",
            False,
        ),
        (
            "error",
            "duplicate-key",
            "/b/c",
            "the key 'c' appears more than once in this object",
            "keep one; parsers disagree on which of the values wins",
            False,
        ),
    ]


def test_a_key_with_an_escaped_colon_is_still_checked() -> None:
    assert [p.code for p in parse_document(b'{"a\\u003a": 1, "a:": 2}').problems] == [
        "duplicate-key"
    ]
    assert parse_document(b'{"a\\u003A": 1, "b:": 2}').problems == ()
    assert parse_document(b'{"x": "\\u0030:", "y": 1}').problems == ()


@pytest.mark.parametrize("escape", [b"\\u003a", b"\\u003A"])
def test_an_escaped_colon_does_not_hide_a_duplicate_key(escape: bytes) -> None:
    # A key with an escaped colon beside a repeated key: the text shows as many colons as
    # the value has members, so only the parser itself can tell.
    data = b'{"a' + escape + b'": 1, "b": 1, "b": 2}'
    assert [(p.code, p.path) for p in parse_document(data).problems] == [("duplicate-key", "/b")]


def test_a_number_past_the_int_string_limit_is_named() -> None:
    digits = sys.get_int_max_str_digits()
    assert problems(b'{"a": ' + b"7" * (digits + 1) + b"}") == [
        (
            "error",
            "number-too-long",
            "/a",
            f"a number has more than {digits} digits",
            "no card needs a number this long; this is likely malformed or hostile",
            True,
        )
    ]
    assert problems(b'{"a": ' + b"7" * digits + b"}") == []
    assert problems(b'{"a": -' + b"7" * digits + b"}") == []


@pytest.mark.parametrize(
    ("text", "path", "line", "column"),
    [
        ('{"a": [1, 2, {"b": HUGE}]}', "/a/2/b", 1, 20),
        ('{"s": "7777 [ { , \\" HUGE", "n": [\n  0.5, 1e999, -HUGE]}', "/n/2", 2, 15),
        ('{"f": HUGE.5, "g": HUGEe3,\n"i": HUGE}', "/i", 2, 6),
        ("HUGE", "", 1, 1),
    ],
)
def test_a_number_past_the_int_string_limit_is_placed_at_its_value(
    text: str, path: str, line: int, column: int
) -> None:
    # The first integer (not a float) past the limit, outside strings: where the parser stopped.
    digits = "7" * (sys.get_int_max_str_digits() + 1)
    (problem,) = parse_document(text.replace("HUGE", digits).encode()).problems
    assert (problem.code, problem.path, problem.line, problem.column) == (
        "number-too-long",
        path,
        line,
        column,
    )
    caret = problem.excerpt.split("\n")[1]
    assert problem.excerpt.split("\n")[0][len(caret) - 1] in "-7"


def test_non_finite_numbers_say_so() -> None:
    assert problems(b'{"a": NaN}') == [
        (
            "error",
            "non-finite-number",
            "/a",
            "NaN and Infinity are not JSON numbers",
            "use null or a finite number",
            False,
        )
    ]
    assert parse_document(b'{"a": NaN}').value is not None
    assert [p.path for p in parse_document(b'[1, {"b": [Infinity, -Infinity]}]').problems] == [
        "/1/b/0",
        "/1/b/1",
        "",
    ]


def test_too_deep_says_how_deep() -> None:
    data = b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1)
    found = parse_document(data).problems
    assert [(p.code, p.fatal, p.layer) for p in found] == [("too-deep", True, "document")]
    assert found[0].message == f"arrays and objects are nested more than {MAX_DEPTH} deep"
    assert found[0].hint == "a card needs far less nesting; this is likely malformed or hostile"


def test_every_document_problem_is_in_the_document_layer() -> None:
    found: list[Problem] = []
    for data in (BOM + b"\xff", b"", b"[]", b'{"a": NaN, "a": 1}'):
        found.extend(parse_document(data).problems)
    assert {p.layer for p in found} == {"document"}
