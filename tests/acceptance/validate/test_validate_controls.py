"""The controls of ``th-ext validate`` a linter's user expects: ``--statistics``, ``--select``,
``--ignore``, ``--exit-zero`` and ``--format sarif`` (validated against the published SARIF
2.1.0 schema), on card files and on cards served by a real loopback server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.acceptance.validate.conftest import CardServer, good_card, respond, run_validate
from th_ext.problems import CODES
from th_ext.report import SARIF_SCHEMA

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "data" / "sarif" / "sarif-schema-2.1.0.json"


def sarif_validator() -> jsonschema.protocols.Validator:
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    kind = jsonschema.validators.validator_for(schema)
    return kind(schema, format_checker=kind.FORMAT_CHECKER)


def sarif_errors(log: Any) -> list[str]:
    return [error.message for error in sarif_validator().iter_errors(log)]


@pytest.fixture
def cards(tmp_path: Path) -> Path:
    """good.json; bad.json (one unknown field, two bad command names); worse.json (two
    unknown fields, one bad name); a list naming them and a missing file."""
    (tmp_path / "good.json").write_text(json.dumps(good_card(), indent=2), encoding="utf-8")
    bad = good_card()
    bad["homepage"] = "https://agent.example"
    commands = bad["capabilities"]["extensions"][0]["params"]["commands"]
    commands[1]["name"] = "Help"
    commands[2]["name"] = "Review"
    (tmp_path / "bad.json").write_text(json.dumps(bad, indent=2), encoding="utf-8")
    worse = good_card()
    worse["homepage"] = "https://agent.example"
    worse["logo"] = "x.png"
    worse["capabilities"]["extensions"][0]["params"]["commands"][0]["name"] = "Model"
    (tmp_path / "worse.json").write_text(json.dumps(worse, indent=2), encoding="utf-8")
    (tmp_path / "list.txt").write_text("good.json\nbad.json\nworse.json\nmissing.json\n")
    return tmp_path


def test_statistics_counts_each_code_most_frequent_first(cards: Path) -> None:
    run = run_validate("--from", "list.txt", "--statistics", cwd=cards)
    assert run.code == 2  # the exit code of the run, as without --statistics
    assert run.stdout == (
        "problems by code, most frequent first:\n"
        "  3  command-name-pattern (error, in 2 sources)\n"
        "  3  unknown-field (warning, in 2 sources)\n"
        "could not be read, by error code:\n"
        "  1  unreadable\n"
        "4 sources checked\n"
    )
    assert "th-ext validate" not in run.stdout  # the counts instead of the reports


def test_statistics_in_json(cards: Path) -> None:
    run = run_validate("--from", "list.txt", "--statistics", "-f", "json", cwd=cards)
    assert run.code == 2
    assert run.report == {
        "command": "validate",
        "exit_code": 2,
        "sources": 4,
        "problems": [
            {"code": "command-name-pattern", "count": 3, "sources": 2, "severity": "error"},
            {"code": "unknown-field", "count": 3, "sources": 2, "severity": "warning"},
        ],
        "errors": [{"code": "unreadable", "count": 1}],
    }


def test_statistics_of_one_valid_card_say_nothing_was_found(cards: Path) -> None:
    run = run_validate("good.json", "--statistics", cwd=cards)
    assert (run.code, run.stdout) == (0, "1 source checked: nothing found\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["-f", "jsonl"],
            "--statistics prints text or json; it cannot be used with --format jsonl",
        ),
        (
            ["-f", "sarif"],
            "--statistics prints text or json; it cannot be used with --format sarif",
        ),
        (
            ["--resume", "out.jsonl"],
            "--statistics prints text or json; it cannot be used with --resume",
        ),
    ],
)
def test_statistics_in_another_format_is_one_usage_error(
    cards: Path, args: list[str], message: str
) -> None:
    run = run_validate("bad.json", "--statistics", *args, cwd=cards)
    assert (run.code, run.stdout, run.stderr) == (2, "", f"th-ext: error: {message}\n")


@pytest.mark.parametrize("output_format", ["text", "concise", "jsonl"])
def test_a_card_given_to_from_is_one_line_and_exit_2(cards: Path, output_format: str) -> None:
    run = run_validate("--from", "good.json", "-f", output_format, cwd=cards)
    assert (run.code, run.stdout) == (2, "")
    assert run.stderr == (
        "th-ext: error: --from good.json: a JSON document, not a list of sources (one a line); "
        "give a card as a SOURCE\n"
    )


def test_the_text_summary_names_the_first_problem_and_ends_with_the_counts(cards: Path) -> None:
    run = run_validate("--from", "list.txt", "--quiet", cwd=cards)
    assert run.code == 2
    summary = run.stdout[run.stdout.index("\nfailing:\n") :].splitlines()
    assert summary[2:5] == [
        "  bad.json (exit 1): [command-name-pattern] command name 'Help' does not match "
        "^[a-z][a-z0-9-]*$",
        "  worse.json (exit 1): [command-name-pattern] command name 'Model' does not match "
        "^[a-z][a-z0-9-]*$",
        "  missing.json (exit 2): [unreadable] missing.json: no such file",
    ]
    assert summary[-6:] == [
        "problems by code, most frequent first:",
        "  3  command-name-pattern (error, in 2 sources)",
        "  3  unknown-field (warning, in 2 sources)",
        "could not be read, by error code:",
        "  1  unreadable",
        "4 cards: 1 valid, 2 invalid, 1 could not be read",
    ]


def test_the_first_problem_named_is_the_first_that_fails_the_card(cards: Path) -> None:
    # bad.json's first problem is a warning (unknown-field, line 57 comes first in the card
    # layer); the summary names the error that made it fail
    run = run_validate("bad.json", "good.json", "--quiet", cwd=cards)
    assert "  bad.json (exit 1): [command-name-pattern] command name 'Help'" in run.stdout
    strict = run_validate("bad.json", "good.json", "--strict", "--ignore", "command-", cwd=cards)
    assert (
        "  bad.json (exit 1): [unknown-field] 'homepage' is not an A2A 1.0 field" in strict.stdout
    )


@pytest.mark.parametrize(
    ("args", "code", "left"),
    [
        ([], 1, ["unknown-field", "command-name-pattern", "command-name-pattern"]),
        (["--ignore", "command-name-pattern"], 0, ["unknown-field"]),
        (["--ignore", "command-"], 0, ["unknown-field"]),
        (["--ignore", "COMMAND"], 0, ["unknown-field"]),
        (["--select", "unknown-field"], 0, ["unknown-field"]),
        (["--select", "unknown-field", "--strict"], 1, ["unknown-field"]),
        (["--select", "command-name-pattern,unknown-field", "--ignore", "unknown-"], 1, None),
    ],
)
def test_select_and_ignore_decide_the_exit_code(
    cards: Path, args: list[str], code: int, left: list[str] | None
) -> None:
    run = run_validate("bad.json", "-f", "json", *args, cwd=cards)
    assert run.code == code
    assert run.report["exit_code"] == code and run.report["valid"] is (code == 0)
    codes = [problem["code"] for problem in run.report["problems"]]
    assert codes == (left if left is not None else ["command-name-pattern"] * 2)


def test_select_and_ignore_apply_to_every_source_of_a_run(cards: Path) -> None:
    run = run_validate("--from", "list.txt", "-f", "jsonl", "--ignore", "command-", cwd=cards)
    lines = {line["source"]: line for line in map(json.loads, run.stdout.splitlines())}
    assert {source: line["exit_code"] for source, line in lines.items()} == {
        "good.json": 0,
        "bad.json": 0,
        "worse.json": 0,
        "missing.json": 2,  # nothing was read: no selection makes it pass
    }
    assert run.code == 2
    only = run_validate("--from", "list.txt", "--statistics", "--select", "unknown-", cwd=cards)
    assert "command-name-pattern" not in only.stdout
    assert "  3  unknown-field (warning, in 2 sources)\n" in only.stdout


def test_a_source_that_cannot_be_read_stays_exit_2_whatever_is_ignored(cards: Path) -> None:
    run = run_validate("missing.json", "-f", "json", "--ignore", "unreadable", cwd=cards)
    assert run.code == 2
    assert [p["code"] for p in run.report["problems"]] == ["unreadable"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--select", "unknwn-field"],
            "--select: no problem code 'unknwn-field'; did you mean 'unknown-field'?",
        ),
        (
            ["--ignore", "signature-invalid,sig"],
            "--ignore: no problem code 'sig'; did you mean 'signature-'?",
        ),
        (["--ignore", "zzz-qqq"], "--ignore: no problem code 'zzz-qqq'"),
        (["--select", ","], "--select: give one or more codes, comma-separated"),
    ],
)
def test_a_code_that_does_not_exist_is_one_usage_error(
    cards: Path, args: list[str], message: str
) -> None:
    run = run_validate("bad.json", *args, cwd=cards, process=True)
    assert (run.code, run.stdout, run.stderr) == (2, "", f"th-ext: error: {message}\n")


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (
            ["--select", "signature-", "--ignore", "signature"],
            "--select signature- with --ignore signature",
        ),
        (
            ["--select", "unknown-field", "--ignore", "unknown-"],
            "--select unknown-field with --ignore unknown-",
        ),
    ],
)
def test_a_selection_that_leaves_no_code_is_one_usage_error(
    card_server: CardServer, args: list[str], named: str
) -> None:
    url = card_server.route("/card.json", respond(200, good_card()))
    run = run_validate(url, *args)
    message = f"th-ext: error: {named} leaves no problem code to count\n"
    assert (run.code, run.stdout, run.stderr) == (2, "", message)
    assert card_server.seen == []


def test_exit_zero_passes_problems_but_not_a_source_that_cannot_be_read(cards: Path) -> None:
    run = run_validate("bad.json", "--exit-zero", "-f", "concise", cwd=cards, process=True)
    assert run.code == 0
    assert run.stdout.endswith("bad.json: invalid (2 errors, 1 warning)\n")
    fleet = run_validate("--from", "list.txt", "--exit-zero", "-f", "jsonl", cwd=cards)
    assert fleet.code == 2  # missing.json
    two = run_validate("good.json", "bad.json", "--exit-zero", "-q", cwd=cards)
    assert two.code == 0


def test_sarif_validates_against_the_published_schema(cards: Path) -> None:
    run = run_validate("bad.json", "good.json", "missing.json", "-f", "sarif", cwd=cards)
    assert run.code == 2
    log = json.loads(run.stdout)
    assert sarif_errors(log) == []
    assert log["$schema"] == SARIF_SCHEMA and log["version"] == "2.1.0"
    driver = log["runs"][0]["tool"]["driver"]
    assert driver["name"] == "th-ext"
    rules = driver["rules"]
    assert [rule["id"] for rule in rules] == list(CODES)  # one rule per problem code
    for rule in rules:
        assert rule["help"]["text"] == CODES[rule["id"]].help
    results = log["runs"][0]["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [
        ("unknown-field", "warning"),
        ("command-name-pattern", "error"),
        ("command-name-pattern", "error"),
        ("unreadable", "error"),
    ]
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    first = results[0]["locations"][0]
    assert first["physicalLocation"] == {
        "artifactLocation": {"uri": "bad.json"},
        "region": {"startLine": 57, "startColumn": 3},
    }
    assert first["logicalLocations"] == [{"fullyQualifiedName": "/homepage", "kind": "member"}]
    assert results[0]["message"]["text"].startswith("'homepage' is not an A2A 1.0 field here")
    assert results[3]["locations"] == [
        {"physicalLocation": {"artifactLocation": {"uri": "missing.json"}}}
    ]


def test_sarif_of_a_card_read_from_a_url_names_the_url_and_the_pointer(
    card_server: CardServer,
) -> None:
    card = good_card()
    card["capabilities"]["extensions"][0]["params"]["commands"][1]["name"] = "Help"
    url = card_server.route("/card.json", respond(200, json.dumps(card).encode()))
    run = run_validate(url, "-f", "sarif")
    assert run.code == 1
    log = json.loads(run.stdout)
    assert sarif_errors(log) == []
    (result,) = log["runs"][0]["results"]
    (location,) = result["locations"]
    assert location["physicalLocation"]["artifactLocation"] == {"uri": url}
    assert location["logicalLocations"] == [
        {
            "fullyQualifiedName": "/capabilities/extensions/0/params/commands/1/name",
            "kind": "member",
        }
    ]


def test_sarif_of_a_warning_under_strict_is_an_error_and_paths_are_uris(cards: Path) -> None:
    folder = cards / "agent cards"
    folder.mkdir()
    (folder / "bad.json").write_bytes((cards / "bad.json").read_bytes())
    run = run_validate(
        "agent cards/bad.json", "-f", "sarif", "--strict", "--select", "unknown-", cwd=cards
    )
    log = json.loads(run.stdout)
    assert sarif_errors(log) == []
    (result,) = log["runs"][0]["results"]
    assert result["level"] == "error"  # --strict: the warning fails the card
    artifact = result["locations"][0]["physicalLocation"]["artifactLocation"]
    assert artifact == {"uri": "agent%20cards/bad.json"}
    absolute = run_validate(str(folder / "bad.json"), "-f", "sarif", cwd=cards)
    uri = json.loads(absolute.stdout)["runs"][0]["results"][0]["locations"][0]
    assert uri["physicalLocation"]["artifactLocation"]["uri"].startswith("file:///")


def test_the_schema_check_rejects_a_log_that_breaks_it(cards: Path) -> None:
    log = json.loads(run_validate("bad.json", "-f", "sarif", cwd=cards).stdout)
    log["runs"][0]["results"][0]["level"] = "fatal"
    assert sarif_errors(log) != []
    del log["version"]
    assert any("'version' is a required property" in e for e in sarif_errors(log))
