"""Write the golden vectors of signed agent cards: site/th-ext/vectors.json and its page.

Each case is an input card, its A2A 1.0 section 8.4.1 canonical bytes, a2a-sdk 1.3's bytes
where they differ (and why), and its signatures: protected header, detached JWS (RFC 7515
appendix F) and which verifier accepts each. Everything is made by th-ext
(``th_ext.signatures``) from the published test key set.

What cannot be made again byte for byte is committed in ``scripts/signing_vectors_source.json``:
the test keys, and the ECDSA and RSA-PSS signatures (both randomized). A committed signature is
reused while it still verifies over the case's bytes; RSASSA-PKCS1-v1_5 and EdDSA signatures
are deterministic and made again on every run. So a rebuild gives the same bytes, and
``--check`` (run by a test) fails when the files differ from what the generator gives.

Run it with ``make signing-vectors`` (or ``python scripts/generate_signing_vectors.py
[--check]``); ``--new-keys`` replaces the test key set (every vector changes).
"""

from __future__ import annotations

import argparse
import base64
import copy
import json
import sys
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import get_default_algorithms

from th_ext.signatures import (
    ALGORITHMS,
    KeySet,
    SignatureOptions,
    canonical_bytes,
    canonical_form,
    check_signatures,
    empty_values,
    new_key,
    public_jwk,
    sdk_form,
    sign_card,
)

REPO = Path(__file__).resolve().parent.parent
SOURCE = REPO / "scripts" / "signing_vectors_source.json"
VECTORS = REPO / "site" / "th-ext" / "vectors.json"
PAGE = REPO / "site" / "th-ext" / "signing-vectors.md"
PAGE_URL = "signing-vectors.md"

COMMANDS_URI = "https://madarauchiha-314.github.io/tiny-harness/a2a/ext/commands/v1"
FOR_TESTS_ONLY = (
    "FOR TESTS ONLY: these private keys are published. Never sign a real card with them, and "
    "never trust a signature they verify."
)
SPEC = "section-8.4.1"
SDK = "a2a-sdk-1.3"
RANDOMIZED = ("ES", "PS")


def base_card() -> dict[str, Any]:
    """A small A2A 1.0 card with no empty value: both canonical forms are one."""
    return {
        "name": "Vector agent",
        "description": "An agent card for th-ext's signing test vectors.",
        "version": "1.0.0",
        "supportedInterfaces": [
            {
                "url": "https://agent.example/a2a",
                "protocolBinding": "JSONRPC",
                "protocolVersion": "1.0",
            }
        ],
        "capabilities": {
            "streaming": True,
            "extensions": [
                {
                    "uri": COMMANDS_URI,
                    "required": False,
                    "params": {
                        "commands": [
                            {
                                "name": "model",
                                "description": "Show or choose this task's model",
                                "argument_hint": "[<model>]",
                            }
                        ]
                    },
                }
            ],
        },
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [
            {
                "id": "chat",
                "name": "Chat",
                "description": "Answers questions in plain text.",
                "tags": ["chat"],
            }
        ],
    }


def _params(card: dict[str, Any]) -> dict[str, Any]:
    params: dict[str, Any] = card["capabilities"]["extensions"][0]["params"]
    return params


def empty_in_params() -> dict[str, Any]:
    card = base_card()
    _params(card)["commands"].append(
        {"name": "help", "description": "List the commands", "argument_hint": ""}
    )
    return card


def empty_outside_params() -> dict[str, Any]:
    card = base_card()
    card["documentationUrl"] = ""  # optional: set to "" is still set
    card["supportedInterfaces"][0]["tenant"] = ""  # a plain string at its default
    card["securitySchemes"] = {}  # an empty map
    return card


def unknown_field() -> dict[str, Any]:
    card = base_card()
    card["x-vendor"] = {"region": "eu-west-1"}
    return card


def jcs_numbers_and_strings() -> dict[str, Any]:
    card = base_card()
    _params(card)["x-jcs"] = {
        "numbers": [1.0, 1e21, 1e-7, -0.0, 0.1, 9007199254740991, 333333333.3333333, 5e-324, 100],
        "strings": {
            "\u20ac": "a key of one UTF-16 unit (U+20AC)",
            "\ufb33": "U+FB33: after U+1F600 in UTF-16 order, before it by code point",
            "\U0001f600": "U+1F600, two UTF-16 units (D83D DE00)",
            "escapes": 'tab\t newline\n quote" backslash\\ U+0001\x01 U+2028\u2028 \u00e9',
        },
    }
    return card


CASES: list[dict[str, Any]] = [
    *(
        {
            "id": alg.lower(),
            "title": f"{alg}",
            "why": f"The base card signed with {alg}: both canonical forms are one, so every "
            "verifier accepts it.",
            "card": base_card,
            "signers": [(alg, SPEC)],
        }
        for alg in ALGORITHMS
    ),
    {
        "id": "empty-in-params",
        "title": "An empty value inside params",
        "why": "Section 8.4.1 keeps an extension's params as written (a Struct), so "
        '"argument_hint": "" is signed; a2a-sdk 1.3 removes every empty string, list and object, '
        "params included, and signs other bytes. A signature over section 8.4.1's form fails "
        "a2a-sdk's verifier.",
        "card": empty_in_params,
        "signers": [("ES256", SPEC)],
    },
    {
        "id": "empty-in-params-sdk-form",
        "title": "An empty value inside params, signed as a2a-sdk 1.3 signs",
        "why": "The same card signed over a2a-sdk 1.3's form: a2a-sdk accepts it, a verifier "
        "of section 8.4.1 does not (th-ext names it signature-sdk-form).",
        "card": empty_in_params,
        "signers": [("EdDSA", SDK)],
    },
    {
        "id": "empty-outside-params",
        "title": "Empty values outside params",
        "why": "documentationUrl is an optional field: set to an empty string it is still set, "
        "and section 8.4.1 keeps it; a2a-sdk drops it. tenant (a plain string at its default) "
        "and securitySchemes (an empty map) are dropped by both.",
        "card": empty_outside_params,
        "signers": [("ES256", SPEC)],
    },
    {
        "id": "unknown-field",
        "title": "A field the proto does not know",
        "why": "Section 8.4.1 keeps a member the proto does not know as written, so the "
        "signature covers all the card says; a2a-sdk reads the card into its proto message, "
        "which drops the member, and signs other bytes.",
        "card": unknown_field,
        "signers": [("ES256", SPEC)],
    },
    {
        "id": "jcs-numbers-and-strings",
        "title": "Numbers and strings RFC 8785 treats specially",
        "why": "RFC 8785 writes numbers as ECMAScript does (1.0 is 1, 1e21 is 1e+21, -0 is 0, "
        "1e-7 stays 1e-7), escapes only what JSON requires (U+0001 as \\u0001; U+2028 and é "
        "are written as they are) and sorts members by their UTF-16 code units (U+1F600 "
        "before U+FB33). "
        "Both forms keep these values, so both verifiers accept.",
        "card": jcs_numbers_and_strings,
        "signers": [("RS256", SPEC)],
    },
    {
        "id": "several-signatures",
        "title": "Several signatures",
        "why": "Two signatures, by two keys: a verifier accepts the card when one of them "
        "verifies with a key it trusts; here both do.",
        "card": base_card,
        "signers": [("ES384", SPEC), ("EdDSA", SPEC)],
    },
    {
        "id": "tampered",
        "title": "A tampered card",
        "why": "The ES256 case's signed card with its version changed after signing: no "
        "verifier accepts it.",
        "card": base_card,
        "signers": [("ES256", SPEC)],
        "tamper": ("version", "1.0.1"),
    },
]


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def kid_of(alg: str) -> str:
    return f"th-ext-test-{alg.lower()}"


def make_keys() -> dict[str, dict[str, Any]]:
    """A new test key set: one private JWK per algorithm (RSA keys of 2048 bits)."""
    keys = {}
    for alg in ALGORITHMS:
        if alg.startswith(("RS", "PS")):
            pem = rsa.generate_private_key(public_exponent=65537, key_size=2048).private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        else:
            pem = new_key(alg)
        algorithm = get_default_algorithms()[alg]
        private = algorithm.prepare_key(pem)
        jwk = algorithm.to_jwk(private, as_dict=True)
        jwk.pop("key_ops", None)  # "use" says it (RFC 7517 asks for one of the two)
        keys[alg] = {**jwk, "kid": kid_of(alg), "alg": alg, "use": "sig"}
    return keys


def spec_signature(
    card: dict[str, Any], alg: str, key: dict[str, Any], stored: dict[str, str] | None
) -> dict[str, str]:
    """A signature over section 8.4.1's form: the stored one while it verifies, else new."""
    public = public_jwk(json.dumps(key).encode(), kid=key["kid"], alg=alg)
    options = SignatureOptions(keys=(KeySet("vectors", (public,)),))
    if stored is not None:
        codes = [p.code for p in check_signatures({**card, "signatures": [stored]}, options)]
        if codes[:1] == ["signature-verified"]:
            return stored
    signed = sign_card(json.dumps(card).encode(), json.dumps(key).encode(), kid=key["kid"], alg=alg)
    entry: dict[str, str] = json.loads(signed.data)["signatures"][-1]
    return entry


def sdk_signature(card: dict[str, Any], alg: str, key: dict[str, Any]) -> dict[str, str]:
    """A signature over a2a-sdk 1.3's form, as its signer makes it (deterministic algs)."""
    header = {"alg": alg, "kid": key["kid"], "typ": "JOSE"}
    protected = b64(json.dumps(header, separators=(",", ":")).encode())
    payload = canonical_bytes(sdk_form(card))
    algorithm = get_default_algorithms()[alg]
    signature = algorithm.sign(f"{protected}.{b64(payload)}".encode(), algorithm.from_jwk(key))
    return {"protected": protected, "signature": b64(signature)}


def th_ext_verdicts(card: dict[str, Any], jwks: list[dict[str, Any]]) -> list[str]:
    options = SignatureOptions(keys=(KeySet("vectors.json", tuple(jwks)),))
    return [p.code for p in check_signatures(card, options)]


def build(source: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The vectors document and the source it was made from (new signatures recorded)."""
    keys: dict[str, dict[str, Any]] = source["keys"]
    stored: dict[str, dict[str, str]] = source.get("signatures", {})
    public = [
        public_jwk(json.dumps(keys[alg]).encode(), kid=kid_of(alg), alg=alg) for alg in ALGORITHMS
    ]
    kept: dict[str, dict[str, str]] = {}
    cases = []
    signed_cards: dict[str, dict[str, Any]] = {}
    for case in CASES:
        card = case["card"]()
        spec_bytes = canonical_bytes(canonical_form(card))
        sdk_bytes = canonical_bytes(sdk_form(card))
        entries = []
        for alg, form in case["signers"]:
            name = f"{case['id']}/{kid_of(alg)}"
            if "tamper" in case:  # the signature of the case it tampers with
                entry = signed_cards[alg.lower()]["signatures"][0]
            elif form == SPEC:
                entry = spec_signature(card, alg, keys[alg], stored.get(name))
                if alg.startswith(RANDOMIZED):
                    kept[name] = entry
            else:
                entry = sdk_signature(card, alg, keys[alg])
            entries.append((alg, form, entry))
        signed = {**copy.deepcopy(card), "signatures": [e for _, _, e in entries]}
        signed_cards[case["id"]] = signed
        if "tamper" in case:
            member, value = case["tamper"]
            signed[member] = value
            card = {**card, member: value}
            spec_bytes = canonical_bytes(canonical_form(card))
            sdk_bytes = canonical_bytes(sdk_form(card))
        verdicts = th_ext_verdicts(signed, public)
        signatures = []
        for index, (alg, form, entry) in enumerate(entries):
            payload = spec_bytes if form == SPEC else sdk_bytes
            accepted = verdicts[index] if index < len(verdicts) else ""
            signatures.append(
                {
                    "kid": kid_of(alg),
                    "alg": alg,
                    "signed_over": form,
                    "protected_header": json.loads(unb64(entry["protected"])),
                    "protected": entry["protected"],
                    "signature": entry["signature"],
                    "detached_jws": f"{entry['protected']}..{entry['signature']}",
                    "signing_input": f"{entry['protected']}.{b64(payload)}",
                    "verifiers": accepted_by(form, "tamper" in case, spec_bytes == sdk_bytes),
                    "th_ext": accepted,
                }
            )
        differ = spec_bytes != sdk_bytes
        cases.append(
            {
                "id": case["id"],
                "title": case["title"],
                "why": case["why"],
                "card": card,
                "canonical": spec_bytes.decode("utf-8"),
                "sdk_canonical": sdk_bytes.decode("utf-8") if differ else None,
                "sdk_drops": empty_values(card) if differ else [],
                "signed_card": signed,
                "signatures": signatures,
                "th_ext": verdicts,
            }
        )
    document = {
        "description": "Golden vectors for signed A2A 1.0 agent cards (section 8.4), made by "
        "th-ext. Each case: the input card, its section 8.4.1 canonical bytes (RFC 8785), "
        "a2a-sdk 1.3's bytes where they differ, and its signatures (protected header, detached "
        "JWS, and which verifier accepts each).",
        "page": "https://madarauchiha-314.github.io/tiny-harness/th-ext/signing-vectors/",
        "test_keys": {
            "warning": FOR_TESTS_ONLY,
            "keys": [keys[alg] for alg in ALGORITHMS],
        },
        "jwks": {"keys": public},
        "cases": cases,
    }
    return document, {**source, "signatures": kept}


def accepted_by(form: str, tampered: bool, same: bool) -> dict[str, bool]:
    """Which verifier accepts a signature made over ``form``: each accepts one over its own
    form, and over the other when the two forms are the same bytes; none a tampered card."""
    return {
        SPEC: not tampered and (form == SPEC or same),
        SDK: not tampered and (form == SDK or same),
    }


def dumps(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def render_page(document: dict[str, Any]) -> str:
    lines = [
        # the page is data: kept out of the search index, which every page loads
        "---",
        "search:",
        "  exclude: true",
        "---",
        "",
        "# Signing test vectors",
        "",
        "<!-- Generated by scripts/generate_signing_vectors.py (make signing-vectors); "
        "do not edit. -->",
        "",
        "Golden vectors for signed agent cards (A2A 1.0 section 8.4), to test a signer or a "
        "verifier against: each case gives an input card, its section 8.4.1 canonical bytes "
        "(RFC 8785), a2a-sdk 1.3's bytes where they differ and why, and each signature's "
        "protected header, detached JWS (`protected..signature`, RFC 7515 appendix F) and "
        "which verifier accepts it. [vectors.json](vectors.json) holds the same, "
        "machine-readable, with each input card and its signed form (the canonical bytes "
        "below show the input card's content).",
        "",
        "A signature is checked over `protected` + `.` + base64url(canonical bytes): section "
        "8.4.1's bytes for a signature made over them, a2a-sdk 1.3's for one made as its signer "
        "makes it. How th-ext signs and verifies: [Signing cards](signing.md).",
        "",
        "## Test keys",
        "",
        f'!!! danger "{FOR_TESTS_ONLY}"',
        "",
        "    The private keys (JWK) are in `vectors.json` under `test_keys`; the public JWKS, "
        "under `jwks`.",
        "",
        "| kid | alg | key |",
        "|---|---|---|",
    ]
    for key in document["jwks"]["keys"]:
        kind = f"{key['kty']} {key.get('crv', '')}".strip()
        if key["kty"] == "RSA":
            kind += f" {len(unb64(key['n'])) * 8}"
        lines.append(f"| `{key['kid']}` | {key['alg']} | {kind} |")
    lines += ["", "## Cases", ""]
    lines += ["| Case | Forms differ | Section 8.4.1 verifier | a2a-sdk 1.3 verifier |"]
    lines += ["|---|---|---|---|"]
    for case in document["cases"]:
        spec = all(s["verifiers"][SPEC] for s in case["signatures"])
        sdk = all(s["verifiers"][SDK] for s in case["signatures"])
        differ = "yes" if case["sdk_canonical"] is not None else "no"
        anchor = case["id"]
        lines.append(f"| [{case['title']}](#{anchor}) | {differ} | {_word(spec)} | {_word(sdk)} |")
    base = document["cases"][0]["canonical"]  # the base card's, shared by many cases
    lines += [
        "",
        "## The base card",
        "",
        "Most cases sign this card; its section 8.4.1 canonical bytes (UTF-8), which a2a-sdk "
        "1.3's form shares:",
        "",
        "```text",
        base,
        "```",
    ]
    for case in document["cases"]:
        lines += ["", f"### {case['title']} {{ #{case['id']} }}", "", case["why"], ""]
        if case["canonical"] == base:
            lines += ["Canonical bytes: [the base card's](#the-base-card).", ""]
        else:
            lines += [
                "Section 8.4.1 canonical bytes (UTF-8):",
                "",
                "```text",
                case["canonical"],
                "```",
                "",
            ]
        if case["sdk_canonical"] is not None:
            dropped = ", ".join(f"`{p}`" for p in case["sdk_drops"])
            lines += [
                f"a2a-sdk 1.3's bytes differ: it drops {dropped}.",
                "",
                "```text",
                case["sdk_canonical"],
                "```",
                "",
            ]
        for signature in case["signatures"]:
            over = (
                "section 8.4.1's form" if signature["signed_over"] == SPEC else "a2a-sdk 1.3's form"
            )
            accepted = [name for name, ok in signature["verifiers"].items() if ok]
            verdict = (
                "accepted by " + " and ".join(_verifier(name) for name in accepted)
                if accepted
                else "accepted by no verifier"
            )
            lines += [
                f"Signature `{signature['kid']}` ({signature['alg']}, over {over}; {verdict}; "
                f"th-ext: `{signature['th_ext']}`):",
                "",
                "```text",
                "protected header: "
                + json.dumps(signature["protected_header"], separators=(",", ":")),
                "detached JWS:     " + signature["detached_jws"],
                "```",
            ]
            lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _word(ok: bool) -> str:
    return "accepts" if ok else "rejects"


def _verifier(name: str) -> str:
    return "a section 8.4.1 verifier" if name == SPEC else "a2a-sdk 1.3"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a file is stale")
    parser.add_argument("--new-keys", action="store_true", help="make a new test key set")
    args = parser.parse_args(argv)
    if args.new_keys or not SOURCE.exists():
        source: dict[str, Any] = {"warning": FOR_TESTS_ONLY, "keys": make_keys(), "signatures": {}}
    else:
        source = json.loads(SOURCE.read_text(encoding="utf-8"))
    document, source = build(source)
    files = {SOURCE: dumps(source), VECTORS: dumps(document), PAGE: render_page(document)}
    if args.check:
        stale = [
            path
            for path, text in files.items()
            if not path.exists() or path.read_text(encoding="utf-8") != text
        ]
        for path in stale:
            shown = path.name
            print(f"{shown} is not what the generator gives: run make signing-vectors")
        return 1 if stale else 0
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
