"""Signed agent cards (A2A 1.0 section 8.4): the bytes a signature covers, verdicts, signing.
Nothing here prints; PyJWT and ``cryptography`` load only when a signature or key is used."""

from th_ext.signatures._canonical import (
    MAX_DEPTH,
    CanonicalFormError,
    canonical_bytes,
    canonical_form,
    empty_values,
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
from th_ext.validate import first_difference

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
