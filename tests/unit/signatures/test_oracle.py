"""The official SDK as the oracle: its signer and verifier against th-ext's, both ways.

Where the two canonical forms agree, each side accepts the other's signature. Where they
differ (an empty value inside ``params``), each side fails as th-ext's verdicts say.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.support.signing import sdk_sign, sdk_verifies
from tests.unit.signatures.conftest import agreeing_card, example_card, key
from th_ext.signatures import KeySet, SignatureOptions, check_signatures, sign_card

ORACLE_ALGORITHMS = ("ES256", "ES384", "ES512", "RS256", "PS256", "EdDSA")


def th_ext_codes(card: dict[str, Any], alg: str) -> list[str]:
    k = key(alg, f"k-{alg}")
    options = SignatureOptions(keys=(KeySet("jwks.json", (k.public_jwk,)),))
    return [p.code for p in check_signatures(card, options)]


def th_ext_sign(card: dict[str, Any], alg: str) -> dict[str, Any]:
    k = key(alg, f"k-{alg}")
    value: dict[str, Any] = json.loads(
        sign_card(json.dumps(card).encode(), k.pem, kid=k.kid, alg=alg).data
    )
    return value


@pytest.mark.parametrize("alg", ORACLE_ALGORITHMS)
def test_where_the_forms_agree_th_ext_verifies_what_the_sdk_signs(alg: str) -> None:
    card = sdk_sign(agreeing_card(), key(alg, f"k-{alg}"))
    assert th_ext_codes(card, alg) == ["signature-verified"]


@pytest.mark.parametrize("alg", ORACLE_ALGORITHMS)
def test_where_the_forms_agree_the_sdk_verifies_what_th_ext_signs(alg: str) -> None:
    assert sdk_verifies(th_ext_sign(agreeing_card(), alg), key(alg, f"k-{alg}"))


def test_the_sdk_rejects_a_tampered_card_as_th_ext_does() -> None:
    card = th_ext_sign(agreeing_card(), "ES256")
    card["version"] = "9.9.9"
    assert not sdk_verifies(card, key("ES256", "k-ES256"))
    assert th_ext_codes(card, "ES256") == ["signature-invalid"]


def test_where_the_forms_differ_the_sdk_signature_verifies_only_over_the_sdk_form() -> None:
    card = sdk_sign(example_card(), key("ES256", "k-ES256"))
    assert sdk_verifies(card, key("ES256", "k-ES256"))
    assert th_ext_codes(card, "ES256") == ["signature-sdk-form"]


def test_where_the_forms_differ_the_sdk_rejects_a_spec_signature_as_th_ext_warns() -> None:
    card = th_ext_sign(example_card(), "ES256")
    assert not sdk_verifies(card, key("ES256", "k-ES256"))
    assert th_ext_codes(card, "ES256") == ["signature-verified", "signature-sdk-rejects"]


def test_an_unknown_member_is_where_the_forms_differ_too() -> None:
    card = {**agreeing_card(), "x-note": "kept by section 8.4.1's form"}
    signed_by_sdk = sdk_sign(card, key("ES256", "k-ES256"))
    assert th_ext_codes(signed_by_sdk, "ES256") == ["signature-sdk-form"]
    assert not sdk_verifies(th_ext_sign(card, "ES256"), key("ES256", "k-ES256"))
