"""The published signing vectors (site/th-ext/vectors.json), checked by three oracles.

PyJWT verifies each detached JWS over the bytes it claims (and refuses it over the others
where the case says so); ``rfc8785`` finds each canonical text already canonical; a2a-sdk
1.3's own verifier accepts exactly the signatures the case says it accepts. th-ext's verdicts
are those the case records, and a rebuild of the vectors gives the committed bytes.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import jwt
import pytest
import rfc8785
from a2a.types import AgentCard
from a2a.utils.signing import SignatureVerificationError, create_signature_verifier
from google.protobuf.json_format import ParseDict
from jwt import PyJWK

from th_ext.signatures import ALGORITHMS, KeySet, SignatureOptions, check_signatures

REPO = Path(__file__).resolve().parents[3]
SCRIPT = REPO / "scripts" / "generate_signing_vectors.py"
VECTORS: dict[str, Any] = json.loads((REPO / "site" / "th-ext" / "vectors.json").read_text())
CASES = {case["id"]: case for case in VECTORS["cases"]}
PUBLIC = {key["kid"]: key for key in VECTORS["jwks"]["keys"]}
SPEC, SDK = "section-8.4.1", "a2a-sdk-1.3"
PRIVATE_MEMBERS = {"d", "p", "q", "dp", "dq", "qi", "oth"}


def signatures() -> Iterator[tuple[str, int]]:
    for case in VECTORS["cases"]:
        for index in range(len(case["signatures"])):
            yield case["id"], index


def sdk_bytes(case: dict[str, Any]) -> bytes:
    text: str = case["sdk_canonical"] or case["canonical"]
    return text.encode("utf-8")


def pyjwt_accepts(signature: dict[str, Any], payload: bytes) -> bool:
    """PyJWT's verdict on the detached JWS with ``payload`` put back (RFC 7515 appendix F)."""
    protected, empty, value = signature["detached_jws"].split(".")
    assert empty == ""
    token = f"{protected}.{jwt.utils.base64url_encode(payload).decode()}.{value}"
    key = PyJWK(PUBLIC[signature["kid"]])
    try:
        jwt.PyJWS().decode(token, key=key, algorithms=[signature["alg"]])
    except jwt.InvalidSignatureError:
        return False
    return True


def sdk_accepts(card: dict[str, Any]) -> bool:
    verifier = create_signature_verifier(lambda kid, jku: PyJWK(PUBLIC[str(kid)]), list(ALGORITHMS))
    try:
        verifier(ParseDict(card, AgentCard(), ignore_unknown_fields=True))
    except SignatureVerificationError:
        return False
    return True


def test_the_cases_cover_every_algorithm_and_each_kind_named() -> None:
    signed_with = {s["alg"] for case in VECTORS["cases"] for s in case["signatures"]}
    assert signed_with == set(ALGORITHMS)
    assert {
        "empty-in-params",
        "empty-outside-params",
        "unknown-field",
        "jcs-numbers-and-strings",
        "several-signatures",
        "tampered",
    } <= set(CASES)
    assert len(CASES["several-signatures"]["signatures"]) > 1


@pytest.mark.parametrize(("case_id", "index"), list(signatures()))
def test_pyjwt_verifies_each_detached_jws_over_the_bytes_the_case_names(
    case_id: str, index: int
) -> None:
    case = CASES[case_id]
    signature = case["signatures"][index]
    assert signature["detached_jws"] == f"{signature['protected']}..{signature['signature']}"
    header = json.loads(jwt.utils.base64url_decode(signature["protected"]))
    assert header == signature["protected_header"]
    assert header["alg"] == signature["alg"] and header["kid"] == signature["kid"]
    assert pyjwt_accepts(signature, case["canonical"].encode()) is signature["verifiers"][SPEC]
    assert pyjwt_accepts(signature, sdk_bytes(case)) is signature["verifiers"][SDK]


@pytest.mark.parametrize("case_id", list(CASES))
def test_rfc8785_finds_each_canonical_text_canonical(case_id: str) -> None:
    case = CASES[case_id]
    for text in (case["canonical"], case["sdk_canonical"]):
        if text is not None:
            assert rfc8785.dumps(json.loads(text)) == text.encode("utf-8")
    # the forms differ exactly where the case says a2a-sdk drops something
    assert (case["sdk_canonical"] is None) == (case["sdk_drops"] == [])


def test_rfc8785_writes_the_special_numbers_and_strings_as_the_case_shows() -> None:
    canonical = CASES["jcs-numbers-and-strings"]["canonical"]
    assert '"numbers":[1,1e+21,1e-7,0,0.1,9007199254740991,' in canonical
    assert "\\u0001" in canonical and "\u2028" in canonical
    # members sorted by UTF-16 code units: U+1F600 (D83D DE00) before U+FB33
    assert canonical.index('"\U0001f600"') < canonical.index('"\ufb33"')
    value = json.loads(canonical)
    assert rfc8785.dumps(value) == canonical.encode("utf-8")


@pytest.mark.parametrize(("case_id", "index"), list(signatures()))
def test_a2a_sdk_verifier_accepts_exactly_the_signatures_the_case_says(
    case_id: str, index: int
) -> None:
    case = CASES[case_id]
    signature = case["signatures"][index]
    card = {**case["signed_card"], "signatures": [case["signed_card"]["signatures"][index]]}
    assert sdk_accepts(card) is signature["verifiers"][SDK]


@pytest.mark.parametrize("case_id", list(CASES))
def test_th_ext_gives_the_verdicts_the_case_records(case_id: str) -> None:
    case = CASES[case_id]
    options = SignatureOptions(keys=(KeySet("vectors.json", tuple(PUBLIC.values())),))
    assert [p.code for p in check_signatures(case["signed_card"], options)] == case["th_ext"]
    for signature in case["signatures"]:
        verified = signature["th_ext"] == "signature-verified"
        assert verified is signature["verifiers"][SPEC]


def test_the_signed_card_is_the_input_card_with_its_signatures() -> None:
    for case in VECTORS["cases"]:
        signed = dict(case["signed_card"])
        entries = signed.pop("signatures")
        assert signed == case["card"]
        assert [(e["protected"], e["signature"]) for e in entries] == [
            (s["protected"], s["signature"]) for s in case["signatures"]
        ]


def test_the_test_keys_are_marked_and_the_jwks_holds_their_public_parts_alone() -> None:
    test_keys = VECTORS["test_keys"]
    assert "FOR TESTS ONLY" in test_keys["warning"]
    assert [k["alg"] for k in test_keys["keys"]] == list(ALGORITHMS)
    for private, public in zip(test_keys["keys"], VECTORS["jwks"]["keys"], strict=True):
        assert "d" in private
        assert not PRIVATE_MEMBERS & set(public)
        assert public["use"] == "sig" and public["kid"] == private["kid"]
        assert {k: v for k, v in private.items() if k not in PRIVATE_MEMBERS} == public
        # the private key signs what the public key verifies (PyJWT both ways)
        token = jwt.encode({"t": 1}, PyJWK(private).key, algorithm=private["alg"])
        assert jwt.decode(token, PyJWK(public).key, algorithms=[public["alg"]]) == {"t": 1}


def test_a_rebuild_gives_the_committed_bytes() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr


def load_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("generate_signing_vectors", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_check_fails_on_a_vector_changed_by_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    generator = load_generator()
    for name in ("SOURCE", "VECTORS", "PAGE"):
        copy = tmp_path / Path(getattr(generator, name)).name
        shutil.copyfile(getattr(generator, name), copy)
        monkeypatch.setattr(generator, name, copy)
    assert generator.main(["--check"]) == 0
    vectors = tmp_path / "vectors.json"
    vectors.write_text(vectors.read_text().replace('"1.0.0"', '"1.0.2"', 1))
    assert generator.main(["--check"]) == 1


def test_a_stored_signature_that_no_longer_verifies_is_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    generator = load_generator()
    source = json.loads(Path(generator.SOURCE).read_text())
    name = "es256/th-ext-test-es256"
    stored = source["signatures"][name]
    source["signatures"][name] = {**stored, "signature": stored["signature"][::-1]}
    document, kept = generator.build(source)
    assert kept["signatures"][name] != source["signatures"][name]
    (case,) = [c for c in document["cases"] if c["id"] == "es256"]
    assert case["th_ext"] == ["signature-verified"]
