"""Keys made in the tests, and the official SDK's signer and verifier (the oracle).

Every key is generated when a test asks for it: nothing secret is committed. ``sdk_sign`` and
``sdk_verifies`` run a2a-sdk's own ``create_agent_card_signer`` and
``create_signature_verifier`` on a card given as JSON, the way an SDK client reads a card
(``ParseDict`` with unknown fields ignored).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from jwt.algorithms import get_default_algorithms

__all__ = ["SigningKey", "make_key", "sdk_sign", "sdk_verifies"]

_CURVES: dict[str, ec.EllipticCurve] = {
    "ES256": ec.SECP256R1(),
    "ES384": ec.SECP384R1(),
    "ES512": ec.SECP521R1(),
}


@dataclass(frozen=True)
class SigningKey:
    """A private key, its PEM, and its public JWK (with ``kid``)."""

    alg: str
    kid: str
    private: Any
    pem: bytes
    public_jwk: dict[str, Any]

    def jwks(self) -> dict[str, Any]:
        return {"keys": [self.public_jwk]}

    def private_jwk(self) -> dict[str, Any]:
        jwk: dict[str, Any] = json.loads(get_default_algorithms()[self.alg].to_jwk(self.private))
        return jwk


def make_key(alg: str = "ES256", kid: str = "key-1") -> SigningKey:
    """A fresh key for ``alg`` (RSA keys are 2048 bits)."""
    if alg in _CURVES:
        private: Any = ec.generate_private_key(_CURVES[alg])
    elif alg == "EdDSA":
        private = ed25519.Ed25519PrivateKey.generate()
    else:
        private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = private.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    public = json.loads(get_default_algorithms()[alg].to_jwk(private.public_key()))
    public["kid"] = kid
    return SigningKey(alg, kid, private, pem, public)


def _proto(card: dict[str, Any]) -> Any:
    from a2a.types import AgentCard
    from google.protobuf.json_format import ParseDict

    return ParseDict(card, AgentCard(), ignore_unknown_fields=True)


def sdk_sign(card: dict[str, Any], key: SigningKey, jku: str | None = None) -> dict[str, Any]:
    """``card`` with the signature a2a-sdk's signer adds (the card's other members as they
    were written)."""
    from a2a.utils.signing import create_agent_card_signer
    from google.protobuf.json_format import MessageToDict

    header: dict[str, Any] = {"alg": key.alg, "kid": key.kid, "typ": "JOSE"}
    if jku is not None:
        header["jku"] = jku
    signed = create_agent_card_signer(key.private, header)(_proto(card))  # type: ignore[arg-type]
    out = copy.deepcopy(card)
    out["signatures"] = [
        *card.get("signatures", []),
        MessageToDict(signed)["signatures"][-1],
    ]
    return out


def sdk_verifies(card: dict[str, Any], key: SigningKey) -> bool:
    """Whether a2a-sdk's verifier accepts ``card`` with ``key`` as the only key it knows."""
    from a2a.utils.signing import SignatureVerificationError, create_signature_verifier
    from jwt import PyJWK

    verifier = create_signature_verifier(
        lambda kid, jku: PyJWK(key.public_jwk, algorithm=key.alg), [key.alg]
    )
    try:
        verifier(_proto(card))
    except SignatureVerificationError:
        return False
    return True
