"""``to_junit`` on cards written to break the report: every document parses, and says exactly
what the text report says, less the characters no reader should receive."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any

from tests.support.cli_tree import junit_cases
from th_ext._exceptions import FetchTimeoutError
from th_ext.report._junit import run_junit
from th_ext.validate import Report, ValidateOptions, report_for_source_error, validate_bytes


def to_junit(report: Report) -> str:
    return run_junit("validate", [report])


KEY = '<x a="1">&amp;]]>\x1b[5m\x00\x0b\ufffe\u202e'
NAME = "Bad\x1b[0m<&>]]>\u2066"
SOURCE = 'card\x1b[31m\x01<&"]]>\udcff\u202e.json'


def hostile(card: dict[str, Any]) -> bytes:
    """The card with a hostile unknown field, name and command name, and numbers too large
    for a float (JSON allows them; Python reads them as infinity)."""
    card[KEY] = "__big__"
    card["name"] = "Evil\x1b[2J\x1b]0;owned\x07 ]]> & <b> \"q\" 'a' \u202eevil\u202c"
    card["version"] = "__big__"
    commands = card["capabilities"]["extensions"][0]["params"]["commands"]
    commands[0]["description"] = "__small__"
    commands[1]["name"] = NAME
    text = json.dumps(card).replace('"__big__"', "1e400").replace('"__small__"', "-1e400")
    return text.encode("utf-8")


def parse(card: dict[str, Any], *, strict: bool = False) -> ET.Element:
    report = validate_bytes(hostile(card), source=SOURCE, options=ValidateOptions(strict=strict))
    document = to_junit(report)
    for char in ("\x1b", "\x07", "\x00", "\x0b", "\ufffe", "\u202e", "\u2066"):
        assert char not in document
    return ET.fromstring(document.encode("utf-8"))


def test_a_hostile_card_gives_the_exact_cases_and_counts(card: dict[str, Any]) -> None:
    root = parse(card)
    counts = ("tests", "failures", "errors", "skipped")
    assert [root.get(key) for key in counts] == ["6", "3", "0", "0"]
    suites = root.findall("testsuite")
    assert [[suite.get(key) for key in counts] for suite in suites] == [
        ["1", "0", "0", "0"],
        ["1", "0", "0", "0"],
        ["2", "1", "0", "0"],
        ["2", "2", "0", "0"],
    ]
    commands = "/capabilities/extensions/0/params/commands"
    assert junit_cases(root) == [
        ("th-ext.validate.source", "reading the card", "pass"),
        ("th-ext.validate.document", "the card is a JSON object", "pass"),
        ("th-ext.validate.card", "wrong-type at /version", "failure"),
        ("th-ext.validate.card", 'unknown-field at /<x a="1">&amp;]]> ', "system-out"),
        ("th-ext.validate.extension", f"schema-violation at {commands}/0/description", "failure"),
        ("th-ext.validate.extension", f"command-name-pattern at {commands}/1/name", "failure"),
    ]
    sources = {prop.get("value") for prop in root.iter("property")}
    assert sources == {'card<&"]]>\ufffd.json'}


def test_a_hostile_card_gives_the_exact_messages(card: dict[str, Any]) -> None:
    root = parse(card, strict=True)
    assert root.get("failures") == "4"
    failures = {f.get("type"): (f.get("message"), f.text) for f in root.iter("failure")}
    unknown = (
        "'<x a=\"1\">&amp;]]>\\x1b[5m\\x00\\x0b\\ufffe\\u202e' is not an A2A 1.0 field here; "
        "clients will ignore it"
    )
    assert failures == {
        "wrong-type": (
            "'version' must be a string, not a number",
            "error: 'version' must be a string, not a number\n"
            "hint: make it a string, as A2A 1.0 requires\n"
            "path: /version",
        ),
        "unknown-field": (
            unknown,
            f"warning: {unknown}\n"
            "hint: check the spelling (field names are lowerCamelCase) or remove it\n"
            'path: /<x a="1">&amp;]]> ',
        ),
        "schema-violation": (
            "-Infinity is not of type 'string'",
            "error: -Infinity is not of type 'string'\n"
            "hint: make it a string, as https://madarauchiha-314.github.io/tiny-harness/a2a/ext/"
            "commands/v1/schema.json requires\n"
            "path: /capabilities/extensions/0/params/commands/0/description",
        ),
        "command-name-pattern": (
            "command name 'Bad\\x1b[0m<&>]]>\\u2066' does not match ^[a-z][a-z0-9-]*$",
            "error: command name 'Bad\\x1b[0m<&>]]>\\u2066' does not match ^[a-z][a-z0-9-]*$\n"
            "hint: use lower-case letters, digits and '-', starting with a letter\n"
            "path: /capabilities/extensions/0/params/commands/1/name",
        ),
    }


def test_an_unread_card_skips_the_layers_after_the_source() -> None:
    report = report_for_source_error(SOURCE, FetchTimeoutError(f"{SOURCE}: too slow"))
    root = ET.fromstring(to_junit(report).encode("utf-8"))
    assert junit_cases(root) == [
        ("th-ext.validate.source", "timeout at (the whole document)", "failure"),
        ("th-ext.validate.document", "the card is a JSON object", "skipped"),
        ("th-ext.validate.card", "the card is an A2A 1.0 agent card", "skipped"),
        ("th-ext.validate.extension", "the declared extensions are valid", "skipped"),
    ]
    message = next(root.iter("failure")).get("message")
    assert message == 'card<&"]]>\ufffd.json: too slow'
