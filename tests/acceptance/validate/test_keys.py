"""``th-ext keys new`` and ``th-ext keys jwks``, end to end: key, JWKS, sign, verify.

Every key is made by the command under test; each JWKS is read back by PyJWT and by
``th-ext validate --keys``. Bad input is one line on standard error and exit code 2.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from jwt import PyJWK, PyJWKSet
from typer.testing import CliRunner

from tests.acceptance.validate.conftest import good_card, run_validate
from th_ext.cli._options import KEY_ALGORITHMS, PASSWORD_VARIABLE
from th_ext.signatures import ALGORITHMS
from th_ext.signatures import PASSWORD_VARIABLE as LIBRARY_PASSWORD_VARIABLE

PRIVATE_MEMBERS = {"d", "p", "q", "dp", "dq", "qi", "oth", "k"}


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    from th_ext.cli import app

    outcome = CliRunner(env={"NO_COLOR": "1", **(env or {})}).invoke(
        app, list(args), catch_exceptions=False
    )
    return outcome.exit_code, outcome.stdout, outcome.stderr


def new_key(folder: Path, alg: str, name: str = "key.pem") -> Path:
    path = folder / name
    code, stdout, stderr = run("keys", "new", "--alg", alg, "-o", str(path))
    assert code == 0, stderr
    assert f"wrote {path}: a new {alg} private key" in stdout
    return path


def one_line_error(outcome: tuple[int, str, str], words: str) -> None:
    code, stdout, stderr = outcome
    assert code == 2
    assert stdout == ""
    assert stderr.count("\n") == 1, stderr
    assert stderr.startswith("th-ext: error: ")
    assert words in stderr, stderr


def test_the_cli_lists_the_algorithms_the_library_signs_with() -> None:
    assert KEY_ALGORITHMS == ALGORITHMS
    assert PASSWORD_VARIABLE == LIBRARY_PASSWORD_VARIABLE


@pytest.mark.parametrize("alg", ALGORITHMS)
def test_a_new_key_for_every_algorithm_signs_a_card_its_jwks_verifies(
    tmp_path: Path, alg: str
) -> None:
    key = new_key(tmp_path, alg)
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    private = serialization.load_pem_private_key(key.read_bytes(), password=None)
    expected = {"ES": ec.EllipticCurvePrivateKey, "RS": rsa.RSAPrivateKey, "PS": rsa.RSAPrivateKey}
    assert isinstance(private, expected.get(alg[:2], ed25519.Ed25519PrivateKey))

    code, jwks_text, stderr = run("keys", "jwks", str(key), "--kid", f"k-{alg}", "--alg", alg)
    assert code == 0, stderr
    document = json.loads(jwks_text)
    (jwk,) = document["keys"]
    assert jwk["kid"] == f"k-{alg}" and jwk["alg"] == alg and jwk["use"] == "sig"
    assert not PRIVATE_MEMBERS & set(jwk)
    assert PyJWKSet.from_dict(document)[f"k-{alg}"].algorithm_name == alg

    card = tmp_path / "card.json"
    card.write_text(json.dumps(good_card()), encoding="utf-8")
    (tmp_path / "jwks.json").write_text(jwks_text, encoding="utf-8")
    signed = tmp_path / "signed.json"
    code, _, stderr = run(
        "sign", str(card), "--key", str(key), "--kid", f"k-{alg}", "--alg", alg, "-o", str(signed)
    )
    assert code == 0, stderr
    report = run_validate(
        str(signed), "--keys", str(tmp_path / "jwks.json"), "--require-signature"
    ).stdout
    assert f"signature 0 verified: kid 'k-{alg}', {alg}" in report
    assert "signature-unverified" not in report


@pytest.mark.parametrize(
    ("alg", "said"), [("PS512", True), ("RS384", True), ("RS256", False), ("ES384", False)]
)
def test_a_new_key_whose_alg_a_pem_cannot_record_says_to_give_it_again(
    tmp_path: Path, alg: str, said: bool
) -> None:
    code, stdout, stderr = run("keys", "new", "--alg", alg, "-o", str(tmp_path / "key.pem"))
    assert code == 0, stderr
    hint = f"give --alg {alg} to keys jwks and sign too"
    assert (hint in stdout) is said
    assert stdout.count("\n") == (2 if said else 1)


def test_a_new_key_is_made_readable_by_its_owner_alone_whatever_the_umask(
    tmp_path: Path,
) -> None:
    import os

    before = os.umask(0)
    try:
        key = new_key(tmp_path, "ES256")
    finally:
        os.umask(before)
    assert stat.S_IMODE(key.stat().st_mode) == 0o600


def test_an_existing_file_is_never_overwritten(tmp_path: Path) -> None:
    existing = tmp_path / "key.pem"
    existing.write_bytes(b"the only copy of an older key")
    one_line_error(
        run("keys", "new", "--alg", "EdDSA", "-o", str(existing)), "never overwrites a key"
    )
    assert existing.read_bytes() == b"the only copy of an older key"


def test_a_key_into_a_missing_folder_is_one_line(tmp_path: Path) -> None:
    one_line_error(
        run("keys", "new", "-o", str(tmp_path / "missing" / "key.pem")), "does not exist"
    )
    assert not (tmp_path / "missing").exists()


def test_a_jwks_into_a_missing_folder_is_one_line(tmp_path: Path) -> None:
    key = new_key(tmp_path, "ES256")
    target = tmp_path / "missing" / "jwks.json"
    one_line_error(run("keys", "jwks", str(key), "--kid", "k", "-o", str(target)), "does not exist")


def test_an_unknown_algorithm_is_one_line(tmp_path: Path) -> None:
    one_line_error(
        run("keys", "new", "--alg", "HS256", "-o", str(tmp_path / "k.pem")),
        "th-ext makes keys for ES256",
    )
    assert not (tmp_path / "k.pem").exists()


def test_the_jwks_of_a_public_pem_and_of_several_keys(tmp_path: Path) -> None:
    first = new_key(tmp_path, "ES384", "one.pem")
    second = new_key(tmp_path, "EdDSA", "two.pem")
    private = serialization.load_pem_private_key(second.read_bytes(), password=None)
    public = tmp_path / "two-public.pem"
    public.write_bytes(
        private.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
    )
    code, from_private, _ = run("keys", "jwks", str(first), str(second), "--kid", "a", "--kid", "b")
    assert code == 0
    keys = json.loads(from_private)["keys"]
    assert [(k["kid"], k["alg"], k["kty"], k["crv"]) for k in keys] == [
        ("a", "ES384", "EC", "P-384"),
        ("b", "EdDSA", "OKP", "Ed25519"),
    ]
    code, from_public, _ = run("keys", "jwks", str(first), str(public), "--kid", "a", "--kid", "b")
    assert code == 0
    assert from_public == from_private


def test_jwks_written_to_a_file_says_what_it_holds(tmp_path: Path) -> None:
    key = new_key(tmp_path, "PS256")
    target = tmp_path / "jwks.json"
    code, stdout, _ = run(
        "keys", "jwks", str(key), "--kid", "k", "--alg", "PS256", "-o", str(target)
    )
    assert code == 0
    assert stdout == f"wrote {target}: a JWKS of 1 public key ('k' PS256)\n"
    assert PyJWK(json.loads(target.read_text())["keys"][0]).algorithm_name == "PS256"


def encrypted_key(tmp_path: Path) -> Path:
    private = ec.generate_private_key(ec.SECP256R1())
    path = tmp_path / "encrypted.pem"
    path.write_bytes(
        private.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.BestAvailableEncryption(b"s3cret"),
        )
    )
    return path


def test_an_encrypted_key_without_its_password_says_how_to_give_one(tmp_path: Path) -> None:
    key = encrypted_key(tmp_path)
    card = tmp_path / "card.json"
    card.write_text(json.dumps(good_card()), encoding="utf-8")
    for command in (
        ("keys", "jwks", str(key), "--kid", "k"),
        ("sign", str(card), "--key", str(key), "--kid", "k"),
    ):
        one_line_error(run(*command), "--password-file FILE or the TH_EXT_KEY_PASSWORD")


def test_an_encrypted_key_with_its_password_from_a_file_or_the_environment(
    tmp_path: Path,
) -> None:
    key = encrypted_key(tmp_path)
    (tmp_path / "password").write_text("s3cret\n", encoding="utf-8")
    code, by_file, _ = run(
        "keys", "jwks", str(key), "--kid", "k", "--password-file", str(tmp_path / "password")
    )
    assert code == 0
    code, by_env, _ = run("keys", "jwks", str(key), "--kid", "k", env={PASSWORD_VARIABLE: "s3cret"})
    assert code == 0
    assert by_file == by_env
    card = tmp_path / "card.json"
    card.write_text(json.dumps(good_card()), encoding="utf-8")
    code, _, stderr = run(
        "sign",
        str(card),
        "--key",
        str(key),
        "--kid",
        "k",
        "--password-file",
        str(tmp_path / "password"),
        "-o",
        str(tmp_path / "signed.json"),
    )
    assert code == 0, stderr


def test_a_wrong_password_is_one_line(tmp_path: Path) -> None:
    key = encrypted_key(tmp_path)
    one_line_error(
        run("keys", "jwks", str(key), "--kid", "k", env={PASSWORD_VARIABLE: "wrong"}),
        "the password does not decrypt the PEM key",
    )


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"not a key at all\n", "not a key (neither a PEM key nor a JWK)"),
        (b'{"kty": "oct", "k": "c2VjcmV0"}', "the JWK is not an EC, RSA or OKP key"),
        (b'{"name": "an agent card"}', "not a key (neither a PEM key nor a JWK: JSON with no kty)"),
        (
            b"-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n",
            "not a usable PEM private key",
        ),
        (
            b"-----BEGIN PUBLIC KEY-----\nbm90IGEga2V5\n-----END PUBLIC KEY-----\n",
            "not a usable PEM public key",
        ),
    ],
)
def test_a_file_that_is_not_a_key_is_one_line(tmp_path: Path, content: bytes, words: str) -> None:
    key = tmp_path / "key.pem"
    key.write_bytes(content)
    one_line_error(run("keys", "jwks", str(key), "--kid", "k"), words)
    card = tmp_path / "card.json"
    card.write_text(json.dumps(good_card()), encoding="utf-8")
    signed = run("sign", str(card), "--key", str(key), "--kid", "k")
    one_line_error(signed, f"th-ext: error: --key {key}: ")  # the file named, as jwks names it


@pytest.mark.parametrize(
    ("made", "alg", "needs"),
    [
        ("ES256", "RS256", "RS256 needs an RSA key"),
        ("RS256", "ES384", "EC P-384"),
        ("ES256", "ES512", "ES512 needs an EC P-521 key"),
        ("EdDSA", "PS256", "needs an RSA key"),
    ],
)
def test_a_key_whose_type_does_not_fit_the_alg_is_one_line(
    tmp_path: Path, made: str, alg: str, needs: str
) -> None:
    key = new_key(tmp_path, made)
    one_line_error(run("keys", "jwks", str(key), "--kid", "k", "--alg", alg), needs)
    card = tmp_path / "card.json"
    card.write_text(json.dumps(good_card()), encoding="utf-8")
    one_line_error(run("sign", str(card), "--key", str(key), "--kid", "k", "--alg", alg), needs)


@pytest.mark.parametrize("kid", ["a\x01b", "key\n1", "\x1b[31mred", "k\u202eevil", ""])
def test_a_kid_with_control_characters_is_one_line(tmp_path: Path, kid: str) -> None:
    key = new_key(tmp_path, "ES256")
    words = "--kid is empty" if not kid else "--kid holds the control character"
    one_line_error(run("keys", "jwks", str(key), "--kid", kid), words)
    card = tmp_path / "card.json"
    card.write_text(json.dumps(good_card()), encoding="utf-8")
    one_line_error(run("sign", str(card), "--key", str(key), "--kid", kid), words)


def test_one_kid_per_key_and_no_kid_twice(tmp_path: Path) -> None:
    first = new_key(tmp_path, "ES256", "one.pem")
    second = new_key(tmp_path, "ES256", "two.pem")
    one_line_error(
        run("keys", "jwks", str(first), str(second), "--kid", "k"), "give one --kid per key"
    )
    one_line_error(
        run("keys", "jwks", str(first), str(second), "--kid", "k", "--kid", "k"),
        "is given to two keys",
    )


def test_validate_given_a_pem_as_keys_names_the_command_that_makes_a_jwks(
    tmp_path: Path,
) -> None:
    key = new_key(tmp_path, "ES256")
    card = tmp_path / "card.json"
    card.write_text(json.dumps(good_card()), encoding="utf-8")
    done = run_validate(str(card), "--keys", str(key))
    assert done.code == 2
    assert done.stderr.count("\n") == 1
    assert "wants a JWKS" in done.stderr
    assert f"th-ext keys jwks {key} --kid KID" in done.stderr
