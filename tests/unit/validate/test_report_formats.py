"""The report's verdict, exit code, and its JSON, JUnit and text renderings."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import Any

from th_ext._exceptions import FetchTimeoutError
from th_ext.report._junit import run_junit
from th_ext.report._text import validate_text as render_text
from th_ext.validate import (
    Report,
    ValidateOptions,
    report_for_source_error,
    validate_bytes,
    validate_value,
)

OUR_STYLES = re.compile(r"\x1b\[(?:0|1|2|31;1|32;1|33;1)m")


def to_junit(report: Report) -> str:
    return run_junit("validate", [report])


def test_exit_codes_and_strict(card: dict[str, Any]) -> None:
    assert validate_value(card).exit_code == 0
    card["unknownThing"] = 1
    lenient = validate_value(card)
    assert (lenient.valid, lenient.exit_code) == (True, 0)
    strict = validate_value(card, options=ValidateOptions(strict=True))
    assert (strict.valid, strict.exit_code) == (False, 1)
    del card["name"]
    assert validate_value(card).exit_code == 1
    assert validate_bytes(b"[]", source="x").exit_code == 2
    unread = report_for_source_error("http://x", FetchTimeoutError("http://x: too slow"))
    assert (unread.exit_code, unread.card_read, unread.layers) == (2, False, ("source",))


def test_json_format_fields(card: dict[str, Any]) -> None:
    card["x"] = 1
    data = validate_value(card, source="card.json").to_dict()
    assert json.loads(json.dumps(data)) == data
    assert {"valid", "source", "problems", "card", "extensions", "summary"} <= set(data)
    assert data["summary"] == {"errors": 0, "warnings": 1, "info": 0}
    assert data["problems"] == [
        {
            "severity": "warning",
            "code": "unknown-field",
            "layer": "card",
            "path": "/x",
            "message": "'x' is not an A2A 1.0 field here; clients will ignore it",
            "hint": "check the spelling (field names are lowerCamelCase) or remove it",
        }
    ]


def test_junit_skips_layers_that_did_not_run() -> None:
    root = ET.fromstring(to_junit(validate_bytes(b"\xff", source="x")))
    assert root.get("skipped") == "2"
    skipped = [
        case.get("classname") for case in root.iter("testcase") if case.find("skipped") is not None
    ]
    assert skipped == ["th-ext.validate.card", "th-ext.validate.extension"]
    assert [f.get("type") for f in root.iter("failure")] == ["invalid-utf8"]


def test_junit_is_well_formed_for_hostile_strings(card: dict[str, Any]) -> None:
    card['<tag attr="x">&amp;\x1b[1m\x00'] = "v"
    card["name"] = "]]>\x0b"
    root = ET.fromstring(to_junit(validate_value(card, options=ValidateOptions(strict=True))))
    assert root.get("failures") == "1"


def test_junit_keeps_every_hostile_string_well_formed(card: dict[str, Any]) -> None:
    hostile = "a\x00\x08\x1b]0;t\x07\ud800\ufffe\uffff\u202e]]><&\"'\x7f\x9b"
    card[hostile] = hostile
    card["supportedInterfaces"][0]["url"] = "https://user:secret@example.com/a2a" + hostile
    text = to_junit(validate_value(card, options=ValidateOptions(strict=True)))
    root = ET.fromstring(text)
    assert "secret" not in text
    failure = next(iter(root.iter("failure")))
    assert "]]><&" in (failure.get("message") or "")
    assert "\x1b" not in text
    assert all(ch in "\n" or ch >= " " for ch in text)


def test_text_colour_comes_only_from_th_ext(card: dict[str, Any]) -> None:
    card["name"] = "\x1b[41mred\x1b[0m agent"
    card["y\x1b[5m"] = 1
    report = validate_value(card)
    plain = render_text(report, color=False)
    assert "\x1b" not in plain
    assert "red agent" in plain
    coloured = render_text(report, color=True)
    assert "\x1b" in coloured
    assert "\x1b" not in OUR_STYLES.sub("", coloured)
