"""``sign_card``: the signature appended, every other byte kept, the key's own algorithm; a
card whose signed value would be ambiguous, and a ``jku`` that is not an http(s) URL, refused."""

from __future__ import annotations

import base64
import json
import re

import pytest

from tests.support.signing import make_key
from tests.unit.signatures.conftest import EXAMPLE, key
from th_ext.signatures import MAX_JKU, KeysError, UnsignableCardError, sign_card


def header_of(data: bytes, index: int = -1) -> dict[str, str]:
    protected = json.loads(data)["signatures"][index]["protected"]
    value: dict[str, str] = json.loads(base64.urlsafe_b64decode(protected + "=="))
    return value


def test_every_byte_outside_the_new_signature_is_kept() -> None:
    original = EXAMPLE.read_bytes()
    out = sign_card(original, key().pem, kid="key-1").data
    entry = json.dumps(json.loads(out)["signatures"][0])
    assert out.replace(b',\n  "signatures": [' + entry.encode() + b"]", b"") == original


def test_a_signature_is_appended_to_an_existing_array() -> None:
    text = b'{"name": "n",\n "signatures": [ {"protected": "a", "signature": "b"} ] , "x": 1}\n'
    out = sign_card(text, key().pem, kid="key-1").data
    entry = json.dumps(json.loads(out)["signatures"][1]).encode()
    assert out == text.replace(b"} ]", b"}, " + entry + b" ]")


def test_an_empty_object_gets_the_array() -> None:
    out = sign_card(b"{}", key().pem, kid="key-1").data
    assert out.startswith(b'{"signatures": [')
    assert len(json.loads(out)["signatures"]) == 1


def test_a_crlf_card_gets_the_array_on_a_crlf_line() -> None:
    text = b'{\r\n  "name": "n"\r\n}\r\n'
    out = sign_card(text, key().pem, kid="key-1").data
    entry = json.dumps(json.loads(out)["signatures"][0]).encode()
    assert out == text.replace(b'"n"\r\n', b'"n",\r\n  "signatures": [' + entry + b"]\r\n")


def test_a_byte_order_mark_is_refused() -> None:
    with pytest.raises(UnsignableCardError, match="byte-order mark"):
        sign_card(b"\xef\xbb\xbf{}", key().pem, kid="key-1")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (b'{"name": "a", "name": "b"}', "repeats the member 'name'"),
        (b'{"skills": [{"id": "x", "id": "y"}]}', "repeats the member 'id'"),
        (b'{"signatures": [], "signatures": []}', "repeats the member 'signatures'"),
        (b'{"signatures": null}', '"signatures" is null, not an array'),
        (b'{"signatures": "x"}', '"signatures" is a string, not an array'),
        (b'{"signatures": {}}', '"signatures" is an object, not an array'),
        (b'{"signatures": 1}', '"signatures" is a number, not an array'),
        (b'{"signatures": false}', '"signatures" is false, not an array'),
    ],
)
def test_an_ambiguous_card_is_refused(text: bytes, words: str) -> None:
    with pytest.raises(UnsignableCardError, match=words):
        sign_card(text, key().pem, kid="key-1")


@pytest.mark.parametrize(
    ("jku", "words"),
    [
        ("", "--jku is empty"),
        ("not a url", "not an http(s) URL"),
        ("file:///etc/passwd", "not an http(s) URL"),
        ("ftp://a.example/jwks.json", "not an http(s) URL"),
        ("/jwks.json", "not an http(s) URL"),
        ("https:///jwks.json", "names no host"),
        ("https://a.example:99999/", "the port is not a number"),
        ("https://a.example/\x07", "U+0007"),
        ("https://a.example/a b", "U+0020"),
    ],
)
def test_a_jku_that_is_not_an_http_url_with_a_host_is_refused(jku: str, words: str) -> None:
    with pytest.raises(KeysError, match=re.escape(words)):
        sign_card(b"{}", key().pem, kid="key-1", jku=jku)


def jku_of_length(length: int, filler: str = "j") -> str:
    base = "https://a.example/"
    return base + filler * (length - len(base))


def test_a_jku_at_the_limit_goes_in_the_header() -> None:
    jku = jku_of_length(MAX_JKU)
    out = sign_card(b"{}", key().pem, kid="key-1", jku=jku).data
    assert header_of(out)["jku"] == jku


def test_a_jku_over_the_limit_is_refused() -> None:
    with pytest.raises(KeysError, match=f"^--jku is 2,049 characters long, more than {MAX_JKU:,}"):
        sign_card(b"{}", key().pem, kid="key-1", jku=jku_of_length(MAX_JKU + 1))


def test_a_header_too_large_for_validate_is_refused() -> None:
    """Each é of the jku is six bytes in the header's JSON (\\u00e9): under MAX_JKU
    characters, over the 8 KB validate reads."""
    with pytest.raises(KeysError, match=r"^--kid and --jku make a protected header of 12,"):
        sign_card(b"{}", key().pem, kid="key-1", jku=jku_of_length(MAX_JKU, "\u00e9"))


def test_the_protected_header_is_the_specifications() -> None:
    out = sign_card(b"{}", key().pem, kid="key-1", jku="https://a.example/jwks.json").data
    assert list(header_of(out).items()) == [
        ("alg", "ES256"),
        ("typ", "JOSE"),
        ("kid", "key-1"),
        ("jku", "https://a.example/jwks.json"),
    ]


@pytest.mark.parametrize(
    ("alg", "expected"),
    [
        ("ES256", "ES256"),
        ("ES384", "ES384"),
        ("ES512", "ES512"),
        ("RS256", "RS256"),
        ("EdDSA", "EdDSA"),
    ],
)
def test_the_default_alg_is_the_keys_own(alg: str, expected: str) -> None:
    assert sign_card(b"{}", make_key(alg).pem, kid="k").alg == expected


def test_a_jwk_private_key_signs_with_its_alg() -> None:
    jwk = {**key("RS256", "r").private_jwk(), "alg": "PS256"}
    out = sign_card(b"{}", json.dumps(jwk).encode(), kid="r")
    assert out.alg == "PS256"


@pytest.mark.parametrize(
    ("key_text", "alg", "words"),
    [
        (b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", None, "PEM"),
        (b"not a key", None, "neither a PEM private key nor a JWK"),
        (b'{"kty": "oct", "k": "c2VjcmV0"}', None, "not an EC, RSA or OKP private key"),
        (None, "HS256", "th-ext signs with"),
        (None, "RS256", "does not fit the key"),
    ],
)
def test_a_key_that_cannot_sign_is_one_line(
    key_text: bytes | None, alg: str | None, words: str
) -> None:
    with pytest.raises(KeysError, match=words):
        sign_card(b"{}", key_text or key().pem, kid="k", alg=alg)


def test_signing_says_why_the_sdk_will_reject_the_signature() -> None:
    signed = sign_card(EXAMPLE.read_bytes(), key().pem, kid="key-1")
    assert "a2a-sdk 1.3's verifier will reject this signature" in signed.sdk_rejects
    assert "/capabilities/extensions/0/params/commands/1/argument_hint" in signed.sdk_rejects
    assert sign_card(b'{"name": "n"}', key().pem, kid="key-1").sdk_rejects == ""
