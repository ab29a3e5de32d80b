"""``th-ext validate`` on the card tiny-harness 0.9 serves: exactly the verdicts its facts call
for. No ``skills`` is an A2A error whose hint says why the member is gone (the SDK drops an
empty list); ``runsOn`` on a commands v1 card is ``command-runs-on``, naming the command, its
line and the two ways out; the family's other extensions are notes. Declaring the commands v2
draft instead leaves the skills error and the draft warning, nothing else."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from tests.support.tiny_harness_agent import start_tiny_harness_agent, tiny_harness_card
from th_ext import find
from th_ext.catalog._reader import schema_document
from th_ext.cli import app

BASE = "http://127.0.0.1:9/"
NOTES = [
    ("info", "extension-not-on-card", "/capabilities/extensions/0/uri"),
    ("info", "extension-not-on-card", "/capabilities/extensions/1/uri"),
    ("info", "extension-not-on-card", "/capabilities/extensions/2/uri"),
]


def validate(source: str) -> tuple[int, dict[str, Any]]:
    outcome = CliRunner().invoke(app, ["validate", source, "--format", "json"])
    document: dict[str, Any] = json.loads(outcome.stdout)
    return outcome.exit_code, document


def verdicts(document: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(p["severity"], p["code"], p["path"]) for p in document["problems"]]


def card_file(tmp_path: Path, **options: Any) -> str:
    path = tmp_path / "agent-card.json"
    path.write_text(json.dumps(tiny_harness_card(BASE, **options), indent=2), encoding="utf-8")
    return str(path)


def test_the_media_card_gets_exactly_the_verdicts_the_facts_call_for(tmp_path: Path) -> None:
    code, document = validate(card_file(tmp_path, media=True))
    assert code == 1
    assert verdicts(document) == [
        ("error", "missing-field", "/skills"),
        *NOTES,
        ("error", "command-runs-on", "/capabilities/extensions/3/params/commands/4/runsOn"),
        ("info", "extension-schema-unknown", "/capabilities/extensions/4/uri"),
        ("info", "extension-not-checked", "/capabilities/extensions/5/uri"),
    ]
    skills, runs_on = document["problems"][0], document["problems"][4]
    assert skills["hint"].startswith('add "skills": [{"id": "…"')
    assert "the official A2A SDKs leave an empty list out of the card" in skills["hint"]
    assert runs_on["message"] == (
        "command 'attach' carries runsOn: tiny-harness 0.9 writes runsOn for a command the "
        "client runs itself; commands v1 as published does not allow it"
    )
    assert runs_on["line"] == 61
    assert runs_on["hint"].startswith("two ways out: leave the commands the client runs itself")
    assert "/commands/v2 (a draft)" in runs_on["hint"]


def test_without_media_only_the_skills_error_is_left(tmp_path: Path) -> None:
    code, document = validate(card_file(tmp_path, media=False))
    assert code == 1
    assert [v for v in verdicts(document) if v[0] != "info"] == [
        ("error", "missing-field", "/skills")
    ]


def test_the_served_card_reads_the_same_as_the_file(tmp_path: Path) -> None:
    with start_tiny_harness_agent(media=True) as url:
        code, served = validate(url)
    assert code == 1
    # served by the SDK's card route: an ETag, but no Cache-Control (A2A 1.0 section 8.6.1)
    assert [v[1] for v in verdicts(served)] == [
        "card-cache-control-missing",
        *(v[1] for v in verdicts(validate(card_file(tmp_path, media=True))[1])),
    ]


def test_declaring_the_v2_draft_leaves_the_skills_error_and_the_draft_warning(
    tmp_path: Path,
) -> None:
    code, document = validate(card_file(tmp_path, media=True, commands_version="v2"))
    assert code == 1
    assert verdicts(document) == [
        ("error", "missing-field", "/skills"),
        *NOTES,
        ("warning", "extension-draft", "/capabilities/extensions/3/uri"),
        ("info", "extension-schema-unknown", "/capabilities/extensions/4/uri"),
        ("info", "extension-not-checked", "/capabilities/extensions/5/uri"),
    ]
    [entry] = [e for e in document["extensions"] if e.get("extension") == "commands/v2"]
    assert entry["commands"] == ["model", "effort", "sub-task", "status", "attach"]


@pytest.mark.parametrize(
    ("command", "valid"),
    [
        ({"name": "attach", "description": "d", "runsOn": "surface"}, True),
        ({"name": "model", "description": "d", "runsOn": "agent"}, True),
        ({"name": "attach", "description": "d", "runsOn": "client"}, False),
        ({"name": "Deploy", "description": "d"}, False),
    ],
)
def test_the_v2_schema_alone_holds_runs_on_and_the_name_pattern(
    command: dict[str, str], valid: bool
) -> None:
    schema = schema_document(find("commands/v2"))
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors({"commands": [command]}))
    assert (not errors) is valid


def test_a_surface_command_on_a_v2_card_is_not_a_problem_but_a_bad_name_is(
    tmp_path: Path,
) -> None:
    card = tiny_harness_card(BASE, commands_version="v2")
    card["capabilities"]["extensions"][3]["params"]["commands"][0]["name"] = "Model"
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card), encoding="utf-8")
    _, document = validate(str(path))
    codes = [v[1] for v in verdicts(document) if v[2].startswith("/capabilities/extensions/3")]
    assert "command-runs-on" not in codes
    assert codes.count("schema-violation") + codes.count("command-name-pattern") >= 1
