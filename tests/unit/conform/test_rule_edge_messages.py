"""The edge messages exactly as conform sends and labels them: the parts of each, the label a
report shows, and what the rule says each must do."""

from __future__ import annotations

from th_ext import find
from th_ext.catalog._reader import spec_text
from th_ext.conform._scenarios import RuleEdge, rule_edges, spec_table_rows

SPEC = spec_text(find("commands/v1"))
REGISTERED = ["help", "model"]
CONDITION_1 = "condition 1"


def edges(source: str, argument: str = "") -> list[RuleEdge]:
    return [e for e in rule_edges(SPEC, "help", argument, REGISTERED) if e.source == source]


def test_condition_1_sends_the_command_beside_a_file_and_a_data_part_and_inside_one() -> None:
    raw = {"raw": "dGgtZXh0IGNvbmZvcm0=", "mediaType": "text/plain"}  # "th-ext conform"
    url = {"url": "https://example.com/th-ext-conform.txt", "mediaType": "text/plain"}
    data = {"data": {"text": "/help"}}
    text = {"text": "/help"}
    assert edges(CONDITION_1) == [
        RuleEdge("'/help' beside a file part (raw)", (text, raw), CONDITION_1, None, False),
        RuleEdge("'/help' beside a file part (url)", (text, url), CONDITION_1, None, False),
        RuleEdge("'/help' beside a data part", (text, data), CONDITION_1, None, False),
        RuleEdge("'/help' alone in a data part", (data,), CONDITION_1, None, False),
    ]


def test_condition_3_labels_each_whitespace_by_its_code_point_and_name() -> None:
    found = edges("condition 3")
    assert [e.label for e in found] == [
        "'/help' then U+0020 (space)",
        "'/help' then U+0009 (tab)",
        "'/help' then U+000A (line feed)",
        "'/help' then U+000D (carriage return)",
        "'/help' then U+000C (form feed)",
        "'/help' then U+000B (vertical tab)",
        "'/help' then U+0085",
        "'/help' then U+00A0 (no-break space)",
        "'/help' then U+2028 (line separator)",
        "'/help' then U+2029 (paragraph separator)",
    ]
    assert [e.parts[0]["text"] for e in found][5:8] == ["/help\x0b", "/help\x85x", "/help\xa0x"]
    assert [(e.command, e.unregistered_name) for e in found][5:7] == [
        ("help", False),
        (None, True),
    ]


def test_condition_3_sends_the_argument_after_every_whitespace() -> None:
    texts = [e.parts[0]["text"] for e in edges("condition 3", "fast")]
    assert texts[1] == "/help\tfast"
    assert texts[-1] == "/help\u2029fast"


def test_the_table_row_beside_a_second_part_sends_two_text_parts() -> None:
    table = edges("table")
    assert [e.label for e in table] == [
        "'/Help'",
        "' /help'",
        "'/help:x'",
        "'//help'",
        "'/'",
        "'/help' beside a second part",
        "'/helps'",
    ]
    second = table[5]
    assert second.parts == ({"text": "/help"}, {"text": "and a second part"})
    assert [(e.command, e.unregistered_name) for e in table][:2] == [(None, True), (None, False)]


def test_only_the_rows_of_the_table_are_read_and_the_example_name_may_be_missing() -> None:
    spec = "\n".join(
        [
            "| `/before` | not in the table |",
            "| Message text | Why |",
            "|---|---|",
            "| `/x` | a remark |",
            "| `/y` | |",
            "",
            "| `/after` | not in the table |",
        ]
    )
    assert spec_table_rows(spec) == ("", [("/x", ""), ("/y", "")])
    assert [e.parts[0]["text"] for e in rule_edges(spec, "help", "", [])[:2]] == ["/x", "/y"]
