"""``th-ext conform --keys``: the card conform reads is verified as ``validate`` verifies it."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.support.signing import make_key
from th_ext.cli import app
from th_ext.demo import DemoServer, DemoVariant
from th_ext.signatures import sign_card

pytestmark = pytest.mark.slow

Agent = Callable[[DemoVariant], DemoServer]


def conform_json(*args: str) -> tuple[int, dict[str, Any]]:
    outcome = CliRunner().invoke(
        app,
        ["conform", *args, "--command", "help", "--level", "MUST", "--format", "json"],
        catch_exceptions=False,
    )
    assert outcome.exit_code in (0, 1), outcome.stderr
    document: dict[str, Any] = json.loads(outcome.stdout)
    return outcome.exit_code, document


def signature_rule(document: dict[str, Any]) -> dict[str, Any]:
    rules: list[dict[str, Any]] = [r for r in document["core"] if r["id"] == "A2A-8.4"]
    assert len(rules) == 1
    return rules[0]


def signed_card_file(tmp_path: Path, agent: DemoServer, tamper: bool) -> tuple[Path, Path]:
    url = agent.base_url.rstrip("/") + "/.well-known/agent-card.json"
    with urllib.request.urlopen(url, timeout=10) as answer:
        card = json.loads(answer.read())
    key = make_key("ES256", "conform-key")
    signed = json.loads(sign_card(json.dumps(card).encode(), key.pem, kid=key.kid).data)
    if tamper:
        signed["name"] = "Not the signed name"
    card_file, jwks = tmp_path / "card.json", tmp_path / "jwks.json"
    card_file.write_text(json.dumps(signed), encoding="utf-8")
    jwks.write_text(json.dumps(key.jwks()), encoding="utf-8")
    return card_file, jwks


def test_conform_verifies_the_signed_card_it_reads(tmp_path: Path, conform_agent: Agent) -> None:
    card, jwks = signed_card_file(tmp_path, conform_agent(DemoVariant.CORRECT), tamper=False)
    code, document = conform_json(str(card), "--keys", str(jwks))
    rule = signature_rule(document)
    assert rule["status"] in ("pass", "warn")
    assert any("signature-verified" in check["detail"] for check in rule["checks"])
    assert code == 0


def test_conform_fails_a_card_altered_after_signing(tmp_path: Path, conform_agent: Agent) -> None:
    card, jwks = signed_card_file(tmp_path, conform_agent(DemoVariant.CORRECT), tamper=True)
    code, document = conform_json(str(card), "--keys", str(jwks))
    rule = signature_rule(document)
    assert rule["status"] == "fail"
    assert "signature-invalid" in rule["checks"][0]["detail"]
    assert code == 1
    assert not document["passed"]


def test_conform_without_keys_reports_no_signature_rule(conform_agent: Agent) -> None:
    _, document = conform_json(conform_agent(DemoVariant.CORRECT).base_url)
    assert all(r["id"] != "A2A-8.4" for r in document["core"])
