"""Signed agent cards (A2A 1.0 section 8.4): the bytes a signature covers, verdicts, signing.

``canonical_form`` is the card as section 8.4.1 signs it and ``sdk_form`` as a2a-sdk 1.3
does (``canonical_bytes`` serializes either by RFC 8785); ``check_signatures`` turns a card's
signatures into problems with stable codes; ``sign_card`` appends a signature. Trusted keys
come from ``read_keys`` / ``parse_jwks`` (JWKS documents). Nothing here prints; PyJWT and
``cryptography`` are imported only when a signature is checked or made.
"""

from th_ext.signatures._canonical import (
    MAX_DEPTH,
    CanonicalFormError,
    canonical_bytes,
    canonical_form,
    empty_values,
    first_difference,
    sdk_form,
)
from th_ext.signatures._jws import (
    ALGORITHMS,
    MAX_KEYS,
    MAX_SIGNATURES,
    KeysError,
    KeySet,
    SignatureOptions,
    SignedCard,
    check_signatures,
    parse_jwks,
    read_keys,
    sign_card,
)

__all__ = [
    "ALGORITHMS",
    "MAX_DEPTH",
    "MAX_KEYS",
    "MAX_SIGNATURES",
    "CanonicalFormError",
    "KeySet",
    "KeysError",
    "SignatureOptions",
    "SignedCard",
    "canonical_bytes",
    "canonical_form",
    "check_signatures",
    "empty_values",
    "first_difference",
    "parse_jwks",
    "read_keys",
    "sdk_form",
    "sign_card",
]
