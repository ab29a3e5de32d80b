"""``th-ext validate --format junit`` and ``--junit-file`` on a card (and a file name) made to
break the XML: the document parses, with the exact cases and counts, and nothing hostile left."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from tests.acceptance.validate.conftest import CardServer, good_card, respond, run_validate
from tests.support.cli_tree import junit_cases

#: A file name holding an escape sequence, a control, XML's specials, an undecodable byte (read
#: back as a lone surrogate) and a bidi override.
FILE_NAME = 'card\x1b[31m\x01<&"]]>\udcff\u202e.json'
SHOWN_NAME = 'card<&"]]>\ufffd.json'
KEY = '<x a="1">&amp;]]>\x1b[5m\x00\x0b\ufffe\u202e'
COMMANDS = "/capabilities/extensions/0/params/commands"
NEVER = ("\x1b", "\x07", "\x00", "\x0b", "\x9b", "\ufffe", "\u202e", "\u2066")


def hostile_card() -> bytes:
    card: dict[str, Any] = good_card()
    card[KEY] = "__big__"
    card["name"] = "Evil\x1b[2J\x1b]0;owned\x07 ]]> & <b> \"q\" 'a' \u202eevil\u202c\x9b31m"
    card["version"] = "__big__"
    commands = card["capabilities"]["extensions"][0]["params"]["commands"]
    commands[1]["name"] = "Bad\x1b[0m<&>]]>\u2066"
    text = json.dumps(card).replace('"__big__"', "1e400")
    return text.encode("utf-8")


def parse(document: str) -> ET.Element:
    for char in NEVER:
        assert char not in document, repr(char)
    return ET.fromstring(document.encode("utf-8"))


EXPECTED_CASES = [
    ("th-ext.validate.source", "reading the card", "pass"),
    ("th-ext.validate.document", "the card is a JSON object", "pass"),
    ("th-ext.validate.card", "wrong-type at /version", "failure"),
    ("th-ext.validate.card", 'unknown-field at /<x a="1">&amp;]]> ', "system-out"),
    ("th-ext.validate.extension", f"command-name-pattern at {COMMANDS}/1/name", "failure"),
]


def test_a_hostile_card_in_a_hostile_file_gives_a_well_formed_report(tmp_path: Path) -> None:
    (tmp_path / FILE_NAME).write_bytes(hostile_card())
    run = run_validate(FILE_NAME, "--format", "junit", cwd=tmp_path)
    assert (run.code, run.stderr) == (1, "")
    root = parse(run.stdout)
    assert [root.get(k) for k in ("tests", "failures", "errors", "skipped")] == ["5", "2", "0", "0"]
    assert junit_cases(root) == EXPECTED_CASES
    assert {p.get("value") for p in root.iter("property")} == {SHOWN_NAME}
    messages = [f.get("message") for f in root.iter("failure")]
    assert messages == [
        "'version' must be a string, not a number",
        "command name 'Bad\\x1b[0m<&>]]>\\u2066' does not match ^[a-z][a-z0-9-]*$",
    ]


def test_the_junit_file_is_the_same_report_beside_the_text(tmp_path: Path) -> None:
    (tmp_path / FILE_NAME).write_bytes(hostile_card())
    report = tmp_path / "report.xml"
    run = run_validate(FILE_NAME, "--strict", "--junit-file", str(report), cwd=tmp_path)
    assert (run.code, run.stderr) == (1, "")
    for char in NEVER:
        assert char not in run.stdout
    assert "wrong-type" in run.stdout
    root = parse(report.read_bytes().decode("utf-8"))
    assert root.get("failures") == "3"
    assert [case[:2] for case in junit_cases(root)] == [case[:2] for case in EXPECTED_CASES]
    assert [f.get("type") for f in root.iter("failure")] == [
        "wrong-type",
        "unknown-field",
        "command-name-pattern",
    ]


def test_a_card_url_keeps_its_credentials_out_of_the_report(
    card_server: CardServer, tmp_path: Path
) -> None:
    card_server.route("/card.json", respond(200, hostile_card()))
    url = card_server.url("/card.json").replace("http://", "http://user:s3cret-pw@", 1)
    report = tmp_path / "report.xml"
    run = run_validate(url, "--format", "junit", "--junit-file", str(report))
    assert run.code == 1, run.stderr
    shown = card_server.url("/card.json").replace("http://", "http://***@", 1)
    for document in (run.stdout, report.read_text(encoding="utf-8")):
        assert "s3cret-pw" not in document
        root = parse(document)
        assert {p.get("value") for p in root.iter("property")} == {shown}
        assert junit_cases(root) == EXPECTED_CASES


def test_each_source_s_suites_are_named_after_it(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(json.dumps(good_card()), encoding="utf-8")
    (tmp_path / "b.json").write_text(json.dumps(good_card()), encoding="utf-8")
    report = tmp_path / "validate.xml"
    run = run_validate(
        "a.json", "b.json", "missing.json", "--junit-file", str(report), cwd=tmp_path
    )
    assert run.code == 2
    names = [suite.get("name") for suite in parse(report.read_text(encoding="utf-8"))]
    layers = ("source", "document", "card", "extension")
    assert names == [
        *(f"th-ext.validate.{layer} a.json" for layer in layers),
        *(f"th-ext.validate.{layer} b.json" for layer in layers),
        *(f"th-ext.validate.{layer} missing.json" for layer in layers),
    ]
    # A CI system keys a test case by its class name and name: two cards' cases stay apart.
    for suite in parse(report.read_text(encoding="utf-8")):
        assert {case.get("classname") for case in suite.iter("testcase")} == {suite.get("name")}
    one = run_validate("a.json", "--format", "junit", cwd=tmp_path)
    assert [suite.get("name") for suite in parse(one.stdout)] == [
        f"th-ext.validate.{layer}" for layer in layers
    ]
    assert {case.get("classname") for case in parse(one.stdout).iter("testcase")} == {
        f"th-ext.validate.{layer}" for layer in layers
    }
