"""Any JSON Schema tool gives th-ext's schema-level verdict: check-jsonschema, run with the
published agent card schema, agrees with th-ext on every card under tests/ whose problems are
all ones the schema states."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from th_ext.publish import plan_site, write_plan
from th_ext.validate import validate_bytes

REPO = Path(__file__).resolve().parents[3]
SITE_URL = "https://madarauchiha-314.github.io/tiny-harness/"
CHECK_JSONSCHEMA = Path(sys.executable).parent / "check-jsonschema"

#: The codes of problems the card schema (and the params schemas it binds) states.
SCHEMA_LEVEL = frozenset(
    {
        "missing-field",
        "wrong-type",
        "empty-field",
        "empty-array",
        "invalid-url",
        "oneof-conflict",
        "empty-oneof",
        "no-known-field",
        "schema-violation",
    }
)


def _cards() -> list[Path]:
    found = sorted((REPO / "tests" / "data" / "real_cards").glob("*.json"))
    samples = REPO / "tests" / "data" / "samples"
    found += [samples / name for name in ("agent-card.json", "broken-card.json")]
    found += [samples / "signed-card.json", samples / "deploy" / "agent.json"]
    return found + sorted((REPO / "extensions").glob("*/*/examples/card.json"))


def _broken_params(tmp_path: Path) -> list[Path]:
    """Cards whose only problems are in an extension's params, which the card schema binds."""
    base = json.loads((REPO / "tests/data/samples/agent-card.json").read_text(encoding="utf-8"))
    made = []
    for name, commands in {
        "no-description": [{"name": "model"}],
        "extra-key": [{"name": "model", "description": "d", "aliases": []}],
        "not-an-array": "model",
    }.items():
        card = json.loads(json.dumps(base))
        card["capabilities"]["extensions"][0]["params"] = {"commands": commands}
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(card), encoding="utf-8")
        made.append(path)
    return made


def _check_jsonschema(site: Path, cards: list[Path]) -> dict[str, bool]:
    """check-jsonschema's verdict on each card, with the schemas read from the built site."""
    schema = site / "a2a/ext/agent-card/v1/schema.json"
    done = subprocess.run(
        [
            str(CHECK_JSONSCHEMA),
            "--schemafile",
            str(schema),
            "--base-uri",
            schema.as_uri(),
            "--output-format",
            "json",
            *map(str, cards),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    output = json.loads(done.stdout)
    assert output["parse_errors"] == [], output["parse_errors"]
    failed = {error["filename"] for error in output["errors"]}
    return {str(card): str(card) not in failed for card in cards}


def test_check_jsonschema_agrees_with_th_ext(tmp_path: Path) -> None:
    site = tmp_path / "site"
    write_plan(plan_site(SITE_URL, REPO / "extensions"), site)
    cards = _cards() + _broken_params(tmp_path)
    theirs = _check_jsonschema(site, cards)
    compared: dict[str, bool] = {}
    for card in cards:
        report = validate_bytes(card.read_bytes(), source=str(card))
        errors = [p for p in report.problems if p.is_error]
        if report.card_read and not errors:  # the schema is never stricter than th-ext
            assert theirs[str(card)], card.name
        if not report.card_read or any(p.code not in SCHEMA_LEVEL for p in errors):
            continue
        assert theirs[str(card)] == (not errors), (card.name, [p.code for p in errors])
        compared[card.name] = not errors
    assert len(compared) >= 15
    assert True in compared.values() and False in compared.values()
    assert all(not compared[f"{name}.json"] for name in ("no-description", "extra-key"))
