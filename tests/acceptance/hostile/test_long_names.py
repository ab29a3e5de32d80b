"""A card's names and lists of any length: a report names them, it does not repeat them. Every
line a person reads stays short however long the card's strings are, or however many skills."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.acceptance.hostile.conftest import EXAMPLE_CARD, Result
from th_ext.problems import quoted

LONG = "x" * 200_000


def _long_card() -> dict[str, Any]:
    """The example card with a 200,000-character name and version, two commands of that name
    (a duplicate), 10,000 skills, and unknown keys, a binding and extension URIs of that
    length."""
    card: dict[str, Any] = json.loads(EXAMPLE_CARD.read_text(encoding="utf-8"))
    card["name"] = card["version"] = LONG
    card["skills"] = [dict(card["skills"][0], id=f"skill-{n}") for n in range(10_000)]
    card["skills"].append(dict(card["skills"][0], id=LONG))
    card["skills"].append(dict(card["skills"][0], id=LONG))
    commands = card["capabilities"]["extensions"][0]["params"]["commands"]
    commands[1]["name"] = commands[2]["name"] = "y" * 200_000
    card[LONG] = 1
    card["supportedInterfaces"].append(dict(card["supportedInterfaces"][0], protocolBinding=LONG))
    known = card["capabilities"]["extensions"][0]["uri"]
    card["capabilities"]["extensions"] += [
        {"uri": "urn:" + LONG},  # not one th-ext checks, then declared again
        {"uri": "urn:" + LONG},
        {"uri": known.removesuffix("v1") + "v" + LONG},  # a near miss
    ]
    return card


@pytest.mark.parametrize("output_format", ["text", "concise", "github"])
def test_every_line_of_a_validate_report_is_short(
    th_ext: Callable[..., Result], tmp_path: Path, output_format: str
) -> None:
    path = tmp_path / "card.json"
    path.write_text(json.dumps(_long_card()), encoding="utf-8")
    result = th_ext("validate", str(path), "-f", output_format)
    assert result.exit_code == 1, result.stderr
    longest = max(result.stdout.splitlines(), key=len)
    # At most a file name, a message with a cut URI, and a hint with the two exact URIs meant.
    assert len(longest) < 700, longest[:200]
    codes = {
        "duplicate-command",
        "duplicate-skill-id",
        "unknown-field",
        "unknown-protocol-binding",
        "extension-not-checked",
        "duplicate-extension",
        "near-miss-extension-uri",
    }
    assert all(code in result.stdout for code in codes)
    if output_format == "text":
        assert "… (10002 in all)" in result.stdout  # the skills: the first ten, and how many


def test_the_text_summary_lists_ten_interfaces_and_ten_extensions_and_counts_the_rest(
    th_ext: Callable[..., Result], tmp_path: Path
) -> None:
    card: dict[str, Any] = json.loads(EXAMPLE_CARD.read_text(encoding="utf-8"))
    interface = card["supportedInterfaces"][0]
    card["supportedInterfaces"] = [
        dict(interface, url=f"http://agent-{n}.example/a2a") for n in range(1_000)
    ]
    card["capabilities"]["extensions"] += [{"uri": f"urn:x:{n}"} for n in range(1_000)]
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card), encoding="utf-8")
    result = th_ext("validate", str(path))
    summary = result.stdout.split("\nsource: ")[0].splitlines()
    assert sum(line.startswith("  interface ") for line in summary) == 11
    assert sum(line.startswith("  extension ") for line in summary) == 11
    assert "  interface   … (1000 in all)" in summary
    assert "  extension   … (1001 in all)" in summary
    assert "http://agent-9.example/a2a" in result.stdout
    assert "http://agent-10.example/a2a" not in result.stdout


def test_a_junit_report_names_long_values_and_places_without_repeating_them(
    th_ext: Callable[..., Result], tmp_path: Path
) -> None:
    path = tmp_path / "card.json"
    path.write_text(json.dumps(_long_card()), encoding="utf-8")
    result = th_ext("validate", str(path), "-f", "junit")
    assert result.exit_code == 1, result.stderr
    assert len(result.stdout) < 50_000
    assert "near-miss-extension-uri" in result.stdout


def test_the_commands_warnings_name_a_long_command_in_a_line(
    th_ext: Callable[..., Result], tmp_path: Path
) -> None:
    path = tmp_path / "card.json"
    path.write_text(json.dumps(_long_card()), encoding="utf-8")
    result = th_ext("commands", str(path))
    warnings = result.stderr.splitlines()
    assert warnings and all(len(line) < 300 for line in warnings), warnings[0][:200]
    assert "is listed twice" in result.stderr


def test_quoted_keeps_a_short_value_whole_and_cuts_a_long_one_keeping_its_quote() -> None:
    assert quoted("model") == "'model'"
    assert quoted(None) == "None"
    assert quoted("x" * 78) == repr("x" * 78)  # 80 characters with its quotes
    assert quoted("x" * 79) == "'" + "x" * 77 + "…'"
    assert len(quoted(LONG)) == 80 and quoted(LONG, 20) == "'" + "x" * 17 + "…'"


def test_two_keys_that_differ_only_in_normalisation_do_not_read_alike(
    th_ext: Callable[..., Result], tmp_path: Path
) -> None:
    text = EXAMPLE_CARD.read_text(encoding="utf-8").rstrip().removesuffix("}")
    path = tmp_path / "card.json"
    path.write_text(text + ', "caf\u00e9": 1, "cafe\u0301": 2}', encoding="utf-8")
    result = th_ext("validate", str(path), "-f", "concise")
    assert "warning unknown-field 'café' is not an A2A 1.0 field" in result.stdout
    assert "warning unknown-field 'cafe\\u0301' is not an A2A 1.0 field" in result.stdout
    assert quoted("cafe\u0301") == "'cafe\\u0301'" and quoted("caf\u00e9") == "'café'"


@pytest.mark.parametrize("output_format", ["text", "github", "junit"])
def test_two_places_that_differ_only_in_normalisation_do_not_read_alike(
    th_ext: Callable[..., Result], tmp_path: Path, output_format: str
) -> None:
    card: dict[str, Any] = json.loads(EXAMPLE_CARD.read_text(encoding="utf-8"))
    params = card["capabilities"]["extensions"][0]["params"]
    params["caf\u00e9"] = params["cafe\u0301"] = 1
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card, ensure_ascii=False), encoding="utf-8")
    result = th_ext("validate", str(path), "-f", output_format)
    assert result.exit_code == 1, result.stderr
    assert "at /capabilities/extensions/0/params/caf\u00e9" in result.stdout
    assert "at /capabilities/extensions/0/params/cafe\\u0301" in result.stdout
    places = [line for line in result.stdout.splitlines() if "/params/" in line]
    assert places and not any("cafe\u0301" in line for line in places)
    report = json.loads(th_ext("validate", str(path), "-f", "json").stdout)
    paths = [p["path"].rsplit("/", 1)[1] for p in report["problems"]]
    assert paths == ["caf\u00e9", "cafe\u0301"]  # the report's data keeps each key as it is
