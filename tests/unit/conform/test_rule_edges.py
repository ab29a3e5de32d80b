"""The edges conform sends come from the rule itself: every row of the spec's table, every
content kind condition 1 names, every ASCII whitespace character of condition 3 and the
whitespace outside ASCII; what each must do is the rule's own decision."""

from __future__ import annotations

from th_ext import find
from th_ext.catalog._reader import spec_text
from th_ext.commands import ASCII_WHITESPACE, decide
from th_ext.commands._dispatch_rule import NON_TEXT_CONTENT
from th_ext.conform._scenarios import other_whitespace, rule_edges, spec_table_rows

SPEC = spec_text(find("commands/v1"))
REGISTERED = ["model", "help", "review"]


def test_every_row_of_the_table_is_an_ordinary_scenario_for_the_name_given() -> None:
    example, rows = spec_table_rows(SPEC)
    assert example == "model"
    assert len(rows) >= 7
    table = [e for e in rule_edges(SPEC, "help", "", REGISTERED) if e.source == "table"]
    assert len(table) == len(rows)
    texts = [e.parts[0]["text"] for e in table]
    assert {"/Help", " /help", "/help:x", "//help", "/", "/helps"} <= set(texts)
    assert all(e.command is None for e in table)
    assert any(len(e.parts) == 2 for e in table)


def test_a_row_added_to_the_table_becomes_a_scenario() -> None:
    row = "| `/model!` | the name is `model!`, which is not registered |"
    longer = SPEC.replace("| `/models` |", row + "\n| `/models` |")
    labels = [e.label for e in rule_edges(longer, "help", "", REGISTERED)]
    assert "'/help!'" in labels


def test_condition_1_sends_the_text_beside_every_other_kind_of_part() -> None:
    edges = [e for e in rule_edges(SPEC, "help", "", REGISTERED) if e.source == "condition 1"]
    beside = {
        next(iter(set(e.parts[1]) & set(NON_TEXT_CONTENT))) for e in edges if len(e.parts) > 1
    }
    assert beside == set(NON_TEXT_CONTENT)
    assert all(e.command is None and not e.unregistered_name for e in edges)


def test_condition_3_ends_the_name_at_each_ascii_whitespace_and_at_nothing_else() -> None:
    edges = [e for e in rule_edges(SPEC, "help", "x", REGISTERED) if e.source == "condition 3"]
    commands = [e for e in edges if e.command == "help"]
    assert [e.parts[0]["text"][5] for e in commands] == list(ASCII_WHITESPACE)
    ordinary = [e for e in edges if e.command is None]
    assert [e.parts[0]["text"][5] for e in ordinary] == list(other_whitespace())
    assert all(e.unregistered_name for e in ordinary)
    assert {"\xa0", "\u2028"} <= set(other_whitespace())
    assert not set(other_whitespace()) & set(ASCII_WHITESPACE)


def test_every_expectation_is_the_rules_decision() -> None:
    for edge in rule_edges(SPEC, "model", "fast", REGISTERED):
        call = decide({"parts": list(edge.parts)}, REGISTERED).call
        assert edge.command == (call.name if call else None), edge.label
