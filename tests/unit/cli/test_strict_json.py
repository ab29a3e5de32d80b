"""``to_json``: the text of ``json.dumps`` for ordinary documents, strict JSON for any other."""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from th_ext.report import to_json

_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(),
)
_DOCUMENTS = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)


@given(_DOCUMENTS)
def test_same_text_as_json_dumps(document: Any) -> None:
    assert to_json(document) == json.dumps(document, indent=2)


@given(_DOCUMENTS)
def test_the_fallback_encoder_writes_the_same_text(document: Any) -> None:
    from th_ext.report._json import _chunks

    assert "".join(_chunks(document, 2)) == json.dumps(document, indent=2)


def test_non_finite_numbers_become_strings() -> None:
    document = {"big": float("1e400"), "small": -math.inf, "nan": math.nan, "ok": 1.5}
    text = to_json(document)
    assert json.loads(text) == {"big": "Infinity", "small": "-Infinity", "nan": "NaN", "ok": 1.5}
    assert "Infinity," not in text


def test_non_finite_numbers_deep_inside_lists() -> None:
    assert json.loads(to_json([[1, [math.inf]], {"a": [math.nan]}])) == [
        [1, ["Infinity"]],
        {"a": ["NaN"]},
    ]


def _nested(depth: int) -> list[Any]:
    root: list[Any] = []
    current = root
    for _ in range(depth):
        child: list[Any] = []
        current.append(child)
        current = child
    current.append("bottom")
    return root


def test_a_document_600_deep_is_written_and_read_back() -> None:
    document = {"result": _nested(600)}
    assert json.loads(to_json(document)) == document


def test_a_document_deeper_than_the_stack_is_written_in_linear_size() -> None:
    text = to_json(_nested(20_000))
    assert text.count("[") == 20_001
    assert len(text) < 2 * 20_001 * (2 * 64 + 4)  # indentation stops growing at 64 levels
    assert text.rstrip().endswith("]")


def test_output_is_ascii_whatever_the_strings_hold() -> None:
    hostile = "\x1b]52;c;cHduZWQ=\x07 \u202e \ud800 \x9b2J \x7f é"
    text = to_json({hostile: [hostile]})
    assert text.isascii()
    assert all(ch in "\n" or " " <= ch < "\x7f" for ch in text)
    assert json.loads(text) == {hostile: [hostile]}


def test_non_string_keys_as_json_dumps_writes_them() -> None:
    document = {1: "a", 2.5: "b", False: "c", None: "d"}
    assert json.loads(to_json(document)) == json.loads(json.dumps(document))
    assert json.loads(to_json({math.inf: 1, "x": math.nan})) == {"Infinity": 1, "x": "NaN"}
