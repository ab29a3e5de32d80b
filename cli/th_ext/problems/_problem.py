"""One finding of a check (``Problem``), every code a problem can have (``CODES``) and which count
in a run (``Selection``), and a check that could not run at all, as data (``error_record``)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal

from th_ext._exceptions import ThExtError, UnknownCodeError
from th_ext.net import redact
from th_ext.problems._text import closest_name, quoted

__all__ = [
    "CODES",
    "LAYERS",
    "Code",
    "Layer",
    "Problem",
    "Selection",
    "Severity",
    "error_code",
    "error_record",
]

Severity = Literal["error", "warning", "info"]
"""``info`` is a notice that never fails a check, not even with ``--strict``."""
Layer = Literal["source", "document", "card", "extension"]

#: The layers in the order they are checked and printed.
LAYERS: tuple[Layer, ...] = ("source", "document", "card", "extension")


@dataclass(frozen=True, slots=True)
class Problem:
    """A finding. ``path`` is an RFC 6901 JSON pointer into the card ("" is the whole document).

    ``code`` is stable and kebab-case, for programs; ``message`` is one line, for people; ``hint``
    says what to do about it. ``fatal`` marks a problem that left no card to check. ``line``
    and ``column`` (1-based) place ``path`` in the source text, when the card was read as text.
    ``excerpt`` is the source text at the problem, when it helps (a JSON syntax error's line
    with a caret under the column). ``at_key`` places the problem at the member's key instead of
    its value (a key that should not be there); ``hidden`` is how many more problems of its
    kind this one stands for (an "and M more" summary), so that totals count every problem,
    and ``counts_code`` is that kind's code. A dataclass, not a pydantic model, so that checking
    a card never imports pydantic.
    """

    severity: Severity
    code: str
    path: str
    message: str
    hint: str = ""
    layer: Layer = "card"
    fatal: bool = False
    line: int | None = None
    column: int | None = None
    excerpt: str = ""
    at_key: bool = False
    hidden: int = 0
    counts_code: str = ""

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def to_dict(self) -> dict[str, str | int]:
        """The problem as it appears in the JSON report (``line``, ``column`` and ``excerpt``
        when known)."""
        data: dict[str, str | int] = {
            "severity": self.severity,
            "code": self.code,
            "layer": self.layer,
            "path": self.path,
            "message": self.message,
            "hint": self.hint,
        }
        if self.line is not None and self.column is not None:
            data["line"] = self.line
            data["column"] = self.column
        if self.excerpt:
            data["excerpt"] = self.excerpt
        return data


@dataclass(frozen=True, slots=True)
class Code:
    """A problem code: its usual ``severity`` (a check may report it otherwise, as the
    reference page says), the ``layer`` it is found in, and ``help``, one sentence saying what
    it means. ``unread`` marks a code that leaves no card to check (exit code 2)."""

    code: str
    severity: Severity
    layer: Layer | None
    """``None``: any layer."""
    help: str
    unread: bool = False


def _codes(*codes: Code) -> Mapping[str, Code]:
    return MappingProxyType({code.code: code for code in codes})


def _source(code: str, help: str, severity: Severity = "error") -> Code:
    return Code(code, severity, "source", help, unread=severity == "error")


CODES: Mapping[str, Code] = _codes(
    # reading the card
    _source("bad-argument", "The source is not a path, - or an http(s) URL."),
    _source("bad-list-line", "A line of the --from list that names no source to check."),
    _source("unreadable", "The file does not exist, is a directory, or cannot be read."),
    _source("too-large", "The card is larger than --max-bytes (after decompression)."),
    _source(
        "network-error", "The connection failed: refused, unknown host, TLS, or the server hung up."
    ),
    _source("timeout", "The fetch took longer than --timeout."),
    _source("http-error", "The server answered with a status other than 2xx."),
    _source("too-many-redirects", "More than 5 redirects."),
    _source("redirect-loop", "A redirect to a URL already visited."),
    _source("redirect-not-http", "A redirect to a URL that is not http or https."),
    _source("bad-redirect", "A redirect without a Location, or to one that is not a URL."),
    _source(
        "origin-failed",
        "Not checked: the source's origin failed --origin-failures sources in a row in this run.",
    ),
    _source(
        "deadline", "The check did not finish within --timeout (the card was read, not checked)."
    ),
    _source("unreachable", "conform: the agent's interfaces could not be reached."),
    _source("conform", "conform could not start: no usable card, interface or command to check."),
    _source(
        "deprecated-well-known-path",
        "The card was found only at the pre-0.3 /.well-known/agent.json.",
        "warning",
    ),
    _source(
        "header-withheld",
        "A redirect led to another origin, which was sent no --header value.",
        "warning",
    ),
    # how the card is served (A2A 1.0 section 8.6.1), for a card read over HTTP
    _source("card-cache-control-missing", "The card response has no Cache-Control.", "warning"),
    _source(
        "card-cache-forbidden",
        "Cache-Control forbids caching (no-store, no-cache, max-age=0) and is not private.",
        "warning",
    ),
    _source("card-cache-max-age-missing", "Cache-Control gives no max-age.", "warning"),
    _source("card-cache-max-age-too-long", "max-age is over a year.", "warning"),
    _source("card-cache-control-malformed", "Cache-Control breaks RFC 9111's grammar.", "warning"),
    _source("card-etag-missing", "The card response has no ETag.", "warning"),
    _source("card-etag-malformed", "ETag is not one quoted entity tag.", "warning"),
    _source(
        "card-last-modified-malformed",
        "Last-Modified is not one HTTP date in the IMF-fixdate form.",
        "warning",
    ),
    _source(
        "card-expires-malformed", "Expires is not one HTTP date in the IMF-fixdate form.", "warning"
    ),
    # the document
    Code("empty-document", "error", "document", "The body is empty.", unread=True),
    Code("invalid-utf8", "error", "document", "The bytes are not UTF-8.", unread=True),
    Code("invalid-json", "error", "document", "The body is not JSON.", unread=True),
    Code(
        "too-deep",
        "error",
        "document",
        "Arrays and objects nested more than 64 deep.",
        unread=True,
    ),
    Code(
        "number-too-long",
        "error",
        "document",
        "A number with more digits than Python reads (4300).",
        unread=True,
    ),
    Code(
        "not-an-object",
        "error",
        "document",
        "The document is an array or a scalar, not a JSON object.",
        unread=True,
    ),
    Code("byte-order-mark", "error", "document", "The document starts with a byte-order mark."),
    Code("duplicate-key", "error", "document", "A key appears more than once in one object."),
    Code("non-finite-number", "error", "document", "NaN or Infinity, which JSON does not have."),
    # the card (A2A 1.0)
    Code("missing-field", "error", "card", "A required field is absent."),
    Code("wrong-type", "error", "card", "A field has the wrong JSON type."),
    Code("empty-field", "error", "card", "A required string is empty."),
    Code("empty-array", "error", "card", "A required array has no element."),
    Code("a2a-0.3-card", "error", "card", "The card is in the A2A 0.3 (or older) form."),
    Code(
        "a2a-0.3-compat-field",
        "info",
        "card",
        "A 0.3 top-level field on a card that also lists a 0.x interface.",
    ),
    Code("a2a-0.3-field", "warning", "card", "A field A2A 0.3 had and 1.0 does not."),
    Code("unknown-field", "warning", "card", "A field A2A 1.0 does not define."),
    Code(
        "invalid-url",
        "error",
        "card",
        "An interface URL that is not an absolute http(s) URL (a warning for other URLs).",
    ),
    Code(
        "unknown-protocol-binding",
        "warning",
        "card",
        "A binding that is not JSONRPC, GRPC, HTTP+JSON or a URI.",
    ),
    Code("no-1.0-interface", "warning", "card", "No interface declares protocolVersion 1.0."),
    Code("duplicate-skill-id", "warning", "card", "Two skills share an id."),
    Code("a2a-0.3-security-scheme", "error", "card", "A security scheme in the 0.3 form."),
    Code(
        "a2a-0.3-compat-scheme",
        "info",
        "card",
        "A security scheme holding the 1.0 member and, beside it, the 0.3 keys.",
    ),
    Code(
        "a2a-0.3-security-requirement", "error", "card", "A security requirement in the 0.3 form."
    ),
    Code(
        "a2a-0.3-scopes",
        "error",
        "card",
        'Scopes given as a bare array instead of {"list": [...]}.',
    ),
    Code(
        "oneof-conflict",
        "error",
        "card",
        "A security scheme or OAuth flows object that sets more than one of its kinds.",
    ),
    Code(
        "empty-oneof",
        "error",
        "card",
        "A security scheme or OAuth flows object that sets none of its kinds.",
    ),
    Code(
        "no-known-field",
        "error",
        "card",
        "An object none of whose fields is a field of its A2A 1.0 message.",
    ),
    # signatures (with --keys, --fetch-keys or --require-signature)
    Code("signature-verified", "info", "card", "A signature verified over section 8.4.1's form."),
    Code(
        "signature-invalid", "error", "card", "A key was found and the signature does not verify."
    ),
    Code("signature-unverified", "warning", "card", "No key for the signature."),
    Code(
        "signature-header",
        "error",
        "card",
        "The signature's protected header is malformed or lacks alg or kid.",
    ),
    Code(
        "signature-alg",
        "error",
        "card",
        "none, HMAC, an unknown alg, a crit parameter, or an alg that does not fit the key.",
    ),
    Code(
        "signature-sdk-form",
        "warning",
        "card",
        "The signature verifies only over a2a-sdk's form, which section 8.4.1 clients reject.",
    ),
    Code(
        "signature-sdk-rejects",
        "warning",
        "card",
        "The card verifies over section 8.4.1's form, but a2a-sdk's verifier will reject it.",
    ),
    # the extensions
    Code("schema-violation", "error", "extension", "The params break the extension's schema."),
    Code(
        "command-name-pattern",
        "error",
        "extension",
        "A command name does not match ^[a-z][a-z0-9-]*$.",
    ),
    Code(
        "command-runs-on",
        "error",
        "extension",
        "A command entry on a commands v1 card carries runsOn, which v1 does not allow.",
    ),
    Code("duplicate-command", "error", "extension", "A command name is registered twice."),
    Code("required-extension", "warning", "extension", "The extension is marked required: true."),
    Code("duplicate-extension", "error", "extension", "The same extension URI is declared twice."),
    Code(
        "extension-draft",
        "warning",
        "extension",
        "The card declares a draft version of an extension, which may change before it is "
        "published.",
    ),
    Code(
        "no-known-extension",
        "info",
        "extension",
        "The card declares none of the extensions th-ext publishes.",
    ),
    Code(
        "near-miss-extension-uri",
        "error",
        "extension",
        "A URI that differs from a published one only by a slash, scheme, case or version.",
    ),
    Code(
        "missing-extension",
        "error",
        "extension",
        "An extension named with --extension is not declared.",
    ),
    Code(
        "extension-not-checked",
        "info",
        "extension",
        "An extension th-ext does not publish; its params were not checked.",
    ),
    Code(
        "extension-schema-unknown",
        "info",
        "extension",
        "An extension of the family whose schema was not given (--schemas, --fetch-schemas).",
    ),
    Code(
        "extension-not-on-card",
        "info",
        "extension",
        "An extension of the family whose schema applies to task data, not to the card.",
    ),
    Code(
        "family-schema-changed",
        "error",
        "extension",
        "A fetched schema differs from the sha256 the published catalog pins.",
    ),
    Code(
        "family-schema-not-fetched",
        "info",
        "extension",
        "A schema or the catalog could not be fetched; the extension stays unchecked.",
    ),
    # any layer
    Code(
        "more-problems",
        "error",
        None,
        "More than 100 problems of one code: this one counts the rest (same severity).",
    ),
    Code(
        "too-many-problems",
        "error",
        None,
        "A layer found 10,000 problems and stopped checking.",
    ),
)
"""Every problem code, by name, in the order of the reference page."""


def _matches(selector: str, code: str) -> bool:
    """``selector`` names ``code``: the code itself, or a family of codes (a prefix ending at a
    ``-`` of the code, given with or without the ``-``). Letter case does not matter."""
    selector, code = selector.casefold(), code.casefold()
    if code == selector:
        return True
    if selector.endswith("-"):
        return code.startswith(selector)
    return code.startswith(selector + "-")


def _families(known: Iterable[str]) -> list[str]:
    """Every family prefix of the known codes, each ending in ``-`` (``signature-``)."""
    found: dict[str, None] = {}
    for code in known:
        parts = code.split("-")
        for end in range(1, len(parts)):
            found["-".join(parts[:end]) + "-"] = None
    return list(found)


@dataclass(frozen=True, slots=True)
class Selection:
    """Which codes count in a run: those ``select`` names (every code when it is empty), less
    those ``ignore`` names. Each selector is a code or a family prefix (``signature-``,
    ``signature`` or ``a2a-0.3-``), compared without regard to case."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()

    @classmethod
    def parse(
        cls,
        select: str | None,
        ignore: str | None,
        known: Iterable[str] | None = None,
        *,
        what: str = "problem code",
    ) -> Selection:
        """The selection of ``--select`` and ``--ignore`` (each comma-separated, or ``None``).

        A selector that names no code of ``known`` (``CODES`` by default; ``what`` says what
        they are) raises ``UnknownCodeError``, with the closest code or family when one is
        near.
        """
        names = list(CODES if known is None else known)
        chosen: list[tuple[str, ...]] = []
        for option, given in (("--select", select), ("--ignore", ignore)):
            selectors = tuple(s.strip() for s in (given or "").split(",") if s.strip())
            if given is not None and not selectors:
                raise UnknownCodeError(f"{option}: give one or more codes, comma-separated")
            for selector in selectors:
                if not any(_matches(selector, code) for code in names):
                    raise UnknownCodeError(_unknown(option, selector, names, what))
            chosen.append(selectors)
        return cls(chosen[0], chosen[1])

    def __bool__(self) -> bool:
        return bool(self.select or self.ignore)

    def counts(self, code: str) -> bool:
        """Whether problems of ``code`` count in this run."""
        if self.select and not any(_matches(s, code) for s in self.select):
            return False
        return not any(_matches(s, code) for s in self.ignore)

    def keeps(self, problem: Problem) -> bool:
        """Whether ``problem`` stays in the report. A problem that left no card to check stays
        whatever the selection (nothing was checked); an "and M more" problem stays when the
        code it counts does (and ``more-problems`` itself is not left out)."""
        if problem.fatal:
            return True
        if problem.code == "more-problems" and problem.counts_code:
            return self.counts(problem.counts_code) and self.counts(problem.code)
        return self.counts(problem.code)

    def apply(self, problems: Iterable[Problem]) -> list[Problem]:
        """The problems that stay, in their order."""
        return [problem for problem in problems if self.keeps(problem)]


def _unknown(option: str, selector: str, known: list[str], what: str) -> str:
    candidates = {name.casefold(): name for name in [*known, *_families(known)]}
    wanted = selector.casefold()
    found = closest_name(wanted, list(candidates))
    close = [found] if found is not None else []
    if not close:  # a family's first letters: the shortest family or code they begin
        close = sorted((c for c in candidates if c.startswith(wanted)), key=len)[:1]
    hint = f"; did you mean {candidates[close[0]]!r}?" if close else ""
    return f"{option}: no {what} {quoted(selector, 200)}{hint}"


def error_code(exc: ThExtError) -> str:
    """``exc``'s stable code: its own ``code``, or its class name in kebab case."""
    code = getattr(exc, "code", None)
    if isinstance(code, str) and code:
        return code
    name = type(exc).__name__.removesuffix("Error") or "error"
    return re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower()


def error_record(exc: ThExtError, command: str | None, source: object = None) -> dict[str, Any]:
    """The error document of ``command`` that could not check ``source`` at all, as data:
    ``{"command", "source", "exit_code": 2, "error": {"code", "message"}}``, credentials in a
    source URL redacted; the line ``jsonl`` writes for it."""
    shown = None
    if isinstance(source, str):
        shown = redact(source) if "@" in source else source
    return {
        "command": command,
        "source": shown,
        "exit_code": 2,
        "error": {"code": error_code(exc), "message": " ".join(str(exc).split())},
    }
