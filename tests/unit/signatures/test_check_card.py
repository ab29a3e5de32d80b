"""The pytest plugin's ``check_card(keys=..., require_signature=...)``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.unit.signatures.conftest import agreeing_card, key
from th_ext.signatures import KeysError, sign_card
from th_ext.testing import CardCheckFailed, check_card


def signed_bytes() -> bytes:
    return sign_card(json.dumps(agreeing_card()).encode(), key().pem, kid=key().kid).data


def test_a_signed_card_passes_with_its_keys_as_a_dict_or_a_file(tmp_path: Path) -> None:
    report = check_card(signed_bytes(), keys=[key().jwks()])
    assert [p.code for p in report.problems] == ["signature-verified"]
    jwks = tmp_path / "jwks.json"
    jwks.write_text(json.dumps(key().jwks()), encoding="utf-8")
    assert check_card(signed_bytes(), keys=[jwks]).valid


def test_a_tampered_card_fails_the_test_naming_the_code() -> None:
    card = json.loads(signed_bytes())
    card["description"] = "changed"
    with pytest.raises(CardCheckFailed, match="signature-invalid"):
        check_card(card, keys=[key().jwks()])


def test_require_signature_fails_an_unsigned_card() -> None:
    assert check_card(agreeing_card()).valid
    with pytest.raises(CardCheckFailed, match="signature-unverified"):
        check_card(agreeing_card(), require_signature=True)


def test_a_keys_file_that_is_no_jwks_is_a_keys_error(tmp_path: Path) -> None:
    bad = tmp_path / "jwks.json"
    bad.write_text("[]", encoding="utf-8")
    with pytest.raises(KeysError, match="not a JWKS"):
        check_card(agreeing_card(), keys=[bad])


def test_the_pre_commit_hook_takes_keys(tmp_path: Path) -> None:
    """``args: [--keys, jwks.json]`` in an agent's pre-commit configuration."""
    import subprocess
    import sys

    (tmp_path / "agent-card.json").write_bytes(signed_bytes())
    (tmp_path / "jwks.json").write_text(json.dumps(key().jwks()), encoding="utf-8")
    tampered = json.loads(signed_bytes())
    tampered["name"] = "changed"
    (tmp_path / "agent.json").write_text(json.dumps(tampered), encoding="utf-8")
    # the hook's entry (.pre-commit-hooks.yaml), then its args, then the files pre-commit passes
    entry = [str(Path(sys.executable).with_name("th-ext")), "validate"]
    run = subprocess.run(
        [*entry, "--keys", "jwks.json", "agent-card.json", "agent.json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 1, run.stderr
    assert "note signature-verified at /signatures/0" in run.stdout
    assert "error signature-invalid at /signatures/0" in run.stdout
