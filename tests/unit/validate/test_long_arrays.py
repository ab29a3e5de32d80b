"""Long arrays of objects (a card's ``commands``): every check finds what a plain walk finds.
Each check is compared with an oracle that walks the value item by item."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.pair_trees import duplicate_key_pointers, pair_text
from tests.unit.validate.conftest import COMMANDS_URI, example_card
from th_ext.commands._entry import COMMAND_NAME_PATTERN
from th_ext.problems._problem import Problem
from th_ext.validate import MAX_DEPTH, parse_document, validate_bytes
from th_ext.validate._document import too_deep_path
from th_ext.validate._limits import MAX_PER_CODE, MAX_PER_LAYER
from th_ext.validate._positions import iter_paths, pointer

SETTINGS = settings(max_examples=80)

#: A long array: the lengths tried lie on both sides of it.
MIN_ROWS = 256

atoms = st.none() | st.booleans() | st.integers() | st.text(max_size=6) | st.just("a:b")
values = st.recursive(
    atoms,
    lambda children: (
        st.lists(children, max_size=2) | st.dictionaries(st.text(max_size=3), children)
    ),
    max_leaves=4,
)
row_keys = st.sampled_from(["a", "b", "a:b", "\\u0061", "\\u003a", 'q\\"', "name"])


#: Lengths on both sides of the threshold from which a long array's facts are shared.
SIZES = st.sampled_from([MIN_ROWS - 1, MIN_ROWS, MIN_ROWS + 1, MIN_ROWS + 4])


def _long(rows: list[Any], odd: list[tuple[int, Any]], size: int = MIN_ROWS + 4) -> list[Any]:
    """``rows`` repeated to a long array, with the ``odd`` items put at their indices."""
    items = [rows[i % len(rows)] for i in range(size)]
    for index, item in odd:
        items[index % len(items)] = item
    return items


# Objects written as lists of pairs, so that a key may repeat (and be spelled as an escape).
pair_rows = st.lists(st.tuples(row_keys, atoms), max_size=4).map(lambda pairs: (pairs,))


@SETTINGS
@given(
    st.lists(pair_rows, min_size=1, max_size=3),
    st.lists(st.tuples(st.integers(0, MIN_ROWS + 3), pair_rows | values), max_size=3),
    SIZES,
)
def test_duplicate_keys_in_long_arrays_are_found_exactly_when_present(
    rows: list[Any], odd: list[tuple[int, Any]], size: int
) -> None:
    tree = ([("rows", _long(rows, odd, size)), ("note", "at: 12:00")],)
    expected = duplicate_key_pointers(tree)
    listed, unlisted = _duplicates(parse_document(pair_text(tree).encode()).problems)
    assert listed == expected[:MAX_PER_CODE]
    assert unlisted == len(expected[MAX_PER_CODE:])


def _duplicates(problems: Sequence[Problem]) -> tuple[list[str], int]:
    """The pointers of the duplicate-key problems listed, and how many more were counted."""
    listed = [p.path for p in problems if p.code == "duplicate-key"]
    more = [p for p in problems if p.code == "more-problems" and "'duplicate-key'" in p.message]
    assert len(more) <= 1
    if more:
        assert more[0].message.startswith(f"and {more[0].hidden} more 'duplicate-key' problem")
    return listed, more[0].hidden if more else 0


@pytest.mark.parametrize(
    "count", [MAX_PER_CODE - 1, MAX_PER_CODE, MAX_PER_CODE + 1, MIN_ROWS, 3 * MIN_ROWS]
)
def test_duplicate_keys_past_the_cap_are_counted_and_not_placed(count: int) -> None:
    rows = ['{"a": 0, "b": {"c": 1, "c": 2}, "a": 1}'] * count + ['{"a": 0}'] * 3
    text = '{"rows": [\n' + ",\n".join(rows) + "\n]}"
    listed, unlisted = _duplicates(parse_document(text.encode()).problems)
    expected = [f"/rows/{i}/{key}" for i in range(count) for key in ("a", "b/c")]
    assert listed == expected[:MAX_PER_CODE]
    assert unlisted == len(expected) - len(listed)
    report = validate_bytes(text.encode(), source="many")
    shown = [p for p in report.problems if p.code == "duplicate-key"]
    assert [(p.line, p.column) for p in shown[:3]] == [(2, 7), (2, 21), (3, 7)][: len(shown)]
    assert all(p.line is not None for p in shown)
    document = [p for p in report.problems if p.layer == "document"]
    assert sum(p.hidden if p.code == "more-problems" else 1 for p in document) == 2 * count


def test_one_object_that_repeats_more_keys_than_a_layer_may_find() -> None:
    count = MAX_PER_LAYER + 5
    text = "{" + ", ".join(f'"k{i}": 0, "k{i}": 1' for i in range(count)) + "}"
    listed, unlisted = _duplicates(parse_document(text.encode()).problems)
    assert listed == [f"/k{i}" for i in range(MAX_PER_CODE)]
    assert unlisted == count - MAX_PER_CODE


def test_an_object_in_a_replaced_value_is_not_in_the_document() -> None:
    """The parser drops the first value of a repeated key: the objects with repeated keys
    inside it are neither listed nor counted, and no object parsed after it is taken for one
    of them."""
    two = '{"cc": 1, "dd": 1, "cc": 2, "dd": 2}'
    dropped = '{"bb": [' + two + '], "bb": {"d": {"eee": 1, "eee": 2}}}'
    rows = ['{"f": 1, "f": 2}'] * (MAX_PER_CODE + 50) + ['{"g": {"h": 1}}'] * 500
    text = '{"x": {"a": ' + dropped + ', "a": 0}, "rows": [' + ", ".join(rows) + "]}"
    listed = ["/x/a", *(f"/rows/{i}/f" for i in range(MAX_PER_CODE - 1))]
    assert _duplicates(parse_document(text.encode()).problems) == (listed, 51)


@pytest.mark.parametrize(("count", "last"), [(3, 12), (MAX_PER_CODE + 200, MAX_PER_CODE - 1)])
def test_the_walk_for_duplicate_keys_stops_at_the_last_one_listed(
    count: int, last: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Locating the problems costs the part of the value up to the last one listed: the walk
    stops there, whether that is the last duplicate or the last of the ones listed."""
    from th_ext.validate import _document

    looked_at = []

    def walk(value: Any, predicate: Callable[[Any], bool]) -> Iterator[tuple[str | int, ...]]:
        def counted(candidate: Any) -> bool:
            looked_at.append(candidate)
            return predicate(candidate)

        return iter_paths(value, counted)

    monkeypatch.setattr(_document, "iter_paths", walk)
    spots = set(range(0, 2 * count, 2)) if count > 3 else {0, 5, 12}
    rows = ['{"f": 1, "f": 2}' if i in spots else '{"g": 1}' for i in range(3 * count + 50)]
    text = '{"rows": [' + ", ".join(rows) + "]}"
    listed, unlisted = _duplicates(parse_document(text.encode()).problems)
    assert (len(listed), unlisted) == (min(count, MAX_PER_CODE), max(0, count - MAX_PER_CODE))
    position = 2 * last if count > 3 else last
    # The card, its rows array, each row before the last listed with its member, and that row.
    assert len(looked_at) == 2 + 2 * position + 1


@pytest.mark.parametrize(
    ("row", "repeated"),
    [
        ('{"a": 1, "b": 2}', False),
        ('{"a": 1, "a": 2}', True),
        ('{"a": 1, "\\u0061": 2}', True),
        ('{"a:b": "c:d", "a\\u003ab": 2}', True),
        ('{"a\\u003ab": "x", "y": "z"}', False),
        ('{"a": {"b": 1, "b": 2}}', True),
        ('{"a": {"b": 1, "c": 2}}', False),
    ],
)
def test_one_odd_row_among_many(row: str, repeated: bool) -> None:
    plain = '{"a": "x:y", "b": "z"}'
    text = '{"rows": [' + ", ".join([plain] * MIN_ROWS + [row]) + "]}"
    found = [p.path for p in parse_document(text.encode()).problems if p.code == "duplicate-key"]
    assert bool(found) == repeated
    if repeated:
        assert found[0].startswith(f"/rows/{MIN_ROWS}/")


def _oracle_depths(value: Any, path: tuple[Any, ...], depth: int) -> list[tuple[int, str]]:
    """The depth and pointer of every container nested past ``MAX_DEPTH``, in document order,
    the slow way (recursive)."""
    if not isinstance(value, (dict, list)):
        return []
    found = [(depth, pointer(path))] if depth > MAX_DEPTH else []
    below = value.items() if isinstance(value, dict) else enumerate(value)
    for key, child in below:
        found.extend(_oracle_depths(child, (*path, key), depth + 1))
    return found


def _wrapped(value: Any, levels: int) -> Any:
    for _ in range(levels):
        value = [value]
    return value


@SETTINGS
@given(
    st.lists(st.dictionaries(st.sampled_from(["a", "b", "c"]), atoms), min_size=1, max_size=3),
    st.lists(st.tuples(st.integers(0, MIN_ROWS + 3), values), max_size=3),
    st.integers(MAX_DEPTH - 8, MAX_DEPTH),
    SIZES,
)
def test_depth_of_long_arrays_matches_a_plain_walk(
    rows: list[Any], odd: list[tuple[int, Any]], levels: int, size: int
) -> None:
    long = _long(rows, odd, size)
    value = json.loads(json.dumps(_wrapped({"x": {"rows": long}, "y": [[]]}, levels)))
    expected = _oracle_depths(value, (), 1)
    found = too_deep_path(value)
    assert found == (min(expected, key=lambda f: f[0])[1] if expected else None)


nested = st.recursive(
    atoms,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(":a", max_size=3), children)
    ),
    max_leaves=40,
)


@SETTINGS
@given(nested, st.integers(MAX_DEPTH - 8, MAX_DEPTH))
def test_depth_of_any_value_matches_a_plain_walk(value: Any, levels: int) -> None:
    """Arrays of arrays only, objects only, and every mix of them, at any level."""
    value = json.loads(json.dumps(_wrapped(value, levels)))
    expected = _oracle_depths(value, (), 1)
    assert too_deep_path(value) == (min(expected, key=lambda f: f[0])[1] if expected else None)


@pytest.mark.parametrize("levels", [MAX_DEPTH - 4, MAX_DEPTH - 3, MAX_DEPTH - 2])
def test_long_array_at_the_depth_limit(levels: int) -> None:
    rows: Any = [{"a": "b"}] * MIN_ROWS
    for _ in range(levels):
        rows = [rows]
    parsed = parse_document(json.dumps({"x": rows}).encode())
    # The card is at depth 1, the arrays at 2 to levels + 2, the long array's objects one more.
    too_deep = [p.path for p in parsed.problems if p.code == "too-deep"]
    assert too_deep == ([] if levels + 3 <= MAX_DEPTH else ["/x" + "/0" * (MAX_DEPTH - 1)])


# ``None``: an element that is not an object; ``...``: an object without a name.
names = st.sampled_from(
    ["model", "model", "run-1", "Bad", "1x", "", "a b", "a\nb", "a\n", 7, None, ...]
)


def _command(name: Any) -> Any:
    if name is None:
        return "x"
    return {"description": "d"} if name is ... else {"name": name, "description": "d"}


@SETTINGS
@given(st.lists(names, min_size=1, max_size=4), st.lists(st.tuples(st.integers(), names)), SIZES)
def test_command_rules_on_long_lists(
    pool: list[Any], odd: list[tuple[int, Any]], size: int
) -> None:
    listed = _long(pool, odd, size)
    commands = [_command(n) for n in listed]
    card = example_card()
    card["capabilities"]["extensions"] = [{"uri": COMMANDS_URI, "params": {"commands": commands}}]
    report = validate_bytes(json.dumps(card).encode(), source="long")
    base = "/capabilities/extensions/0/params/commands"
    bad, repeated, seen = [], [], set()
    for index, name in enumerate(listed):
        if isinstance(name, str) and COMMAND_NAME_PATTERN.fullmatch(name) is None:
            bad.append(("command-name-pattern", f"{base}/{index}/name"))
        if isinstance(name, str) and name in seen:
            repeated.append(("duplicate-command", f"{base}/{index}/name"))
        seen.add(name)
    found = [
        (p.code, p.path)
        for p in report.problems
        if p.code in ("command-name-pattern", "duplicate-command")
    ]
    listed_problems = bad[:MAX_PER_CODE] + repeated[:MAX_PER_CODE]
    # Listed in document order (the card is one line: by column), a name's own rule first.
    in_order = sorted(listed_problems, key=lambda c: (int(c[1].split("/")[-2]), c[0][0] == "d"))
    assert found == in_order
    assert report.extensions[0]["commands"] == [n for n in listed if isinstance(n, str)]


def test_whitespace_only_documents_are_empty() -> None:
    for data in (b" \x0b\x0c\r\n", b"\t"):
        assert [p.code for p in parse_document(data).problems] == ["empty-document"]
    card = json.dumps(example_card()).encode()
    assert parse_document(card + b"\n").value == parse_document(card).value == example_card()


@pytest.mark.parametrize("size", [1, MIN_ROWS - 1, MIN_ROWS, MIN_ROWS + 1])
def test_runs_on_in_long_command_lists(size: int) -> None:
    """``runsOn`` (not in commands v1) is named as such; another unknown member is not."""
    commands: list[Any] = [{"name": f"c{i}", "description": "d"} for i in range(size)]
    commands[size // 2]["runsOn"] = "surface"
    commands[-1]["extra"] = 1
    card = example_card()
    card["capabilities"]["extensions"] = [{"uri": COMMANDS_URI, "params": {"commands": commands}}]
    report = validate_bytes(json.dumps(card).encode(), source="long")
    base = "/capabilities/extensions/0/params/commands"
    found = {(p.code, p.path) for p in report.problems if p.layer == "extension"}
    assert found == {
        ("command-runs-on", f"{base}/{size // 2}/runsOn"),
        ("schema-violation", f"{base}/{size - 1}/extra"),
    }
