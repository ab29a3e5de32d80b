"""The conform and dispatch pages list every scenario, as the code sends and decides them."""

from __future__ import annotations

from tests.support.scenario_docs import block, conform_table, dispatch_table


def test_the_conform_page_lists_every_message_conform_sends() -> None:
    assert block("conform.md") == conform_table(), (
        "site/th-ext/conform.md: run python -m tests.support.scenario_docs"
    )


def test_the_dispatch_page_lists_the_decision_for_every_edge_of_the_rule() -> None:
    assert block("dispatch.md") == dispatch_table(), (
        "site/th-ext/dispatch.md: run python -m tests.support.scenario_docs"
    )


def test_the_tables_name_every_edge_kind() -> None:
    table = conform_table()
    for source in ("command", "unregistered", "plain", "table", "condition 1", "condition 3"):
        assert f"| {source} |" in table
    assert "without `A2A-Extensions`" in table
