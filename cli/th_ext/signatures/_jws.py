"""Card signatures as JWS (RFC 7515): trusted keys, verification verdicts, and signing."""

from __future__ import annotations

import base64
import binascii
import ipaddress
import json
import re
import unicodedata
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from th_ext._deadline import Deadline
from th_ext._exceptions import SourceError, ThExtError, cut
from th_ext.net import HeaderScope, origin_of, redact, shown_url, url_problem
from th_ext.problems import Problem, counted
from th_ext.signatures._canonical import (
    MAX_DEPTH,
    CanonicalFormError,
    canonical_bytes,
    canonical_form,
    empty_values,
    sdk_form,
)
from th_ext.sources._source import SourceLimits, read_source
from th_ext.validate._positions import first_difference

if TYPE_CHECKING:
    from jwt.algorithms import Algorithm

__all__ = [
    "ALGORITHMS",
    "MAX_JKU",
    "MAX_KEYS",
    "MAX_KID",
    "MAX_RSA_BITS",
    "MAX_SIGNATURES",
    "KeySet",
    "KeysError",
    "SignatureOptions",
    "SignedCard",
    "UnsignableCardError",
    "check_jku",
    "check_kid",
    "check_signatures",
    "parse_jwks",
    "read_keys",
    "sign_card",
]

ALGORITHMS = (
    "ES256",
    "ES384",
    "ES512",
    "RS256",
    "RS384",
    "RS512",
    "PS256",
    "PS384",
    "PS512",
    "EdDSA",
)
"""The signature algorithms th-ext verifies and signs with."""

MAX_SIGNATURES = 16
"""Signatures verified on one card; the rest are named in one warning, not checked."""
MAX_KEYS = 256
"""Keys read from one JWKS; a larger set is refused whole."""
MAX_HEADER_BYTES = 8 * 1024
"""The longest protected header accepted (decoded)."""
MAX_HEADER_DEPTH = 8
"""The deepest nesting accepted inside a protected header."""
MAX_SHOWN = 5
"""Empty values named in a message before "and N more"."""
MAX_KID = 256
"""The longest ``kid`` ``sign_card`` and a JWKS made by th-ext accept, in characters."""
MAX_JKU = 2_048
#: The largest RSA modulus th-ext reads, as OpenSSL computes with no larger one
#: (``OPENSSL_RSA_MAX_MODULUS_BITS``): a JWK member or a PEM key beyond it is refused.
MAX_RSA_BITS = 16_384
"""The longest ``jku`` ``sign_card`` accepts, in characters: the common limit of a URL, far
under what a protected header may hold (``MAX_HEADER_BYTES``) with the longest ``kid``."""
MAX_CANDIDATES = 8
"""Keys tried for one signature (keys that share its ``kid``); the others are not tried."""

# What each algorithm needs of the key: its type and, for EC and OKP, its curve.
_FITS: dict[str, tuple[str, tuple[str, ...]]] = {
    "ES256": ("EC", ("P-256",)),
    "ES384": ("EC", ("P-384",)),
    "ES512": ("EC", ("P-521",)),
    "EdDSA": ("OKP", ("Ed25519", "Ed448")),
    **{f"{family}{bits}": ("RSA", ()) for family in ("RS", "PS") for bits in (256, 384, 512)},
}
_PUBLIC_MEMBERS = frozenset({"kty", "kid", "alg", "use", "key_ops", "crv", "x", "y", "n", "e"})
# A private key's members (RFC 7518 section 6): EC and OKP d, RSA's primes and CRT values, oct k.
_PRIVATE_MEMBERS = ("d", "p", "q", "dp", "dq", "qi", "oth", "k")
_BOM = b"\xef\xbb\xbf"
_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")
_CURVE_ALGORITHMS = {"secp256r1": "ES256", "secp384r1": "ES384", "secp521r1": "ES512"}


class KeysError(ThExtError):
    """A keys source that gives no usable JWKS: unreadable, too large, not JSON, not a JWKS,
    too many keys, a private key published; or a signing key that cannot sign, a ``--kid`` or
    ``--jku`` that cannot go in a protected header. One line, for the user."""


class UnsignableCardError(ThExtError):
    """A card ``sign_card`` refuses: it starts with a byte-order mark, repeats a member (which
    value is signed would be ambiguous), or has a ``signatures`` member that is not an array.
    One line, for the user."""


@dataclass(frozen=True, slots=True)
class KeySet:
    """Trusted public keys (each a JWK's public members) and where they came from."""

    source: str
    keys: tuple[dict[str, Any], ...]
    skipped: int = 0
    """Keys left out: symmetric (``oct``) keys, and entries that are not key objects."""


@dataclass(frozen=True, slots=True)
class SignatureOptions:
    """How a card's signatures are checked.

    ``keys`` are trusted; ``fetch_keys`` allows a ``jku`` on the origin of ``card_url`` (the
    URL the card was read from; a file has none), read under ``limits`` (byte cap, and
    timeout); every ``jku`` read of one card ends by ``deadline`` (by default ``limits``'
    timeout from the start of the check), so many ``jku`` URLs cannot multiply it. ``require``
    makes an unsigned or unverified card an error.
    """

    keys: tuple[KeySet, ...] = ()
    fetch_keys: bool = False
    require: bool = False
    card_url: str | None = None
    limits: SourceLimits = field(default_factory=SourceLimits)
    deadline: Deadline | None = None

    @property
    def active(self) -> bool:
        """Whether there is anything to check signatures for."""
        return bool(self.keys) or self.fetch_keys or self.require


@dataclass(frozen=True, slots=True)
class SignedCard:
    """A card with one more signature: its text, the algorithm, and what a2a-sdk will say."""

    data: bytes
    alg: str
    sdk_rejects: str = ""
    """Why a2a-sdk 1.3's verifier will reject the signature (empty when it accepts it)."""


_LEAST_READ = 0.05
"""Seconds: a jku read is not started with less time than this left."""


def parse_jwks(data: bytes, source: str) -> KeySet:
    """The public keys of a JWKS document (RFC 7517 section 5); ``KeysError`` otherwise (a
    PEM key is named as such, with the command that makes a JWKS of it)."""
    if data.lstrip()[:10] == b"-----BEGIN":
        raise KeysError(
            f"{source}: a PEM file, not a JWKS: --keys wants a JWKS (JSON); make one with "
            f"th-ext keys jwks {source} --kid KID"
        )
    try:
        document = json.loads(data)
    except (ValueError, RecursionError):
        raise KeysError(f"{source}: not JSON") from None
    entries = document.get("keys") if isinstance(document, dict) else None
    if not isinstance(entries, list):
        raise KeysError(f'{source}: not a JWKS (a JSON object with a "keys" array)')
    if len(entries) > MAX_KEYS:
        raise KeysError(f"{source}: {len(entries)} keys, more than the {MAX_KEYS} accepted")
    for index, entry in enumerate(entries):
        held = [name for name in _PRIVATE_MEMBERS if isinstance(entry, dict) and name in entry]
        if held:
            kid = entry.get("kid")
            named = f"the key {cut(kid, 80)!r}" if isinstance(kid, str) else f"key {index}"
            raise KeysError(
                f"{source}: {named} holds private key members ({', '.join(held)}): a JWKS "
                "publishes public keys only, so this private key has leaked; make a new key "
                "and publish its public part (th-ext keys jwks)"
            )
    keys = tuple(
        public_members(entry)
        for entry in entries
        if isinstance(entry, dict) and entry.get("kty") in ("EC", "RSA", "OKP")
    )
    return KeySet(source, keys, len(entries) - len(keys))


def read_keys(source: str, limits: SourceLimits | None = None) -> KeySet:
    """The JWKS at ``source`` (a file, ``-`` or an http(s) URL), read under ``limits`` with no
    header sent; ``KeysError`` when it cannot be read or is not a JWKS."""
    given = limits or SourceLimits()
    limits = SourceLimits(timeout=given.timeout, max_bytes=given.max_bytes)
    try:
        raw = read_source(source, limits, well_known=False, scope=HeaderScope())
    except SourceError as exc:
        raise KeysError(f"--keys {exc}") from None
    return parse_jwks(raw.data, redact(source))


def check_signatures(card: dict[str, Any], options: SignatureOptions) -> list[Problem]:
    """The verdicts on ``card``'s signatures under ``options`` (none when it is not active)."""
    if not options.active:
        return []
    entries = card.get("signatures")
    if not isinstance(entries, list) or not entries:
        if not options.require:
            return []
        return [
            _problem(
                "error",
                "signature-unverified",
                "",
                "the card carries no signature, and one is required",
                "sign the card (th-ext sign CARD --key KEY --kid KID)",
            )
        ]
    return _Verifier(card, options).run(entries)


class _Verifier:
    """One card's signatures against the trusted keys and the ``jku`` sets allowed."""

    def __init__(self, card: dict[str, Any], options: SignatureOptions) -> None:
        self.card = card
        self.options = options
        self.fetched: dict[str, KeySet | str] = {}
        self.deadline = options.deadline or Deadline.after(options.limits.timeout)
        self.forms: tuple[bytes, bytes] | None = None

    def run(self, entries: list[Any]) -> list[Problem]:
        problems: list[Problem] = []
        verified_over: list[str] = []
        checked = entries[:MAX_SIGNATURES]
        for index, entry in enumerate(checked):
            verdict, problem = self._one(index, entry)
            problems.append(problem)
            if verdict in ("spec", "sdk"):
                verified_over.append(verdict)
        if len(entries) > MAX_SIGNATURES:
            rest = len(entries) - MAX_SIGNATURES
            problems.append(
                _problem(
                    "warning",
                    "signature-unverified",
                    f"/signatures/{MAX_SIGNATURES}",
                    f"{counted(rest, 'more signature')} {'was' if rest == 1 else 'were'} not "
                    "checked (th-ext checks the first "
                    f"{MAX_SIGNATURES})",
                    "keep one signature per signing key",
                )
            )
        if "spec" in verified_over:
            # The card is verified: a signature that fails is reported, as a warning.
            # a2a-sdk rejects it unless another signature verifies over the SDK's own form.
            rejects = self._sdk_rejects() if "sdk" not in verified_over else []
            problems = [
                replace(p, severity="warning") if p.severity == "error" else p for p in problems
            ] + rejects
        elif self.options.require:
            problems.append(
                _problem(
                    "error",
                    "signature-unverified",
                    "/signatures",
                    "no signature verifies over section 8.4.1's canonical form, and one is "
                    "required",
                    "sign the card with a key the verifier trusts (th-ext sign)",
                )
            )
        return problems

    def _one(self, index: int, entry: Any) -> tuple[str, Problem]:
        path = f"/signatures/{index}"
        header = _protected_header(entry, path)
        if isinstance(header, Problem):
            return "header", header
        alg, kid = header["alg"], header["kid"]
        refused = _refused_alg(header, path)
        if refused is not None:
            return "alg", refused
        found, unreached = self._keys_for(kid, header.get("jku"))
        if not found:
            where = f"; {unreached}" if unreached else ""
            return "unverified", _problem(
                "warning",
                "signature-unverified",
                path,
                f"signature {index} (kid {kid!r}, {alg}) has no trusted key{where}",
                "give the signer's JWKS with --keys, or --fetch-keys for a jku on the card's "
                "origin",
            )
        fitting = [(key, source) for key, source in found if _fits(key, alg)]
        untried = len(fitting) - MAX_CANDIDATES
        fitting = fitting[:MAX_CANDIDATES]
        if not fitting:
            types = ", ".join(sorted({_key_type(key) for key, _ in found}))
            return "alg", _problem(
                "error",
                "signature-alg",
                f"{path}/protected",
                f"signature {index}: alg {alg} does not fit the key {kid!r} ({types})",
                f"sign with the algorithm the key is for, or give the key {alg} needs",
            )
        try:
            spec, sdk = self._forms()
        except CanonicalFormError as exc:
            return "invalid", _problem(
                "error", "signature-invalid", path, f"signature {index}: {exc}", ""
            )
        signed = entry["protected"].encode("ascii")
        signature = _b64decode(entry["signature"])
        failures: list[str] = []
        for key, source in fitting:
            algorithm = algorithm_for(alg)
            try:
                public = _from_jwk(algorithm, key)
            except KeysError as exc:
                failures.append(f"the key from {source} is not usable ({exc})")
                continue
            if signature is not None and _verifies(algorithm, public, signed, spec, signature):
                return "spec", _problem(
                    "info",
                    "signature-verified",
                    path,
                    f"signature {index} verified: kid {kid!r}, {alg}, key from {source}",
                    "",
                )
            if signature is not None and _verifies(algorithm, public, signed, sdk, signature):
                return "sdk", self._sdk_form_problem(index, path, kid, alg, source)
        reason = "; ".join(failures) or "it does not verify over section 8.4.1's canonical form"
        if untried > 0:
            reason += (
                f" ({counted(untried, 'more key')} with this kid "
                f"{'was' if untried == 1 else 'were'} not tried)"
            )
        return "invalid", _problem(
            "error",
            "signature-invalid",
            path,
            f"signature {index} (kid {kid!r}, {alg}) does not verify with its key: {reason}",
            "the card changed after it was signed, or was signed with another key: sign it again",
        )

    def _forms(self) -> tuple[bytes, bytes]:
        if self.forms is None:
            self.forms = (
                canonical_bytes(canonical_form(self.card)),
                canonical_bytes(sdk_form(self.card)),
            )
        return self.forms

    def _sdk_form_problem(self, index: int, path: str, kid: str, alg: str, source: str) -> Problem:
        canonical, sdk = canonical_form(self.card), sdk_form(self.card)
        where = first_difference(canonical, sdk, numbers_by_value=True) or ""
        return _problem(
            "warning",
            "signature-sdk-form",
            path,
            f"signature {index} (kid {kid!r}, {alg}, key from {source}) verifies only over "
            f"a2a-sdk's form, which drops {where or 'empty values'}; clients that follow "
            "section 8.4.1 reject it",
            "remove the empty values from the card, then sign it again: both forms then agree",
        )

    def _sdk_rejects(self) -> list[Problem]:
        try:
            spec, sdk = self._forms()
        except CanonicalFormError:
            return []
        if spec == sdk:
            return []
        found = empty_values(self.card)
        return [
            _problem(
                "warning",
                "signature-sdk-rejects",
                found[0] if found else "",
                f"a2a-sdk's verifier will reject the card: it drops {_listing(found)} before "
                "it checks, so the bytes differ from the ones signed",
                "remove those values from the card, then sign it again: both forms then agree",
            )
        ]

    def _keys_for(self, kid: str, jku: Any) -> tuple[list[tuple[dict[str, Any], str]], str]:
        """The keys with ``kid`` and where each came from, trusted ones first; with none, why."""
        sets = list(self.options.keys)
        unreached = ""
        if isinstance(jku, str):
            if jku not in self.fetched:  # each URL is read at most once
                self.fetched[jku] = self._read_jku(jku)
            fetched = self.fetched[jku]
            if isinstance(fetched, str):
                unreached = fetched
            else:
                sets.append(fetched)
        elif jku is not None:
            unreached = "its jku is not a string"
        found = [(key, each.source) for each in sets for key in each.keys if key.get("kid") == kid]
        if not found and not unreached and isinstance(jku, str):
            unreached = f"jku {shown_url(jku)} has no key {kid!r}"
        return found, unreached

    def _read_jku(self, jku: str) -> KeySet | str:
        shown = shown_url(jku)
        if not self.options.fetch_keys:
            return f"jku {shown} not contacted (--fetch-keys not given)"
        card_url = self.options.card_url
        if card_url is None:
            return f"jku {shown} not contacted (the card was not read from a URL)"
        own, target = origin_of(card_url), origin_of(jku)
        if target is None or target != own:
            return f"jku {shown} not contacted: it is not on the card's origin ({own})"
        if target.scheme != "https" and not _loopback(target.host):
            return f"jku {shown} not contacted: http is allowed only on a loopback address"
        from th_ext.net._fetch import fetch

        remaining = self.deadline.remaining()
        # what is left after a read that took the time there was is no time for another read
        if remaining < _LEAST_READ:
            return f"jku {shown} not contacted: the --timeout for reading keys was spent"
        try:
            result = fetch(
                jku,
                scope=HeaderScope(),
                deadline=Deadline.after(remaining, f"no complete answer within {remaining:.3g} s"),
                max_bytes=self.options.limits.max_bytes,
                same_origin=True,
            )
            return parse_jwks(result.body, f"jku {shown}")
        except (SourceError, KeysError) as exc:
            return f"jku {shown} gave no keys ({exc})"


def _protected_header(entry: Any, path: str) -> dict[str, Any] | Problem:
    """The signature's protected header, checked; or the ``signature-header`` problem."""

    def header_problem(message: str, where: str = path) -> Problem:
        return _problem(
            "error",
            "signature-header",
            where,
            message,
            'protected is the base64url of a JSON object with "alg" and "kid" (section 8.4.2)',
        )

    index = path.rsplit("/", 1)[1]
    if not isinstance(entry, dict):
        return header_problem(f"signature {index} is not an object")
    protected, signature = entry.get("protected"), entry.get("signature")
    if not isinstance(protected, str) or not isinstance(signature, str):
        return header_problem(f"signature {index} needs protected and signature, both strings")
    if _b64decode(signature) is None:
        return header_problem(f"signature {index}: signature is not base64url", f"{path}/signature")
    where = f"{path}/protected"
    if len(protected) > MAX_HEADER_BYTES * 4 // 3 + 4:
        return header_problem(
            f"signature {index}: the protected header is over {MAX_HEADER_BYTES} bytes", where
        )
    raw = _b64decode(protected)
    if raw is None:
        return header_problem(f"signature {index}: protected is not base64url", where)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return header_problem(f"signature {index}: the protected header is not UTF-8", where)
    if _depth(text) > MAX_HEADER_DEPTH:
        return header_problem(
            f"signature {index}: the protected header is nested deeper than {MAX_HEADER_DEPTH}",
            where,
        )
    try:
        header = json.loads(text, object_pairs_hook=_no_repeats)
    except _RepeatedMemberError as exc:
        return header_problem(
            f"signature {index}: the protected header repeats {exc.args[0]!r}", where
        )
    except (ValueError, RecursionError):
        return header_problem(f"signature {index}: the protected header is not JSON", where)
    if not isinstance(header, dict):
        return header_problem(
            f"signature {index}: the protected header is not a JSON object", where
        )
    for name in ("alg", "kid"):
        if not isinstance(header.get(name), str) or not header[name]:
            return header_problem(f"signature {index}: the protected header has no {name!r}", where)
    unprotected = entry.get("header")
    if unprotected is not None:
        if not isinstance(unprotected, dict):
            return header_problem(f"signature {index}: header is not an object", f"{path}/header")
        both = sorted(set(unprotected) & set(header))
        if both:
            return header_problem(
                f"signature {index}: {both[0]!r} is in both the protected and the unprotected "
                "header",
                f"{path}/header",
            )
    return header


def _refused_alg(header: dict[str, Any], path: str) -> Problem | None:
    alg, index = header["alg"], path.rsplit("/", 1)[1]
    where = f"{path}/protected"
    if alg.lower() == "none":
        message, hint = "alg none: an unsigned signature", "sign with a private key"
    elif alg.upper().startswith("HS"):
        message = f"alg {alg} (HMAC): a shared secret proves nothing about who signed a card"
        hint = "sign with a private key (ES256, RS256, PS256, EdDSA ...)"
    elif alg not in _FITS:
        message, hint = (
            f"alg {alg!r} is not one th-ext verifies",
            f"use one of {', '.join(ALGORITHMS)}",
        )
    elif "crit" in header:
        crit = header["crit"]
        named = ", ".join(map(repr, crit)) if isinstance(crit, list) else repr(crit)
        message = f"crit names {named}, which th-ext does not implement (RFC 7515 section 4.1.11)"
        hint = "sign without crit"
    else:
        return None
    return _problem("error", "signature-alg", where, f"signature {index}: {message}", hint)


def sign_card(
    data: bytes,
    key_text: bytes,
    *,
    kid: str,
    jku: str | None = None,
    alg: str | None = None,
    password: bytes | None = None,
    key_name: str = "the key",
) -> SignedCard:
    """``data`` (a card's text) with one more signature over section 8.4.1's form.

    ``key_text`` is a private key, PEM or JWK (an encrypted PEM with its ``password``), named
    ``key_name`` in a ``KeysError`` (``--key k.pem`` on the command line). The
    protected header is ``alg``, ``typ`` ``JOSE``, ``kid`` and ``jku`` when given; ``alg``
    defaults to what the key is for (ES256 for a P-256 key). Every byte of ``data`` outside the
    ``signatures`` array stays as it was, line endings included. Raises ``KeysError`` (the key,
    ``kid`` or ``jku``), ``UnsignableCardError`` (a byte-order mark, a repeated member, a
    ``signatures`` that is not an array) or ``ValueError`` (the card is not a JSON object).
    """
    check_kid(kid)
    if jku is not None:
        check_jku(jku)
    if data.startswith(_BOM):
        raise UnsignableCardError(
            "the card starts with a UTF-8 byte-order mark, which validate refuses "
            "(byte-order-mark): remove it, then sign"
        )
    text = data.decode("utf-8")
    try:
        card = json.loads(text, object_pairs_hook=_no_repeats)
    except RecursionError:
        raise UnsignableCardError(f"the card is nested deeper than {MAX_DEPTH} levels") from None
    except _RepeatedMemberError as exc:
        raise UnsignableCardError(
            f"the card repeats the member {cut(exc.args[0], 80)!r}, so which value is signed "
            "is ambiguous: keep one, then sign"
        ) from None
    if not isinstance(card, dict):
        raise ValueError("the card is not a JSON object")
    if "signatures" in card and not isinstance(card["signatures"], list):
        raise UnsignableCardError(
            f'"signatures" is {_json_kind(card["signatures"])}, not an array: make it an array '
            "of signatures or remove it, then sign"
        )
    private, key_alg = load_key(key_text, key_name, password=password)
    alg = alg or key_alg
    fitting_key(algorithm_for(key_alg).to_jwk(private, as_dict=True), alg, key_name)
    algorithm = algorithm_for(alg)
    header: dict[str, str] = {"alg": alg, "typ": "JOSE", "kid": kid}
    if jku is not None:
        header["jku"] = jku
    header_bytes = json.dumps(header, separators=(",", ":")).encode()
    if len(header_bytes) > MAX_HEADER_BYTES:  # a kid and jku of characters JSON escapes
        raise KeysError(
            f"--kid and --jku make a protected header of {len(header_bytes):,} bytes, more than "
            f"the {MAX_HEADER_BYTES:,} validate accepts: give a shorter kid or jku"
        )
    protected = _b64encode(header_bytes)
    payload = canonical_bytes(canonical_form(card))
    signature = algorithm.sign(f"{protected}.{_b64encode(payload)}".encode("ascii"), private)
    entry = json.dumps({"protected": protected, "signature": _b64encode(signature)})
    rejects = ""
    if payload != canonical_bytes(sdk_form(card)):
        rejects = (
            f"a2a-sdk 1.3's verifier will reject this signature: it drops "
            f"{_listing(empty_values(card))} before it checks; remove them and sign again for "
            "both forms to agree"
        )
    return SignedCard(_insert(text, entry).encode("utf-8"), alg, rejects)


def check_kid(kid: str) -> str:
    """``kid`` when it is usable in a JWKS and a protected header: not empty, at most
    ``MAX_KID`` characters, no control or format character; ``KeysError`` otherwise."""
    if not kid:
        raise KeysError("--kid is empty")
    if len(kid) > MAX_KID:
        raise KeysError(f"--kid is {len(kid)} characters long, more than {MAX_KID}")
    for char in kid:
        if unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp"):
            raise KeysError(
                f"--kid holds the control character U+{ord(char):04X}: a kid is printable text"
            )
    return kid


def check_jku(jku: str) -> str:
    """``jku`` when it is an absolute http(s) URL with a host, at most ``MAX_JKU`` characters,
    with no space or control character; ``KeysError`` otherwise."""
    if not jku:
        raise KeysError("--jku is empty: give the http(s) URL where the JWKS is served")
    if len(jku) > MAX_JKU:
        raise KeysError(
            f"--jku is {len(jku):,} characters long, more than {MAX_JKU:,}: give a shorter URL "
            "where the JWKS is served"
        )
    scheme = jku.split(":", 1)[0].lower() if ":" in jku else ""
    for char in jku if scheme in ("http", "https") else ():
        if char.isspace() or unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp"):
            raise KeysError(
                f"--jku holds the character U+{ord(char):04X}: a URL has no space or control "
                "character"
            )
    problem = url_problem(jku) if scheme in ("http", "https") else "not an http(s) URL"
    if not problem and origin_of(jku) is None:
        problem = "not an http(s) URL with a host"
    if problem:
        raise KeysError(
            f"--jku {shown_url(jku)!r}: {problem}; give the absolute http(s) URL where the "
            "JWKS is served"
        )
    return jku


def fitting_key(jwk: dict[str, Any], alg: str, source: str) -> None:
    """Nothing when the key of ``jwk`` (its ``kty`` and ``crv``) can sign with ``alg``;
    ``KeysError`` naming ``source`` otherwise."""
    if alg not in _FITS:
        raise KeysError(f"--alg {alg}: th-ext signs with {', '.join(ALGORITHMS)}")
    shape = {k: v for k, v in jwk.items() if k in ("kty", "crv")}
    if not _fits(shape, alg):
        kty, curves = _FITS[alg]
        needed = f"{kty} {' or '.join(curves)}".strip()
        held = _key_type(shape)
        raise KeysError(
            f"{source}: --alg {alg} does not fit the key ({held}): {alg} needs an {needed} key"
        )


def public_members(jwk: dict[str, Any]) -> dict[str, Any]:
    """The members of ``jwk`` that a JWKS publishes: never a private one (``d``, ``p``...)."""
    return {k: v for k, v in jwk.items() if k in _PUBLIC_MEMBERS}


def load_key(
    key_text: bytes, source: str, *, password: bytes | None = None, public: bool = False
) -> tuple[Any, str]:
    """The key in ``key_text`` (PEM or JWK) and the algorithm it is for; a private key, or
    with ``public`` a public one too. ``KeysError`` naming ``source`` when it is not one."""
    # cryptography is imported here, when a key is read, never on validate's start-up.
    from cryptography.exceptions import UnsupportedAlgorithm
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec, ed448, ed25519, rsa

    wanted = "key" if public else "private key"
    key: Any
    if key_text.lstrip().startswith(b"-----BEGIN"):
        label = key_text.lstrip().split(b"\n", 1)[0]
        if b"PUBLIC KEY" in label:
            if not public:
                raise KeysError(f"{source}: a public key cannot sign: give the private key")
            try:
                key = serialization.load_pem_public_key(key_text)
            except (ValueError, TypeError, UnsupportedAlgorithm) as exc:
                raise KeysError(f"{source}: not a usable PEM public key ({_short(exc)})") from None
            if isinstance(key, rsa.RSAPublicKey) and key.key_size > MAX_RSA_BITS:
                raise KeysError(f"{source}: {_too_large(f'{key.key_size:,} bits')}")
        else:
            key = _pem_private_key(key_text, source, password)
    else:
        key, named = _jwk_key(key_text, source, wanted, public)
        if named is not None:
            return key, named
    private_types = (
        ec.EllipticCurvePrivateKey,
        rsa.RSAPrivateKey,
        ed25519.Ed25519PrivateKey,
        ed448.Ed448PrivateKey,
    )
    if not public and not isinstance(key, private_types):
        raise KeysError(f"{source}: a public key cannot sign: give the private key")
    if isinstance(key, ec.EllipticCurvePrivateKey | ec.EllipticCurvePublicKey):
        alg = _CURVE_ALGORITHMS.get(key.curve.name)
        if alg is None:
            raise KeysError(f"{source}: curve {key.curve.name} is not one A2A signers use")
        return key, alg
    if isinstance(key, rsa.RSAPrivateKey | rsa.RSAPublicKey):
        return key, "RS256"
    if isinstance(
        key,
        ed25519.Ed25519PrivateKey
        | ed448.Ed448PrivateKey
        | ed25519.Ed25519PublicKey
        | ed448.Ed448PublicKey,
    ):
        return key, "EdDSA"
    raise KeysError(f"{source}: an EC, RSA, Ed25519 or Ed448 key is needed")


def _pem_private_key(key_text: bytes, source: str, password: bytes | None) -> Any:
    from cryptography.exceptions import UnsupportedAlgorithm
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    head = key_text.lstrip()[:200]
    encrypted = b"ENCRYPTED" in head.split(b"\n\n", 1)[0]
    if encrypted and password is None:
        raise KeysError(
            f"{source}: the PEM key is encrypted: give its password with --password-file FILE "
            "or the TH_EXT_KEY_PASSWORD environment variable"
        )
    given = password if encrypted else None
    try:
        # The size of an RSA key first, with no arithmetic on its numbers; then the key in full.
        key = serialization.load_pem_private_key(
            key_text, given, unsafe_skip_rsa_key_validation=True
        )
        if isinstance(key, rsa.RSAPrivateKey):
            if key.key_size > MAX_RSA_BITS:
                raise KeysError(f"{source}: {_too_large(f'{key.key_size:,} bits')}")
            key = serialization.load_pem_private_key(key_text, given)
        return key
    except (ValueError, TypeError, UnsupportedAlgorithm) as exc:
        if encrypted:
            raise KeysError(f"{source}: the password does not decrypt the PEM key") from None
        raise KeysError(f"{source}: not a usable PEM private key ({_short(exc)})") from None


def _jwk_key(key_text: bytes, source: str, wanted: str, public: bool) -> tuple[Any, str | None]:
    """The key of a JWK, and the algorithm the JWK names for it (``None`` when it names none
    that th-ext signs with)."""
    try:
        jwk = json.loads(key_text)
    except (ValueError, RecursionError):
        raise KeysError(f"{source}: not a key (neither a PEM {wanted} nor a JWK)") from None
    if not isinstance(jwk, dict) or "kty" not in jwk:
        raise KeysError(f"{source}: not a key (neither a PEM {wanted} nor a JWK: JSON with no kty)")
    if jwk.get("kty") not in ("EC", "RSA", "OKP"):
        raise KeysError(f"{source}: the JWK is not an EC, RSA or OKP {wanted}")
    if "d" not in jwk and not public:
        raise KeysError(
            f"{source}: the JWK is a public key, which cannot sign: give the private key"
        )
    family = {"EC": "ES256", "RSA": "RS256", "OKP": "EdDSA"}[jwk["kty"]]
    try:
        key = _from_jwk(algorithm_for(family), jwk)
    except KeysError as exc:
        raise KeysError(f"{source}: the JWK is not a usable key ({exc})") from None
    named = jwk.get("alg")
    return key, named if isinstance(named, str) and named in _FITS else None


def _from_jwk(algorithm: Algorithm, jwk: dict[str, Any]) -> Any:
    """The ``cryptography`` key of a JWK; ``KeysError`` naming what is wrong with it. An RSA
    member longer than ``MAX_RSA_BITS`` is refused before any arithmetic on it: a private key
    given by ``d`` alone has its primes recovered, which takes seconds at 16,384 bits and does
    not end on a number of megabytes."""
    from jwt.exceptions import InvalidKeyError

    if jwk.get("kty") == "RSA":
        longest = (MAX_RSA_BITS // 8 * 4 + 2) // 3  # base64url characters, without padding
        for member in ("n", "e", "d", "p", "q", "dp", "dq", "qi"):
            value = jwk.get(member)
            if isinstance(value, str) and len(value) > longest:
                raise KeysError(_too_large(f"{member!r} holds {len(value) * 6:,} bits"))
    try:
        return algorithm.from_jwk(jwk)
    except (InvalidKeyError, ValueError, KeyError, TypeError) as exc:
        raise KeysError(_short(exc)) from None


def _too_large(held: str) -> str:
    return f"an RSA key of more than {MAX_RSA_BITS:,} bits ({held}), which no signer uses"


def _insert(text: str, entry: str) -> str:
    """``text`` with ``entry`` appended to its top-level ``signatures`` array (made when
    absent); every other character kept."""
    decoder = json.JSONDecoder()
    start = _skip(text, 0)
    if text[start : start + 1] != "{":
        raise ValueError("the card is not a JSON object")
    position, last_end = _skip(text, start + 1), start + 1
    span: tuple[int, int] | None = None
    indent = re.match(r"[ \t]*(\r?\n)([ \t]*)", text[start + 1 :])
    while text[position : position + 1] == '"':
        name, position = decoder.raw_decode(text, position)
        position = _skip(text, _skip(text, position) + 1)  # past the colon
        value, end = decoder.raw_decode(text, position)
        if name == "signatures" and isinstance(value, list):
            span = (position, end)
        last_end = end
        position = _skip(text, end)
        if text[position : position + 1] == ",":
            position = _skip(text, position + 1)
    if span is not None:
        close = span[1] - 1
        after = len(text[:close].rstrip())  # just after the last item (or the "[")
        inner = text[span[0] + 1 : close].strip()
        return text[:after] + (", " if inner else "") + entry + text[after:]
    if indent is not None:
        member = f',{indent.group(1)}{indent.group(2)}"signatures": [{entry}]'
    else:
        member = f', "signatures": [{entry}]'
    if last_end == start + 1:  # no member before it
        member = member.lstrip(", ")
    return text[:last_end] + member + text[last_end:]


def _skip(text: str, position: int) -> int:
    while position < len(text) and text[position] in " \t\r\n":
        position += 1
    return position


def algorithm_for(alg: str) -> Algorithm:
    """PyJWT's algorithm ``alg`` (one of ``ALGORITHMS``)."""
    # PyJWT (and cryptography under it) is imported when a signature is checked or made:
    # measured, it adds about 40 ms, which an unsigned card's validation never pays.
    from jwt.algorithms import get_default_algorithms

    return get_default_algorithms()[alg]


def _verifies(
    algorithm: Algorithm, key: Any, protected: bytes, payload: bytes, signature: bytes
) -> bool:
    signing_input = protected + b"." + _b64encode(payload).encode("ascii")
    try:
        return bool(algorithm.verify(signing_input, key, signature))
    except (ValueError, TypeError):
        return False


def _fits(key: dict[str, Any], alg: str) -> bool:
    kty, curves = _FITS[alg]
    if key.get("kty") != kty or (curves and key.get("crv") not in curves):
        return False
    if "alg" in key and key["alg"] != alg:
        return False
    if "use" in key and key["use"] != "sig":
        return False
    ops = key.get("key_ops")
    return not isinstance(ops, list) or "verify" in ops or "sign" in ops


def _key_type(key: dict[str, Any]) -> str:
    parts = [str(key.get("kty")), str(key.get("crv", ""))]
    if "alg" in key:
        parts.append(f"alg {key['alg']}")
    if "use" in key:
        parts.append(f"use {key['use']}")
    return " ".join(p for p in parts if p)


def _b64decode(text: str) -> bytes | None:
    if len(text) % 4 == 1 or not _BASE64URL.fullmatch(text):
        return None
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None


def _b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


class _RepeatedMemberError(ValueError):
    pass


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for name, value in pairs:
        if name in seen:
            raise _RepeatedMemberError(name)
        seen[name] = value
    return seen


def _depth(text: str) -> int:
    """The deepest bracket nesting of a JSON text, strings skipped (one pass, no recursion)."""
    deepest = level = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            level += 1
            deepest = max(deepest, level)
        elif char in "]}":
            level -= 1
    return deepest


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return str(value).lower()
    kinds = ((str, "a string"), (dict, "an object"), (int | float, "a number"))
    return next(kind for each, kind in kinds if isinstance(value, each))


def _listing(pointers: list[str]) -> str:
    if not pointers:
        return "empty values"
    shown = ", ".join(pointers[:MAX_SHOWN])
    more = len(pointers) - MAX_SHOWN
    return shown + (f" and {more} more" if more > 0 else "")


def _short(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:160]


def _problem(severity: Any, code: str, path: str, message: str, hint: str) -> Problem:
    return Problem(severity, code, path, message, hint, "card")
