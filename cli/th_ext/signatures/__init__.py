"""Signed agent cards (A2A 1.0 section 8.4): the bytes a signature covers, verdicts, signing.

``canonical_form`` is the card as section 8.4.1 signs it and ``sdk_form`` as a2a-sdk 1.3
does (``canonical_bytes`` serializes either by RFC 8785); ``check_signatures`` turns a card's
signatures into problems with stable codes; ``sign_card`` appends a signature. Trusted keys
come from ``read_keys`` / ``parse_jwks`` (JWKS documents); ``new_key`` / ``write_new_key``
make a private key for an algorithm, and ``public_jwk`` / ``jwks`` the JWKS that publishes
it. Nothing here prints; PyJWT and ``cryptography`` are imported only when a signature is
checked or a key read or made.
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
    MAX_KID,
    MAX_SIGNATURES,
    KeysError,
    KeySet,
    SignatureOptions,
    SignedCard,
    check_kid,
    check_signatures,
    parse_jwks,
    read_keys,
    sign_card,
)
from th_ext.signatures._keys import (
    NEW_KEY_TYPES,
    PASSWORD_VARIABLE,
    jwks,
    key_password,
    new_key,
    public_jwk,
    read_key_file,
    write_new_key,
)

__all__ = [
    "ALGORITHMS",
    "MAX_DEPTH",
    "MAX_KEYS",
    "MAX_KID",
    "MAX_SIGNATURES",
    "NEW_KEY_TYPES",
    "PASSWORD_VARIABLE",
    "CanonicalFormError",
    "KeySet",
    "KeysError",
    "SignatureOptions",
    "SignedCard",
    "canonical_bytes",
    "canonical_form",
    "check_kid",
    "check_signatures",
    "empty_values",
    "first_difference",
    "jwks",
    "key_password",
    "new_key",
    "parse_jwks",
    "public_jwk",
    "read_key_file",
    "read_keys",
    "sdk_form",
    "sign_card",
    "write_new_key",
]
