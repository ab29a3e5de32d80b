"""``th-ext validate --schemas DIR``: the host's own extensions on a tiny-harness 0.9 card.

The card is the one tiny-harness serves with media enabled; the folder is the stand-in for its
``docs/a2a/ext`` (``tests/support/host_schemas.py``). With the folder, the media params are
checked against the host's media schema, each problem at its line; without it, a note says
how to give the schema. Extensions whose schema applies to task data, not to the card, say so.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.acceptance.validate.conftest import run_validate
from tests.support.host_schemas import URIS, make_host_schemas, tiny_harness_media_card

MEDIA = "/capabilities/extensions/4"


@pytest.fixture
def schemas(tmp_path: Path, extensions_dir: Path) -> Path:
    commands = (extensions_dir / "commands/v1/schema.json").read_bytes()
    return make_host_schemas(tmp_path / "docs/a2a/ext", commands)


def _write(tmp_path: Path, card: dict[str, Any]) -> Path:
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
    return path


def _media_problems(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for p in report["problems"] if p["path"].startswith(MEDIA)]


def test_a_wrong_max_file_bytes_type_is_an_error_at_its_line(tmp_path: Path, schemas: Path) -> None:
    card = tiny_harness_media_card()
    card["capabilities"]["extensions"][4]["params"]["maxFileBytes"] = "10 MiB"
    path = _write(tmp_path, card)
    line = next(
        number
        for number, text in enumerate(path.read_text("utf-8").splitlines(), start=1)
        if '"maxFileBytes"' in text
    )
    run = run_validate(str(path), "--schemas", str(schemas), "--format", "json")
    assert run.code == 1
    (problem,) = _media_problems(run.report)
    assert problem["code"] == "schema-violation"
    assert problem["severity"] == "error"
    assert problem["path"] == f"{MEDIA}/params/maxFileBytes"
    assert problem["line"] == line
    assert "'10 MiB' is not of type 'integer'" in problem["message"]
    assert str(schemas / "media.json") in problem["hint"]
    text = run_validate(str(path), "--schemas", str(schemas))
    assert f"error schema-violation at {MEDIA}/params/maxFileBytes ({path}:{line}:" in text.stdout


def test_valid_media_params_pass_and_an_unknown_key_does_not(tmp_path: Path, schemas: Path) -> None:
    card = tiny_harness_media_card()
    run = run_validate(str(_write(tmp_path, card)), "--schemas", str(schemas), "--format", "json")
    assert _media_problems(run.report) == []
    summary = next(e for e in run.report["extensions"] if e["uri"] == URIS["media"])
    assert summary["checked"] is True
    assert summary["extension"] == "media/v1"
    assert summary["valid"] is True
    card["capabilities"]["extensions"][4]["params"]["maxFileSize"] = 1
    run = run_validate(str(_write(tmp_path, card)), "--schemas", str(schemas), "--format", "json")
    assert [(p["code"], p["path"]) for p in _media_problems(run.report)] == [
        ("schema-violation", f"{MEDIA}/params/maxFileSize")  # at the key that is not allowed
    ]


def test_without_the_schema_a_note_says_how_to_give_it(tmp_path: Path) -> None:
    run = run_validate(str(_write(tmp_path, tiny_harness_media_card())), "--format", "json")
    (note,) = _media_problems(run.report)
    assert (note["severity"], note["code"]) == ("info", "extension-schema-unknown")
    assert note["path"] == f"{MEDIA}/uri"
    assert "--schemas DIR (it holds media.json)" in note["hint"]
    assert f"{URIS['media']}/schema.json with --fetch-schemas" in note["hint"]
    status = next(
        p for p in run.report["problems"] if p["path"] == "/capabilities/extensions/2/uri"
    )
    assert status["code"] == "extension-not-on-card"
    assert "TaskStatusUpdateEvent.metadata" in status["message"]


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        (lambda folder: folder / "absent", "not a folder"),
        (lambda folder: (folder / "media.json").write_text("{") and folder, "not valid JSON"),
        (
            lambda folder: (
                (folder / "media.json").write_text(
                    json.dumps({"$id": URIS["media"] + "/schema.json", "type": 7})
                )
                and folder
            ),
            "not a valid JSON Schema at /type",
        ),
    ],
)
def test_an_unusable_schema_folder_is_one_line_and_exit_2(
    setup: Any, message: str, tmp_path: Path, schemas: Path
) -> None:
    folder = setup(schemas)
    run = run_validate(str(_write(tmp_path, tiny_harness_media_card())), "--schemas", str(folder))
    assert run.code == 2
    assert run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1
    assert message in lines[0]
