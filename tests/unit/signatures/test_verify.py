"""Each verdict of ``check_signatures``, and each check made to fail on input that breaks it."""

from __future__ import annotations

import base64
import json
import re
import subprocess
import sys
from typing import Any

import pytest

from tests.support.signing import SigningKey, sdk_sign
from tests.unit.signatures.conftest import agreeing_card, example_card, key
from th_ext.signatures import (
    ALGORITHMS,
    MAX_KEYS,
    MAX_SIGNATURES,
    KeysError,
    KeySet,
    SignatureOptions,
    check_signatures,
    parse_jwks,
    sign_card,
)


def signed(card: dict[str, Any], k: SigningKey, **kwargs: Any) -> dict[str, Any]:
    value: dict[str, Any] = json.loads(
        sign_card(json.dumps(card).encode(), k.pem, kid=k.kid, alg=k.alg, **kwargs).data
    )
    return value


def trusting(*keys: SigningKey, **kwargs: Any) -> SignatureOptions:
    return SignatureOptions(
        keys=(KeySet("jwks.json", tuple(k.public_jwk for k in keys)),), **kwargs
    )


def codes(card: dict[str, Any], options: SignatureOptions) -> list[tuple[str, str, str]]:
    return [(p.code, p.severity, p.path) for p in check_signatures(card, options)]


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def with_header(header: bytes | str, k: SigningKey | None = None) -> dict[str, Any]:
    card = signed(agreeing_card(), k or key())
    raw = header.encode() if isinstance(header, str) else header
    card["signatures"][0]["protected"] = b64(raw)
    return card


@pytest.mark.parametrize("alg", ALGORITHMS)
def test_a_card_signed_with_each_algorithm_verifies(alg: str) -> None:
    k = key(alg, f"k-{alg}")
    problems = check_signatures(signed(agreeing_card(), k), trusting(k))
    assert [(p.code, p.severity) for p in problems] == [("signature-verified", "info")]
    assert f"kid 'k-{alg}', {alg}, key from jwks.json" in problems[0].message


def test_a_card_changed_after_signing_is_invalid() -> None:
    card = signed(agreeing_card(), key())
    card["name"] = "Someone else"
    assert codes(card, trusting(key())) == [("signature-invalid", "error", "/signatures/0")]


def test_no_key_for_the_kid_leaves_the_signature_unverified() -> None:
    other = key("ES256", "other")
    assert codes(signed(agreeing_card(), key()), trusting(other)) == [
        ("signature-unverified", "warning", "/signatures/0")
    ]


def test_a_jku_without_fetch_keys_is_not_contacted_and_named() -> None:
    card = signed(agreeing_card(), key(), jku="https://keys.example/jwks.json")
    (problem,) = check_signatures(card, trusting(key("ES256", "other")))
    assert problem.code == "signature-unverified"
    assert "jku https://keys.example/jwks.json not contacted" in problem.message


def test_a_jku_on_another_origin_is_not_contacted() -> None:
    card = signed(agreeing_card(), key(), jku="https://elsewhere.example/jwks.json")
    options = SignatureOptions(
        fetch_keys=True, card_url="https://agent.example/.well-known/agent-card.json"
    )
    (problem,) = check_signatures(card, options)
    assert "not on the card's origin" in problem.message


def test_a_jku_over_plain_http_off_loopback_is_not_contacted() -> None:
    card = signed(agreeing_card(), key(), jku="http://agent.example/jwks.json")
    options = SignatureOptions(fetch_keys=True, card_url="http://agent.example/card.json")
    (problem,) = check_signatures(card, options)
    assert "http is allowed only on a loopback address" in problem.message


def test_a_card_read_from_a_file_gets_no_jku() -> None:
    card = signed(agreeing_card(), key(), jku="http://127.0.0.1:9/jwks.json")
    (problem,) = check_signatures(card, SignatureOptions(fetch_keys=True))
    assert "the card was not read from a URL" in problem.message


@pytest.mark.parametrize(
    ("header", "words"),
    [
        (b"not json", "not JSON"),
        (b"[1]", "not a JSON object"),
        (b'{"kid":"key-1"}', "no 'alg'"),
        (b'{"alg":"ES256"}', "no 'kid'"),
        (b'{"alg":"ES256","kid":"key-1","kid":"key-2"}', "repeats 'kid'"),
        (b'{"alg":"ES256","kid":"key-1","x":' + b"[" * 50 + b"]" * 50 + b"}", "nested deeper"),
        (b"\xff\xfe", "not UTF-8"),
        (b'{"alg":"ES256","kid":"k","x":"' + b"a" * 9000 + b'"}', "over 8192 bytes"),
    ],
)
def test_a_bad_protected_header_is_a_header_error(header: bytes, words: str) -> None:
    (problem,) = check_signatures(with_header(header), trusting(key()))
    assert (problem.code, problem.severity, problem.path) == (
        "signature-header",
        "error",
        "/signatures/0/protected",
    )
    assert words in problem.message


def test_protected_that_is_not_base64url_is_a_header_error() -> None:
    card = signed(agreeing_card(), key())
    card["signatures"][0]["protected"] = "eyJ+/=="
    assert codes(card, trusting(key()))[0][0] == "signature-header"


@pytest.mark.parametrize(
    ("entry", "path"),
    [
        ("a string", "/signatures/0"),
        ({"protected": "eyJ9"}, "/signatures/0"),
        ({"protected": "eyJ9", "signature": "***"}, "/signatures/0/signature"),
    ],
)
def test_a_malformed_signature_entry_is_a_header_error(entry: Any, path: str) -> None:
    card = {**agreeing_card(), "signatures": [entry]}
    assert codes(card, trusting(key())) == [("signature-header", "error", path)]


def test_a_member_in_both_headers_is_a_header_error() -> None:
    card = signed(agreeing_card(), key())
    card["signatures"][0]["header"] = {"kid": "key-1"}
    assert codes(card, trusting(key())) == [("signature-header", "error", "/signatures/0/header")]


@pytest.mark.parametrize(
    ("header", "words"),
    [
        ('{"alg":"none","kid":"key-1"}', "alg none"),
        ('{"alg":"HS256","kid":"key-1"}', "HMAC"),
        ('{"alg":"ES256K","kid":"key-1"}', "not one th-ext verifies"),
        ('{"alg":"ES256","kid":"key-1","crit":["exp"],"exp":1}', "crit names 'exp'"),
        ('{"alg":"RS256","kid":"key-1"}', "does not fit the key"),
        ('{"alg":"ES384","kid":"key-1"}', "does not fit the key"),
    ],
)
def test_a_refused_algorithm_is_an_alg_error(header: str, words: str) -> None:
    (problem,) = check_signatures(with_header(header), trusting(key()))
    assert (problem.code, problem.severity) == ("signature-alg", "error")
    assert words in problem.message


def test_a_key_that_names_another_alg_does_not_fit() -> None:
    k = key()
    pinned = KeySet("jwks.json", ({**k.public_jwk, "alg": "ES384"},))
    (problem,) = check_signatures(signed(agreeing_card(), k), SignatureOptions(keys=(pinned,)))
    assert problem.code == "signature-alg"


def test_an_sdk_signature_over_empty_values_verifies_only_over_the_sdk_form() -> None:
    card = sdk_sign(example_card(), key())
    (problem,) = check_signatures(card, trusting(key()))
    assert (problem.code, problem.severity) == ("signature-sdk-form", "warning")
    assert "/capabilities/extensions/0/params/commands/1/argument_hint" in problem.message


def test_a_spec_signature_over_empty_values_warns_that_the_sdk_rejects_it() -> None:
    problems = codes(signed(example_card(), key()), trusting(key()))
    assert problems == [
        ("signature-verified", "info", "/signatures/0"),
        (
            "signature-sdk-rejects",
            "warning",
            "/capabilities/extensions/0/params/commands/1/argument_hint",
        ),
    ]


def test_one_good_signature_verifies_the_card_and_a_failing_one_is_a_warning() -> None:
    good, stale = key(), key("ES256", "old")
    card = signed(signed(agreeing_card(), stale), good)
    card["signatures"][0]["signature"] = card["signatures"][1]["signature"]
    assert codes(card, trusting(good, stale)) == [
        ("signature-invalid", "warning", "/signatures/0"),
        ("signature-verified", "info", "/signatures/1"),
    ]


def test_thousands_of_signatures_are_bounded_and_the_rest_named() -> None:
    card = signed(agreeing_card(), key())
    card["signatures"] = card["signatures"] * 5000
    problems = check_signatures(card, trusting(key()))
    assert len(problems) == MAX_SIGNATURES + 1
    assert problems[-1].code == "signature-unverified"
    assert f"{5000 - MAX_SIGNATURES} more signatures were not checked" in problems[-1].message


def test_one_signature_over_the_bound_is_named_in_the_singular() -> None:
    card = signed(agreeing_card(), key())
    card["signatures"] = card["signatures"] * (MAX_SIGNATURES + 1)
    problems = check_signatures(card, trusting(key()))
    assert problems[-1].code == "signature-unverified"
    assert problems[-1].message.startswith("1 more signature was not checked (th-ext checks")


def test_require_signature_fails_an_unsigned_or_unverified_card() -> None:
    required = SignatureOptions(require=True)
    assert codes(agreeing_card(), required) == [("signature-unverified", "error", "")]
    assert ("signature-unverified", "error", "/signatures") in codes(
        signed(agreeing_card(), key()), required
    )


def test_nothing_is_checked_without_a_keys_option() -> None:
    assert check_signatures(signed(agreeing_card(), key()), SignatureOptions()) == []
    assert check_signatures(agreeing_card(), trusting(key())) == []


def test_a_jwks_keeps_public_members_and_skips_other_entries() -> None:
    k = key()
    document = {"keys": [{**k.public_jwk, "x5t": "AAAA"}, {"kty": "oct", "kid": "s"}, 7]}
    key_set = parse_jwks(json.dumps(document).encode(), "jwks.json")
    assert key_set.skipped == 2
    assert key_set.keys == (k.public_jwk,)


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ({**key().private_jwk(), "kid": "key-1"}, "the key 'key-1' holds private key members (d)"),
        (key("RS256", "r").private_jwk(), "key 1 holds private key members (d, p, q, dp, dq, qi)"),
        ({"kty": "oct", "kid": "s", "k": "c2VjcmV0"}, "the key 's' holds private key members (k)"),
    ],
)
def test_a_jwks_that_publishes_a_private_key_is_refused(entry: dict[str, Any], words: str) -> None:
    document = {"keys": [key().public_jwk, entry]}
    with pytest.raises(KeysError, match=re.escape(f"jwks.json: {words}")):
        parse_jwks(json.dumps(document).encode(), "jwks.json")


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"\x00not json", "not JSON"),
        (b'{"keys": {}}', "not a JWKS"),
        (b"[" * 100_000, "not JSON"),
        (json.dumps({"keys": [{"kty": "EC"}] * (MAX_KEYS + 1)}).encode(), "more than the 256"),
    ],
)
def test_a_bad_jwks_is_one_line(data: bytes, words: str) -> None:
    with pytest.raises(KeysError, match=words):
        parse_jwks(data, "jwks.json")


def test_cryptography_is_not_imported_for_an_unsigned_card_with_keys() -> None:
    code = (
        "import json, sys\n"
        "from th_ext.signatures import KeySet, SignatureOptions, check_signatures\n"
        "opts = SignatureOptions(keys=(KeySet('k', ({'kty': 'EC', 'kid': 'k'},)),))\n"
        "check_signatures({'name': 'n'}, opts)\n"
        "print(json.dumps(['cryptography' in sys.modules, 'jwt' in sys.modules]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
    assert json.loads(done.stdout) == [False, False]


def test_thousands_of_keys_with_one_kid_are_tried_a_bounded_number_of_times() -> None:
    from th_ext.signatures._jws import MAX_CANDIDATES

    k = key()
    impostors = [key("ES256", f"impostor-{i}").public_jwk for i in range(3)]
    crowd = tuple({**impostors[i % 3], "kid": k.kid} for i in range(MAX_KEYS))
    sets = (KeySet("crowd.json", crowd), KeySet("jwks.json", (k.public_jwk,)))
    (problem,) = check_signatures(signed(agreeing_card(), k), SignatureOptions(keys=sets))
    assert problem.code == "signature-invalid"  # the real key came after the bound
    assert (
        f"{MAX_KEYS + 1 - MAX_CANDIDATES} more keys with this kid were not tried" in problem.message
    )
    assert MAX_CANDIDATES < MAX_KEYS
    first = SignatureOptions(keys=tuple(reversed(sets)))
    assert codes(signed(agreeing_card(), k), first)[0][0] == "signature-verified"


def test_a_card_signed_both_ways_is_verified_and_the_sdk_accepts_it() -> None:
    from tests.support.signing import sdk_verifies

    both = sdk_sign(signed(example_card(), key()), key())
    assert [c for c, _, _ in codes(both, trusting(key()))] == [
        "signature-verified",
        "signature-sdk-form",
    ]
    assert sdk_verifies(both, key())
