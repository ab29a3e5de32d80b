"""An RSA key larger than any signer uses is refused before any arithmetic on its numbers,
whether it comes as a JWK (``--keys``, ``sign --key``) or as a PEM file."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from typer.testing import CliRunner

from tests.unit.signatures.conftest import agreeing_card, key
from th_ext.cli import app
from th_ext.signatures import (
    MAX_RSA_BITS,
    KeysError,
    KeySet,
    SignatureOptions,
    check_signatures,
    sign_card,
)

TOO_LARGE = f"an RSA key of more than {MAX_RSA_BITS:,} bits"


def b64(number: int) -> str:
    data = number.to_bytes((number.bit_length() + 7) // 8, "big")
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def ones(bits: int) -> int:
    """An odd number of exactly ``bits`` bits."""
    return (1 << bits) - 1


def rsa_jwk(bits: int, **members: int) -> dict[str, Any]:
    return {"kty": "RSA", "kid": "big", "n": b64(ones(bits)), "e": "AQAB"} | {
        name: b64(value) for name, value in members.items()
    }


def der_integer(value: int) -> bytes:
    body = value.to_bytes(value.bit_length() // 8 + 1, "big")
    return b"\x02" + der_length(len(body)) + body


def der_length(size: int) -> bytes:
    if size < 128:
        return bytes([size])
    data = size.to_bytes((size.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(data)]) + data


def pkcs1_private_pem(bits: int) -> bytes:
    """A PKCS #1 RSA private key whose modulus has ``bits`` bits: the numbers are not a key's,
    which only the full check (arithmetic on each of them) would find."""
    n, p = ones(bits), ones(bits // 2)
    numbers = (0, n, 65537, n - 2, p, p - 2, p - 4, p - 6, p - 8)
    body = b"".join(der_integer(value) for value in numbers)
    der = b"\x30" + der_length(len(body)) + body
    encoded = base64.encodebytes(der)
    return b"-----BEGIN RSA PRIVATE KEY-----\n" + encoded + b"-----END RSA PRIVATE KEY-----\n"


def card_bytes() -> bytes:
    return json.dumps(agreeing_card()).encode()


def test_a_private_jwk_given_by_d_alone_beyond_the_bound_is_refused_at_once() -> None:
    # Its primes would be recovered from n, e and d: seconds at the bound, and no end on a
    # number of megabytes. Beyond the bound, the key is refused by its length alone.
    jwk = rsa_jwk(MAX_RSA_BITS + 8, d=ones(1_000))
    with pytest.raises(KeysError) as raised:
        sign_card(card_bytes(), json.dumps(jwk).encode(), kid="big")
    assert TOO_LARGE in str(raised.value)
    assert "'n' holds 16,392 bits" in str(raised.value)


@pytest.mark.parametrize("member", ["d", "p", "q", "dp", "dq", "qi"])
def test_every_private_member_is_bounded(member: str) -> None:
    jwk = rsa_jwk(2048, **{"d": ones(2040), member: ones(MAX_RSA_BITS + 8)})
    with pytest.raises(KeysError, match=f"'{member}' holds"):
        sign_card(card_bytes(), json.dumps(jwk).encode(), kid="big")


def test_a_pem_private_key_beyond_the_bound_is_refused_by_its_size() -> None:
    with pytest.raises(KeysError) as raised:
        sign_card(card_bytes(), pkcs1_private_pem(MAX_RSA_BITS * 2), kid="big", key_name="--key")
    assert str(raised.value) == f"--key: {TOO_LARGE} (32,768 bits), which no signer uses"


def test_a_pem_private_key_within_the_bound_is_still_checked_in_full() -> None:
    with pytest.raises(KeysError, match="not a usable PEM private key"):
        sign_card(card_bytes(), pkcs1_private_pem(4096), kid="big", key_name="--key")


def test_a_real_rsa_key_signs() -> None:
    signed = sign_card(card_bytes(), key("RS256", "rsa").pem, kid="rsa")
    assert signed.alg == "RS256"


def test_a_verifying_key_beyond_the_bound_is_named_not_usable() -> None:
    card = json.loads(sign_card(card_bytes(), key("RS256", "rsa").pem, kid="rsa").data)
    big = rsa_jwk(MAX_RSA_BITS + 8) | {"kid": "rsa"}
    options = SignatureOptions(keys=(KeySet("jwks.json", (big,)),))
    [problem] = check_signatures(card, options)
    assert problem.code == "signature-invalid"
    assert f"the key from jwks.json is not usable ({TOO_LARGE}" in problem.message


def test_a_verifying_key_at_the_bound_is_used() -> None:
    card = json.loads(sign_card(card_bytes(), key("RS256", "rsa").pem, kid="rsa").data)
    at = rsa_jwk(MAX_RSA_BITS) | {"kid": "rsa"}
    options = SignatureOptions(keys=(KeySet("jwks.json", (at,)),))
    [problem] = check_signatures(card, options)
    assert problem.code == "signature-invalid"
    assert "not usable" not in problem.message  # tried: it is not the key that signed


def test_a_public_pem_beyond_the_bound_is_refused_by_keys_jwks(tmp_path: Path) -> None:
    public = rsa.RSAPublicNumbers(65537, ones(MAX_RSA_BITS + 8)).public_key()
    path = tmp_path / "big.pub.pem"
    path.write_bytes(
        public.public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
    )
    outcome = CliRunner().invoke(app, ["keys", "jwks", "--kid", "big", str(path)])
    assert outcome.exit_code == 2
    assert outcome.stdout == ""
    assert (
        outcome.stderr
        == f"th-ext: error: {path}: {TOO_LARGE} (16,392 bits), which no signer uses\n"
    )


def test_sign_reads_its_key_as_a_key_file_is_read(tmp_path: Path) -> None:
    card = tmp_path / "card.json"
    card.write_bytes(card_bytes())
    big = tmp_path / "key.pem"
    big.write_bytes(key().pem + b"\n" * (64 * 1024))
    outcome = CliRunner().invoke(app, ["sign", str(card), "--key", str(big), "--kid", "k"])
    assert outcome.exit_code == 2
    assert (
        outcome.stderr == f"th-ext: error: --key {big}: larger than 65536 bytes, which no key is\n"
    )
