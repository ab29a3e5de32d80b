"""Signing keys: a new private key for an algorithm, and the JWKS that publishes public keys."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from th_ext._exceptions import os_reason
from th_ext.signatures._jws import (
    ALGORITHMS,
    KeysError,
    algorithm_for,
    check_kid,
    fitting_key,
    load_key,
    public_members,
)

__all__ = [
    "NEW_KEY_TYPES",
    "PASSWORD_VARIABLE",
    "jwks",
    "key_password",
    "new_key",
    "pem_alg",
    "public_jwk",
    "read_key_file",
    "write_new_key",
]

PASSWORD_VARIABLE = "TH_EXT_KEY_PASSWORD"
"""The environment variable an encrypted PEM's password may come from."""

RSA_BITS = 3072
"""The size of a new RSA key (NIST SP 800-57's size for 128-bit security)."""

NEW_KEY_TYPES = {
    "ES256": "EC P-256",
    "ES384": "EC P-384",
    "ES512": "EC P-521",
    **{f"{family}{bits}": f"RSA {RSA_BITS}" for family in ("RS", "PS") for bits in (256, 384, 512)},
    "EdDSA": "Ed25519",
}
"""What ``new_key`` makes for each algorithm."""

MAX_KEY_BYTES = 64 * 1024
"""The largest key file read (an RSA 16384 private key is about 13 KB)."""

_JWK_ORDER = ("kty", "crv", "x", "y", "n", "e", "kid", "alg", "use")


def new_key(alg: str) -> bytes:
    """A new private key for ``alg``, as unencrypted PKCS #8 PEM."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

    curves = {"ES256": ec.SECP256R1(), "ES384": ec.SECP384R1(), "ES512": ec.SECP521R1()}
    private: Any
    if alg in curves:
        private = ec.generate_private_key(curves[alg])
    elif alg == "EdDSA":
        private = ed25519.Ed25519PrivateKey.generate()
    elif alg in NEW_KEY_TYPES:
        private = rsa.generate_private_key(public_exponent=65537, key_size=RSA_BITS)
    else:
        raise KeysError(f"--alg {alg}: th-ext makes keys for {', '.join(ALGORITHMS)}")
    pem: bytes = private.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    return pem


def pem_alg(alg: str) -> str:
    """The algorithm a PEM key made for ``alg`` is read with when no ``--alg`` names one: a
    PEM records the key's type, not its algorithm, so every RSA key reads as RS256."""
    return "RS256" if NEW_KEY_TYPES.get(alg, "").startswith("RSA") else alg


def write_new_key(path: Path, alg: str) -> None:
    """Write a new private key for ``alg`` to ``path``, a new file readable by its owner
    alone (mode 0600); an existing file is never replaced."""
    pem = new_key(alg)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise KeysError(f"-o {path}: the file exists; th-ext never overwrites a key") from None
    except FileNotFoundError:
        raise KeysError(f"-o {path}: the folder {path.parent} does not exist") from None
    except OSError as exc:
        raise KeysError(f"-o {path}: {os_reason(exc)}") from None
    try:
        os.fchmod(descriptor, 0o600)  # whatever the umask
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(pem)
    except OSError as exc:
        path.unlink(missing_ok=True)
        raise KeysError(f"-o {path}: {os_reason(exc)}") from None


def read_key_file(path: Path, what: str = "") -> bytes:
    """The text of the key file ``path`` (at most ``MAX_KEY_BYTES``); ``KeysError`` naming
    ``what`` (``--key``, say) and the path when it cannot be read."""
    shown = f"{what} {path}".strip()
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_KEY_BYTES + 1)
    except OSError as exc:
        raise KeysError(f"{shown}: {os_reason(exc)}") from None
    if len(data) > MAX_KEY_BYTES:
        raise KeysError(f"{shown}: larger than {MAX_KEY_BYTES} bytes, which no key is")
    return data


def key_password(
    password_file: Path | None, environ: Mapping[str, str] | None = None
) -> bytes | None:
    """The password of an encrypted PEM: the first line of ``password_file``, else
    ``TH_EXT_KEY_PASSWORD``; ``None`` when neither is given."""
    if password_file is not None:
        try:
            text = password_file.read_bytes()
        except OSError as exc:
            raise KeysError(f"--password-file {password_file}: {os_reason(exc)}") from None
        line = text.splitlines()[0] if text else b""
        if not line:
            raise KeysError(f"--password-file {password_file}: the file is empty")
        return line
    value = (os.environ if environ is None else environ).get(PASSWORD_VARIABLE)
    return value.encode("utf-8") if value else None


def public_jwk(
    key_text: bytes,
    *,
    kid: str,
    alg: str | None = None,
    source: str = "the key",
    password: bytes | None = None,
) -> dict[str, Any]:
    """The public JWK of the key in ``key_text`` (a private or public key, PEM or JWK), with
    ``kid``, ``alg`` (the key's own algorithm when not given) and ``use: sig``."""
    check_kid(kid)
    key, key_alg = load_key(key_text, source, password=password, public=True)
    alg = alg or key_alg
    public = key.public_key() if hasattr(key, "private_bytes") else key
    jwk = public_members(algorithm_for(key_alg).to_jwk(public, as_dict=True))
    fitting_key(jwk, alg, source)
    jwk.update(kid=kid, alg=alg, use="sig")
    return {name: jwk[name] for name in _JWK_ORDER if name in jwk}


def jwks(keys: list[dict[str, Any]]) -> bytes:
    """The JWKS document of ``keys`` (public JWKs), as JSON text ending with a new line; two
    keys with one ``kid`` are refused (a verifier could not tell them apart)."""
    seen: set[str] = set()
    for jwk in keys:
        if jwk["kid"] in seen:
            raise KeysError(f"--kid {jwk['kid']!r} is given to two keys: each needs its own")
        seen.add(jwk["kid"])
    return (json.dumps({"keys": keys}, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
