"""The document layer: every way bytes can fail to be a card document has its own code."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from th_ext import DeadlineError
from th_ext._deadline import Deadline
from th_ext.validate import MAX_DEPTH, parse_document
from th_ext.validate._document import deep_path_in_text, parse_text


def codes(data: bytes) -> list[tuple[str, str, bool]]:
    return [(p.code, p.path, p.fatal) for p in parse_document(data).problems]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"", [("empty-document", "", True)]),
        (b"  \n\t ", [("empty-document", "", True)]),
        (b"\xef\xbb\xbf", [("byte-order-mark", "", False), ("empty-document", "", True)]),
        (b'{"a": "\xff"}', [("invalid-utf8", "", True)]),
        (b"\xff\xfe{\x00}\x00", [("invalid-utf8", "", True)]),
        (b"<html></html>", [("invalid-json", "", True)]),
        (b'{"a": 1,}', [("invalid-json", "", True)]),
        (b"[]", [("not-an-object", "", True)]),
        (b'"card"', [("not-an-object", "", True)]),
        (b"null", [("not-an-object", "", True)]),
        (b"{}", []),
    ],
)
def test_unreadable_documents(data: bytes, expected: list[tuple[str, str, bool]]) -> None:
    assert codes(data) == expected


def test_every_problem_of_the_document_layer_says_so() -> None:
    samples = [b"", b"\xef\xbb\xbf{}", b'{"a": "\xff"}', b"{", b"[]", b'{"a": 1, "a": 2}', b"[NaN]"]
    layers = {p.layer for data in samples for p in parse_document(data).problems}
    assert layers == {"document"}


def test_utf8_error_names_the_byte() -> None:
    problem = parse_document(b'{"name": "caf\xe9"}').problems[0]
    assert "byte 13" in problem.message


def test_byte_order_mark_is_an_error_but_the_card_is_read() -> None:
    parsed = parse_document(b'\xef\xbb\xbf{"a": 1}')
    assert parsed.value == {"a": 1}
    assert codes(b'\xef\xbb\xbf{"a": 1}') == [("byte-order-mark", "", False)]


def test_duplicate_keys_are_located() -> None:
    data = b'{"a": 1, "b": [{"c": 1, "c": 2, "c": 3}, {"d~/": 1, "d~/": 2}], "a": 2}'
    assert codes(data) == [
        ("duplicate-key", "/a", False),
        ("duplicate-key", "/b/0/c", False),
        ("duplicate-key", "/b/1/d~0~1", False),
    ]
    assert parse_document(data).value["a"] == 2


def test_non_finite_numbers_are_located() -> None:
    data = b'{"a": [1, NaN], "b": {"c": -Infinity}, "d": Infinity}'
    assert codes(data) == [
        ("non-finite-number", "/a/1", False),
        ("non-finite-number", "/b/c", False),
        ("non-finite-number", "/d", False),
    ]


def test_nesting_at_the_limit_is_accepted() -> None:
    depth = MAX_DEPTH
    data = b'{"a":' * (depth - 1) + b"{}" + b"}" * (depth - 1)
    assert codes(data) == []


def test_nesting_past_the_limit_is_located() -> None:
    depth = MAX_DEPTH + 1
    data = b'{"a":' * (depth - 1) + b"[]" + b"}" * (depth - 1)
    assert codes(data) == [("too-deep", "/a" * MAX_DEPTH, True)]


@pytest.mark.parametrize("depth", [1_000, 100_000, 1_000_000])
def test_nesting_that_exhausts_the_parser_is_not_a_recursion_error(depth: int) -> None:
    data = b'{"k": [' * depth + b"]}" * depth
    assert codes(data) == [("too-deep", "/k/0" * (MAX_DEPTH // 2), True)]


def test_unterminated_deep_nesting() -> None:
    assert codes(b"[" * 500_000) == [("too-deep", "/0" * MAX_DEPTH, True)]


def test_nesting_that_exhausts_the_parser_is_located_past_siblings_and_strings() -> None:
    head = '{"skip": [[], {"k": "v]\\"[,{"}], "n": 1, "list": [0, "x", {"a": "b", "deep": '
    data = (head + "[" * 5_000 + "]" * 5_000 + "}]}").encode()
    assert codes(data) == [("too-deep", "/list/2/deep" + "/0" * (MAX_DEPTH - 3), True)]


def test_nesting_that_exhausts_the_parser_deep_inside_an_array() -> None:
    data = b"[1, [2, 3, [4, 5, 6, " + b'{"a": 1, "b": ' * 3_000 + b"null" + b"}" * 3_000 + b"]]]"
    assert codes(data) == [("too-deep", "/1/2/3" + "/b" * (MAX_DEPTH - 3), True)]


@pytest.mark.parametrize("text", ["", '"a"', "[1, [2]]", '{"a": {}}', '["unterminated'])
def test_a_text_that_never_nests_past_the_limit_has_no_deep_place(text: str) -> None:
    assert deep_path_in_text(text) == ""


def test_the_too_deep_place_is_found_after_many_shallow_containers() -> None:
    rows: list[Any] = [[{"a": []}] for _ in range(5_000)]
    data = json.dumps({"rows": rows}).encode()
    assert codes(data) == []
    deep: Any = []
    for _ in range(MAX_DEPTH):
        deep = [deep]
    data = json.dumps({"rows": [*rows, deep]}).encode()
    assert codes(data) == [("too-deep", "/rows/5000" + "/0" * (MAX_DEPTH - 2), True)]


def test_a_passed_deadline_stops_the_walk_by_its_4096th_container() -> None:
    text = json.dumps({"rows": [[] for _ in range(4_094)]})
    with pytest.raises(DeadlineError, match=r"^over$"):
        parse_text(text, Deadline(time.monotonic() - 1, "over"))
