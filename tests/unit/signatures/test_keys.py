"""``th_ext.signatures``' keys: new keys, public JWKs and JWKS documents, passwords, key files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from jwt import PyJWK

from th_ext.signatures import (
    ALGORITHMS,
    MAX_KID,
    NEW_KEY_TYPES,
    PASSWORD_VARIABLE,
    KeysError,
    check_kid,
    jwks,
    key_password,
    new_key,
    public_jwk,
    read_key_file,
    write_new_key,
)


def test_every_algorithm_th_ext_signs_with_has_a_new_key() -> None:
    assert set(NEW_KEY_TYPES) == set(ALGORITHMS)


@pytest.mark.parametrize("alg", ["ES256", "ES512", "PS384", "EdDSA"])
def test_a_new_key_gives_a_public_jwk_pyjwt_reads_for_its_algorithm(alg: str) -> None:
    jwk = public_jwk(new_key(alg), kid="k", alg=alg)
    assert list(jwk)[-3:] == ["kid", "alg", "use"]
    assert "d" not in jwk
    assert PyJWK(jwk).algorithm_name == alg


def test_a_public_jwk_is_read_as_a_private_one_is() -> None:
    private = new_key("ES384")
    public = public_jwk(private, kid="k")
    assert public_jwk(json.dumps(public).encode(), kid="k") == public
    assert public_jwk(private, kid="other")["kid"] == "other"


def test_two_keys_with_one_kid_are_refused() -> None:
    one = public_jwk(new_key("EdDSA"), kid="same")
    two = public_jwk(new_key("EdDSA"), kid="same")
    with pytest.raises(KeysError, match="given to two keys"):
        jwks([one, two])
    document = json.loads(jwks([one, {**two, "kid": "other"}]))
    assert [k["kid"] for k in document["keys"]] == ["same", "other"]


@pytest.mark.parametrize(
    ("kid", "words"),
    [
        ("", "--kid is empty"),
        ("a\tb", "U+0009"),
        ("a\u0085b", "U+0085"),
        ("a\u200bb", "U+200B"),
        ("a\u2028b", "U+2028"),
        ("k" * (MAX_KID + 1), f"more than {MAX_KID}"),
    ],
)
def test_a_kid_that_is_not_printable_text_is_refused(kid: str, words: str) -> None:
    with pytest.raises(KeysError, match=re.escape(words)):
        check_kid(kid)


def test_a_printable_kid_is_kept_as_it_is() -> None:
    assert check_kid("2026-12 rotation, ключ 1") == "2026-12 rotation, ключ 1"
    assert check_kid("k" * MAX_KID) == "k" * MAX_KID


def test_the_password_comes_from_the_file_first_then_the_environment(tmp_path: Path) -> None:
    (tmp_path / "pw").write_bytes(b"from-file\nsecond line\n")
    environ = {PASSWORD_VARIABLE: "from-env"}
    assert key_password(tmp_path / "pw", environ) == b"from-file"
    assert key_password(None, environ) == b"from-env"
    assert key_password(None, {}) is None
    (tmp_path / "empty").write_bytes(b"")
    with pytest.raises(KeysError, match="the file is empty"):
        key_password(tmp_path / "empty", environ)
    with pytest.raises(KeysError, match="no such file"):
        key_password(tmp_path / "missing", environ)


def test_a_key_file_larger_than_any_key_is_refused(tmp_path: Path) -> None:
    (tmp_path / "big.pem").write_bytes(b"x" * (64 * 1024 + 1))
    with pytest.raises(KeysError, match="larger than 65536 bytes"):
        read_key_file(tmp_path / "big.pem")
    (tmp_path / "key.pem").write_bytes(new_key("ES256"))
    assert read_key_file(tmp_path / "key.pem").startswith(b"-----BEGIN PRIVATE KEY-----")


def test_a_new_key_never_replaces_a_file(tmp_path: Path) -> None:
    target = tmp_path / "key.pem"
    write_new_key(target, "ES256")
    first = target.read_bytes()
    with pytest.raises(KeysError, match="never overwrites"):
        write_new_key(target, "ES256")
    assert target.read_bytes() == first
