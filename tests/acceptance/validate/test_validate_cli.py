"""``th-ext validate`` on files and standard input: formats, exit codes, usage errors."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from tests.acceptance.validate.conftest import COMMANDS_URI, good_card, run_validate


def write_card(tmp_path: Path, card: object, name: str = "card.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(card), encoding="utf-8")
    return str(path)


def broken_card() -> dict[str, object]:
    card = good_card()
    del card["skills"]
    card["capabilities"]["extensions"][0]["params"]["commands"][2]["name"] = "model"
    card["capabilities"]["extensions"][0]["required"] = True
    return card


def test_valid_file_text_output(tmp_path: Path) -> None:
    run = run_validate(write_card(tmp_path, good_card()), process=True)  # the installed script
    assert run.code == 0
    assert "valid (0 errors, 0 warnings)" in run.stdout
    assert "3 commands: model, help, review" in run.stdout
    assert run.stderr == ""


def test_problems_text_output_grouped_by_layer(tmp_path: Path) -> None:
    run = run_validate(write_card(tmp_path, broken_card()))
    assert run.code == 1
    lines = run.stdout.splitlines()
    card_at = next(i for i, line in enumerate(lines) if line.startswith("card (A2A 1.0):"))
    ext_at = next(i for i, line in enumerate(lines) if line.startswith("extensions:"))
    assert card_at < ext_at
    assert "error missing-field at /skills" in run.stdout
    assert (
        "error duplicate-command at /capabilities/extensions/0/params/commands/2/name" in run.stdout
    )
    assert "warning required-extension at /capabilities/extensions/0/required" in run.stdout
    assert "hint: " in run.stdout
    assert "invalid (2 errors, 1 warning)" in run.stdout


def test_json_format(tmp_path: Path) -> None:
    run = run_validate(write_card(tmp_path, broken_card()), "--format", "json")
    assert run.code == 1
    report = run.report
    assert report["valid"] is False
    assert report["source"].endswith("card.json")
    assert set(report["problems"][0]) >= {"severity", "code", "path", "message"}
    assert run.codes() == [
        ("missing-field", "/skills"),
        ("required-extension", "/capabilities/extensions/0/required"),
        ("duplicate-command", "/capabilities/extensions/0/params/commands/2/name"),
    ]
    assert report["card"]["name"] == "Harness demo agent"
    assert report["extensions"][0]["commands"] == ["model", "help", "model"]
    assert report["extensions"][0]["valid"] is False


def test_junit_format(tmp_path: Path) -> None:
    run = run_validate(write_card(tmp_path, broken_card()), "--format", "junit")
    assert run.code == 1
    root = ET.fromstring(run.stdout)
    assert root.tag == "testsuites"
    assert root.get("failures") == "2"
    suites = {suite.get("name"): suite for suite in root.iter("testsuite")}
    assert set(suites) == {
        "th-ext.validate.source",
        "th-ext.validate.document",
        "th-ext.validate.card",
        "th-ext.validate.extension",
    }
    failures = [f.get("type") for f in root.iter("failure")]
    assert failures == ["missing-field", "duplicate-command"]
    strict = run_validate(write_card(tmp_path, broken_card()), "--format", "junit", "--strict")
    assert ET.fromstring(strict.stdout).get("failures") == "3"


def test_strict_turns_warnings_into_failures(tmp_path: Path) -> None:
    card = good_card()
    card["iconUrl2"] = "typo"
    path = write_card(tmp_path, card)
    assert run_validate(path).code == 0
    strict = run_validate(path, "--strict", "--format", "json")
    assert strict.code == 1
    assert strict.codes() == [("unknown-field", "/iconUrl2")]
    assert strict.report["valid"] is False


def test_standard_input() -> None:
    run = run_validate(
        "-", "--format", "json", stdin=json.dumps(good_card()).encode(), process=True
    )  # a real pipe
    assert run.code == 0
    assert run.report["location"] == "<stdin>"


def test_byte_order_mark_and_duplicate_keys_are_reported(tmp_path: Path) -> None:
    text = json.dumps(good_card())
    text = text.replace('"version": "1.0.0"', '"version": "1.0.0", "version": "2.0.0"')
    path = tmp_path / "card.json"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    run = run_validate(str(path), "--format", "json")
    assert run.code == 1
    assert run.codes() == [("byte-order-mark", ""), ("duplicate-key", "/version")]


def test_nan_is_reported(tmp_path: Path) -> None:
    text = json.dumps(good_card())[:-1] + ', "extra": NaN}'
    path = tmp_path / "card.json"
    path.write_text(text, encoding="utf-8")
    run = run_validate(str(path), "--format", "json")
    assert run.code == 1
    assert ("non-finite-number", "/extra") in run.codes()


def test_no_known_extension_and_the_extension_option(tmp_path: Path) -> None:
    card = good_card()
    card["capabilities"]["extensions"] = [{"uri": "https://example.com/ext/other/v1"}]
    path = write_card(tmp_path, card)
    run = run_validate(path, "--format", "json")
    assert run.code == 0
    assert run.report["summary"] == {"errors": 0, "warnings": 0, "info": 2}
    assert run_validate(path, "--strict").code == 0
    assert run.codes() == [  # in the order of their places in the card
        ("no-known-extension", "/capabilities/extensions"),
        ("extension-not-checked", "/capabilities/extensions/0/uri"),
    ]
    assert run.report["extensions"] == [
        {
            "uri": "https://example.com/ext/other/v1",
            "path": "/capabilities/extensions/0",
            "checked": False,
        }
    ]
    chosen = run_validate(
        path, "--format", "json", "--extension", "https://example.com/ext/other/v1"
    )
    assert chosen.code == 0
    assert chosen.codes() == [("extension-not-checked", "/capabilities/extensions/0/uri")]
    required = run_validate(
        write_card(tmp_path, good_card(), "good.json"),
        "-f",
        "json",
        "--extension",
        "commands/v1",
        "--extension",
        "urn:example:absent",
    )
    assert required.code == 1
    assert required.codes() == [("missing-extension", "/capabilities/extensions")]


def test_duplicate_extension(tmp_path: Path) -> None:
    card = good_card()
    card["capabilities"]["extensions"].append({"uri": COMMANDS_URI})
    run = run_validate(write_card(tmp_path, card), "--format", "json")
    assert run.code == 1
    assert run.codes() == [("duplicate-extension", "/capabilities/extensions/1/uri")]


def test_missing_file_is_exit_2_with_one_line(tmp_path: Path) -> None:
    run = run_validate(str(tmp_path / "absent.json"), process=True)
    assert run.code == 2
    assert run.stdout == ""
    assert run.stderr == f"th-ext: error: {tmp_path / 'absent.json'}: no such file\n"


def test_file_over_the_cap(tmp_path: Path) -> None:
    run = run_validate(write_card(tmp_path, good_card()), "--max-bytes", "100", "-f", "json")
    assert run.code == 2
    assert run.codes() == [("too-large", "")]


def test_usage_errors_are_exit_2_without_traceback(tmp_path: Path) -> None:
    path = write_card(tmp_path, good_card())
    for args in (
        (path, "--header", "no colon here"),
        (path, "--timeout", "0"),
        (path, "--timeout", "nan"),
        (path, "--max-bytes", "0"),
        (path, "--format", "yaml"),
        ("ftp://example.com/card.json",),
        (path, "--schema", str(tmp_path / "absent-schema.json")),
    ):
        run = run_validate(*args)
        assert run.code == 2, args
        assert "Traceback" not in run.stderr, args
        assert run.stderr.strip() or run.stdout.strip(), args


def test_invalid_schema_option_is_a_usage_error(tmp_path: Path) -> None:
    schema = tmp_path / "schema.json"
    schema.write_text('{"type": "no-such-type"}', encoding="utf-8")
    run = run_validate(write_card(tmp_path, good_card()), "--schema", str(schema))
    assert run.code == 2
    assert run.stderr.startswith("th-ext: error: --schema")
    assert len(run.stderr.strip().splitlines()) == 1
