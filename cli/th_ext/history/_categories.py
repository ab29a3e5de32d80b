"""The stable categories of an outcome, and how a run's JSON Lines document maps to one."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

__all__ = [
    "CATEGORIES",
    "CODE_CATEGORIES",
    "Category",
    "category_of",
    "category_of_code",
    "problem_counts",
    "signature_status",
]


@dataclass(frozen=True, slots=True)
class Category:
    """One stable category: its ``name`` (what the store and JSON hold) and what it means.
    A name never changes meaning; a new one may be added."""

    name: str
    title: str
    meaning: str


CATEGORIES: tuple[Category, ...] = (
    Category("passed", "Passed", "The source passed: exit code 0."),
    Category(
        "unreachable",
        "Unreachable",
        "Nothing came back: DNS, connection refused, TLS, a timeout, a redirect that could not "
        "be followed, a file that could not be read, an agent none of whose interfaces answered.",
    ),
    Category(
        "http-status",
        "HTTP status",
        "The server answered the card's request with an HTTP status other than 200.",
    ),
    Category(
        "caching",
        "Caching headers",
        "The card's HTTP caching headers break A2A 1.0 section 8.6.1 (no Cache-Control or "
        "max-age, caching forbidden, no ETag, a malformed header): warnings, which fail a run "
        "under --strict.",
    ),
    Category(
        "not-a-card",
        "Not a card",
        "Something came back but it is not a card document: not UTF-8, not JSON, empty, too "
        "large or too deep, not a JSON object.",
    ),
    Category(
        "card-invalid",
        "Card invalid",
        "The card breaks A2A 1.0's AgentCard (missing or mistyped fields, unknown protocol "
        "binding), or it is a card conform cannot check (A2A 0.3, no interface to reach).",
    ),
    Category(
        "extension-invalid",
        "Extension invalid",
        "The card's tiny-harness extension declaration or its params are wrong, or a required "
        "extension is not declared.",
    ),
    Category(
        "signature",
        "Signature",
        "A card signature is invalid, or could not be verified with the keys given "
        "(--require-signature, --keys).",
    ),
    Category(
        "protocol",
        "Protocol error",
        "conform: the agent broke a rule of core A2A (JSON-RPC errors, wrong content type, "
        "task states) while the extension's own requirements held.",
    ),
    Category(
        "conformance",
        "Conformance failure",
        "conform: a MUST requirement of the extension failed (the codes are the requirement "
        "IDs, such as CMD-5).",
    ),
    Category(
        "bad-input",
        "Bad input",
        "The list entry itself could not be used (a line that is not a source, an option out "
        "of range).",
    ),
    Category(
        "other",
        "Other",
        "An error of th-ext's own parts (its catalog or bundled schemas), or a code this "
        "th-ext does not know (written by a newer th-ext).",
    ),
)

_RANK = {category.name: rank for rank, category in enumerate(CATEGORIES)}

CODE_CATEGORIES: dict[str, str] = {
    # the source could not be read
    "unreachable": "unreachable",
    "unreadable": "unreachable",
    "network-error": "unreachable",
    "origin-failed": "unreachable",
    "timeout": "unreachable",
    "deadline": "unreachable",
    "redirect-loop": "unreachable",
    "redirect-not-http": "unreachable",
    "redirect-off-origin": "unreachable",
    "too-many-redirects": "unreachable",
    "bad-redirect": "unreachable",
    "http-error": "http-status",
    # the card response's caching headers (A2A 1.0 section 8.6.1)
    "card-cache-control-missing": "caching",
    "card-cache-control-malformed": "caching",
    "card-cache-forbidden": "caching",
    "card-cache-max-age-missing": "caching",
    "card-cache-max-age-too-long": "caching",
    "card-etag-missing": "caching",
    "card-etag-malformed": "caching",
    "card-last-modified-malformed": "caching",
    "card-expires-malformed": "caching",
    # notices about how the source was read (never errors)
    "header-withheld": "unreachable",
    "deprecated-well-known-path": "unreachable",
    # the document
    "too-large": "not-a-card",
    "invalid-json": "not-a-card",
    "invalid-utf8": "not-a-card",
    "empty-document": "not-a-card",
    "byte-order-mark": "not-a-card",
    "duplicate-key": "not-a-card",
    "non-finite-number": "not-a-card",
    "number-too-long": "not-a-card",
    "too-deep": "not-a-card",
    "not-an-object": "not-a-card",
    # the card (A2A 1.0)
    "missing-field": "card-invalid",
    "wrong-type": "card-invalid",
    "empty-field": "card-invalid",
    "empty-array": "card-invalid",
    "empty-oneof": "card-invalid",
    "oneof-conflict": "card-invalid",
    "unknown-field": "card-invalid",
    "no-known-field": "card-invalid",
    "duplicate-skill-id": "card-invalid",
    "unknown-protocol-binding": "card-invalid",
    "invalid-url": "card-invalid",
    "more-problems": "card-invalid",
    "too-many-problems": "card-invalid",
    "conform": "card-invalid",
    # the extensions
    "schema-violation": "extension-invalid",
    "command-name-pattern": "extension-invalid",
    "command-runs-on": "extension-invalid",
    "duplicate-command": "extension-invalid",
    "duplicate-extension": "extension-invalid",
    "extension-draft": "extension-invalid",
    "extension-not-checked": "extension-invalid",
    "extension-not-on-card": "extension-invalid",
    "extension-schema-unknown": "extension-invalid",
    "missing-extension": "extension-invalid",
    "near-miss-extension-uri": "extension-invalid",
    "no-known-extension": "extension-invalid",
    "required-extension": "extension-invalid",
    "family-schema-changed": "extension-invalid",
    "family-schema-not-fetched": "extension-invalid",
    # signatures
    "signature-alg": "signature",
    "signature-header": "signature",
    "signature-invalid": "signature",
    "signature-sdk-form": "signature",
    "signature-sdk-rejects": "signature",
    "signature-unverified": "signature",
    "signature-verified": "signature",
    # the run's input
    "bad-argument": "bad-input",
    "bad-list-line": "bad-input",
    "bad-header-origin": "bad-input",
    "bad-jobs": "bad-input",
    "bad-max-bytes": "bad-input",
    "bad-origin-failures": "bad-input",
    "bad-per-origin": "bad-input",
    "bad-rate": "bad-input",
    "bad-retries": "bad-input",
    "bad-timeout": "bad-input",
    "unknown-code": "bad-input",
    "har": "bad-input",
    # the exchange with an agent, and keys
    "message": "protocol",
    "dispatch": "protocol",
    "canonical-form": "signature",
    "keys": "signature",
    "unsignable-card": "signature",
    # th-ext's own parts (its catalog, schemas, site): never the agent's doing
    "catalog": "other",
    "schema": "other",
    "command-registration": "other",
    "demo-unavailable": "other",
    "publish": "other",
    "published-schema-changed": "other",
    "site-build": "other",
    "subtree-conflict": "other",
    "host-schema-drift": "other",
    "unsafe-path": "other",
    "format": "other",
}
"""Every problem code (``validate``'s problems) and error code (the error document of a source
that could not be checked) th-ext emits, with its category."""

_LAYER_CATEGORIES = {
    "source": "unreachable",
    "document": "not-a-card",
    "card": "card-invalid",
    "extension": "extension-invalid",
}
_CORE_RULE = re.compile(r"^A2A-")
_SIGNATURE_STATUSES = (
    ("signature-invalid", "invalid"),
    ("signature-unverified", "unverified"),
    ("signature-verified", "verified"),
)


def category_of_code(code: str, layer: str | None = None) -> str:
    """The category of one problem or error ``code`` (``layer``, when known, places a code this
    th-ext does not know)."""
    known = CODE_CATEGORIES.get(code)
    if known is not None:
        return known
    if _CORE_RULE.match(code):
        return "protocol"
    if code[:1].isupper():  # a requirement ID of the extension (conform)
        return "conformance"
    return _LAYER_CATEGORIES.get(layer or "", "other")


def problem_counts(document: dict[str, Any]) -> dict[str, int]:
    """The problem codes of a run's document, each with how many times it occurs: validate's
    problems (every severity); conform's failed and warned requirements (by ID); the error
    document's one code."""
    error = document.get("error")
    if isinstance(error, dict):
        return {str(error.get("code") or "error"): 1}
    counts: Counter[str] = Counter()
    for problem in _list(document.get("problems")):
        if isinstance(problem, dict) and isinstance(problem.get("code"), str):
            counts[problem["code"]] += 1
    for key in ("requirements", "core"):
        for result in _list(document.get(key)):
            if isinstance(result, dict) and result.get("status") in ("fail", "warn"):
                counts[str(result.get("id"))] += 1
    return dict(counts)


def category_of(document: dict[str, Any], exit_code: int) -> str:
    """The primary category of one outcome: ``passed`` for exit code 0, otherwise the first
    (in ``CATEGORIES`` order) category among its errors, then among its warnings."""
    if exit_code == 0:
        return "passed"
    error = document.get("error")
    if isinstance(error, dict):
        return category_of_code(str(error.get("code") or ""))
    found: dict[str, set[str]] = {"error": set(), "warning": set()}
    for problem in _list(document.get("problems")):
        if isinstance(problem, dict) and problem.get("severity") in found:
            code = str(problem.get("code") or "")
            layer = problem.get("layer")
            found[problem["severity"]].add(category_of_code(code, str(layer) if layer else None))
    for key in ("requirements", "core"):
        for result in _list(document.get(key)):
            if isinstance(result, dict) and result.get("status") in ("fail", "warn"):
                severity = "error" if result["status"] == "fail" else "warning"
                found[severity].add(category_of_code(str(result.get("id") or "")))
    for severity in ("error", "warning"):
        if found[severity]:
            return min(found[severity], key=lambda name: _RANK.get(name, len(_RANK)))
    return "other"


def signature_status(document: dict[str, Any]) -> str | None:
    """``invalid``, ``unverified`` or ``verified`` when the card's signatures were checked
    (the worst of them), ``None`` when they were not."""
    codes = {
        problem.get("code")
        for problem in _list(document.get("problems"))
        if isinstance(problem, dict)
    }
    for code, status in _SIGNATURE_STATUSES:
        if code in codes:
            return status
    return None


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
