"""The agent card's JSON Schema: made from the proto's facts, each catalog version's params bound
by its URI, published on the site, printed byte for byte, and its rules frozen by the lock."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
from jsonschema import Draft202012Validator

from tests.support.new_version import copy_as_draft
from tests.support.sdk_verdict import sdk_accepts
from th_ext import find
from th_ext.catalog import discover
from th_ext.publish import (
    LOCK_FILE_NAME,
    check_lock,
    lock_card_schema,
    plan_site,
    read_lock,
)
from th_ext.validate import (
    BEYOND_SCHEMA,
    CARD_SCHEMA_KEY,
    CARD_SCHEMA_URL,
    card_rules_sha256,
    card_schema_bytes,
    validate_value,
)

SITE_URL = "https://madarauchiha-314.github.io/tiny-harness/"


def _schema(extensions_dir: Path | None = None) -> dict[str, Any]:
    value: dict[str, Any] = json.loads(card_schema_bytes(extensions_dir))
    return value


def test_it_is_a_draft_2020_12_schema_at_its_own_url() -> None:
    schema = _schema()
    Draft202012Validator.check_schema(schema)
    assert schema["$id"] == CARD_SCHEMA_URL
    assert CARD_SCHEMA_URL == SITE_URL + "a2a/ext/agent-card/v1/schema.json"


def test_every_catalog_version_is_bound_by_its_uri_to_its_schema() -> None:
    rules = _schema()["$defs"]["KnownExtensionParams"]["allOf"]
    bound = {
        rule["if"]["properties"]["uri"]["const"]: urljoin(
            CARD_SCHEMA_URL, rule["then"]["properties"]["params"]["$ref"]
        )
        for rule in rules
    }
    assert bound == {version.uri: version.schema_url for version in discover()}


def test_the_required_fields_are_the_protos() -> None:
    defs = _schema()["$defs"]
    assert defs["AgentCard"]["required"] == [
        "name",
        "description",
        "supportedInterfaces",
        "version",
        "capabilities",
        "defaultInputModes",
        "defaultOutputModes",
        "skills",
    ]
    assert defs["AgentSkill"]["properties"]["tags"]["minItems"] == 1


def test_th_ext_schema_prints_the_published_bytes() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "th_ext", "schema", "agent-card"],
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == card_schema_bytes()
    plan = plan_site(SITE_URL, find("commands/v1").folder.parents[1], check_published=False)
    assert plan.file("a2a/ext/agent-card/v1/schema.json").content == done.stdout


def test_the_lock_holds_the_card_rules() -> None:
    lock = read_lock(find("commands/v1").folder.parents[1] / LOCK_FILE_NAME)
    assert lock[CARD_SCHEMA_KEY] == card_rules_sha256()


def test_changed_card_rules_are_refused(tmp_path: Path) -> None:
    lock = {CARD_SCHEMA_KEY: "0" * 64}
    [problem] = check_lock([], lock)
    assert problem.startswith(f"{CARD_SCHEMA_KEY}: the agent card schema's rules changed")
    assert check_lock([], {CARD_SCHEMA_KEY: card_rules_sha256()}) == []
    path = tmp_path / LOCK_FILE_NAME
    path.write_text(f"{CARD_SCHEMA_KEY} sha256:{'0' * 64}\n", encoding="utf-8")
    with pytest.raises(Exception, match="cannot be replaced"):
        lock_card_schema(path)
    path.unlink()
    assert lock_card_schema(path) is True
    assert lock_card_schema(path) is False


def test_a_new_version_folder_adds_a_binding_and_keeps_the_rules(
    tmp_path: Path, extensions_dir: Path
) -> None:
    copy = tmp_path / "extensions"
    shutil.copytree(extensions_dir, copy)
    copy_as_draft(copy, "commands/v1", "v9")
    uris = [r["if"]["properties"]["uri"]["const"] for r in _allof(_schema(copy))]
    assert uris[-1].endswith("/commands/v9")
    assert len(uris) == len(_allof(_schema())) + 1
    lock = copy / LOCK_FILE_NAME
    assert check_lock(discover(copy), read_lock(lock)) == []
    plan = plan_site(SITE_URL, copy)
    assert plan.file("a2a/ext/agent-card/v1/schema.json").content == card_schema_bytes(copy)


def _allof(schema: dict[str, Any]) -> list[Any]:
    rules: list[Any] = schema["$defs"]["KnownExtensionParams"]["allOf"]
    return rules


def test_an_extension_at_the_card_schemas_url_is_refused(
    tmp_path: Path, extensions_dir: Path
) -> None:
    copy = tmp_path / "extensions"
    shutil.copytree(extensions_dir, copy)
    target = copy_as_draft(copy, "commands/v1", "v9")
    meta = target / "extension.toml"
    meta.write_text(
        meta.read_text(encoding="utf-8").replace("/commands/v9", "/agent-card/v1"),
        encoding="utf-8",
    )
    with pytest.raises(Exception, match="is also the URI of agent-card/v1"):
        plan_site(SITE_URL, copy, check_published=False)


def test_one_card_reads_in_one_style(card: dict[str, Any]) -> None:
    """The card's problems and the params' come from one translation: a wrong type gets the
    same hint whichever schema says it."""
    card["version"] = 7
    card["capabilities"]["extensions"][0]["params"]["commands"][0]["description"] = 7
    hints = {p.code: p.hint for p in validate_value(card).problems}
    assert hints["wrong-type"] == "make it a string, as A2A 1.0 requires"
    assert hints["schema-violation"].startswith("make it a string, as https://")


def test_a_schema_key_for_editors_is_accepted(card: dict[str, Any]) -> None:
    """The SDK's card resolver parses with unknown fields ignored: ``$schema`` is dropped."""
    card["$schema"] = CARD_SCHEMA_URL
    assert validate_value(card).problems == validate_value(_without(card, "$schema")).problems
    assert sdk_accepts(card)
    card["$schemas"] = CARD_SCHEMA_URL
    codes = {(p.code, p.path) for p in validate_value(card).problems}
    assert ("unknown-field", "/$schemas") in codes


def _without(card: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in card.items() if k != key}


def test_the_site_lists_every_rule_beyond_the_schema(repo_root: Path) -> None:
    page = (repo_root / "site" / "th-ext" / "validate.md").read_text(encoding="utf-8")
    section = page.split("### Beyond the schema", 1)[1].split("\n## ", 1)[0]
    for code in BEYOND_SCHEMA:
        assert f"`{code}`" in section, code
