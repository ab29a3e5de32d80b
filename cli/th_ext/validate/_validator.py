"""Validation from end to end: bytes (or a parsed value) to a ``Report``, layer after layer:
the document, the card and its extensions' params in one schema pass, the rules beside it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from th_ext._deadline import Deadline
from th_ext._exceptions import SchemaError, SourceError
from th_ext.catalog._family import FamilySchema
from th_ext.catalog._reader import discover, schema_document
from th_ext.catalog._records import ExtensionVersion
from th_ext.net import redact
from th_ext.problems._problem import Problem, Selection
from th_ext.validate._card import card_validator, check_card, extension_entries
from th_ext.validate._document import decode_document, fatal_problem, parse_text
from th_ext.validate._extensions import RULES, KnownExtension, check_extensions
from th_ext.validate._limits import TooManyProblems
from th_ext.validate._positions import place_problems, source_lines
from th_ext.validate._report import Report
from th_ext.validate._schema import ParamsSchema, SchemaOverride

__all__ = [
    "SchemaOverride",
    "ValidateOptions",
    "report_for_source_error",
    "validate_bytes",
    "validate_value",
]


@dataclass(frozen=True, slots=True)
class ValidateOptions:
    """``strict`` fails on warnings; ``extensions`` (URIs or keys such as ``commands/v1``)
    are the extensions the card must declare; ``schema`` replaces an extension's schema;
    ``family`` are the host extensions' schemas found for this run (``--schemas``);
    ``card_checks`` are further checks of the parsed card, run after the extension layer,
    whose problems are placed and reported with the others (signatures, for one);
    ``selection`` (``--select``, ``--ignore``) leaves out the problems whose code does not
    count, before the verdict (a problem that left no card to check always stays)."""

    strict: bool = False
    extensions: tuple[str, ...] = ()
    schema: SchemaOverride | None = None
    family: tuple[FamilySchema, ...] = ()
    card_checks: tuple[Callable[[dict[str, Any]], list[Problem]], ...] = ()
    selection: Selection = field(default_factory=Selection)


def validate_bytes(
    data: bytes,
    *,
    source: str,
    location: str | None = None,
    notices: Sequence[Problem] = (),
    options: ValidateOptions | None = None,
    deadline: Deadline | None = None,
) -> Report:
    """Validate a card document. Raises only ``SchemaError`` (an unusable ``--schema``) and
    ``DeadlineError`` (``deadline`` passed before the validation ended).

    The deadline bounds this validation alone, in whatever thread or task it runs: it is
    checked in the loops that can be long (the walk of a deep or large document, the schema's
    errors, each extension entry, a schema's pattern). Pass the bytes without keeping another
    reference to them if the document is large: they are released as soon as they are decoded.
    Every problem with a path gets the line and column where that path's value starts in the
    text.
    """
    options = options or ValidateOptions()
    text, problems = decode_document(data)
    del data
    problems = [*notices, *problems]
    report = Report(source, location or source, problems, strict=options.strict)
    if text is None:
        return _selected(_unread(report), options)
    parsed = parse_text(text, deadline)
    problems.extend(parsed.problems)
    if parsed.fatal:
        return _selected(_unread(report), options)
    _selected(_check_value(report, parsed.value, options, deadline), options)
    del parsed  # freed first, so that placing many problems never holds both at once
    report.problems = place_problems(text, report.problems)
    report.source_lines = source_lines(text, report.problems)
    return report


def validate_value(
    value: Any,
    *,
    source: str = "<value>",
    options: ValidateOptions | None = None,
    deadline: Deadline | None = None,
) -> Report:
    """Validate an already parsed JSON value (the card and extension layers, and its type),
    within ``deadline`` as ``validate_bytes`` does."""
    options = options or ValidateOptions()
    report = Report(source, source, strict=options.strict)
    if not isinstance(value, dict):
        report.problems.append(
            fatal_problem(
                "not-an-object",
                "",
                "the document is not a JSON object",
                "an agent card is one JSON object",
            )
        )
        return _selected(_unread(report), options)
    return _selected(_check_value(report, value, options, deadline), options)


def report_for_source_error(
    source: str, error: SourceError, *, strict: bool = False, path: str = ""
) -> Report:
    """The report of a card that could not be read at all (exit code 2)."""
    problem = Problem(
        "error", error.code, path, str(error), _SOURCE_HINTS.get(error.code, ""), "source", True
    )
    report = Report(source, source, [problem], card_read=False, strict=strict, layers=("source",))
    return _redacted(report)


_SOURCE_HINTS = {
    "timeout": "check that the agent is up, or raise --timeout",
    "too-large": "raise --max-bytes if the card really is this large",
    "http-error": "check the URL; a base URL is read at /.well-known/agent-card.json",
    "network-error": "check the URL and that the agent is running",
    "origin-failed": "check that the origin is up, or raise --origin-failures (0: never give up)",
    "redirect-loop": "fix the server's redirects",
    "too-many-redirects": "point at the final URL, or fix the server's redirects",
    "redirect-not-http": "only http and https redirects are followed",
    "unreadable": "check the path",
    "bad-argument": "use a file path, - for standard input, or an http(s) URL",
}


def _selected(report: Report, options: ValidateOptions) -> Report:
    """The report without the problems ``options.selection`` leaves out."""
    if options.selection:
        report.problems = options.selection.apply(report.problems)
    return report


def _unread(report: Report) -> Report:
    report.card_read = False
    report.layers = ("source", "document")
    return _redacted(report)


@cache
def bundled_extensions() -> tuple[tuple[ExtensionVersion, dict[str, Any]], ...]:
    """The extension versions bundled with th-ext, each with its schema, read once per
    process (the bundled files do not change while th-ext runs)."""
    return tuple((version, schema_document(version)) for version in discover())


def _check_value(
    report: Report, card: dict[str, Any], options: ValidateOptions, deadline: Deadline | None
) -> Report:
    known = known_extensions(card, options)
    bundled = {version.schema_url: document for version, document in bundled_extensions()}
    schema = card_validator({uri: known[uri].schema for uri in known}, bundled)
    checked, params = check_card(card, schema, deadline)
    report.problems.extend(checked)
    required = tuple(_resolve_uri(name) for name in options.extensions)
    try:
        found, summaries = check_extensions(card, known, required, deadline, params)
    except TooManyProblems as exc:
        found, summaries = exc.problems.finished(), []
    report.problems.extend(found)
    for check in options.card_checks:
        report.problems.extend(check(card))
    report.card = summarize_card(card)
    report.extensions = summaries
    return _redacted(report)


def _redacted(report: Report) -> Report:
    """The report with no URL credentials (``user:password@``) in a message or hint."""
    report.problems = [
        replace(p, message=redact(p.message), hint=redact(p.hint))
        if "@" in p.message or "@" in p.hint
        else p
        for p in report.problems
    ]
    return report


def known_extensions(card: dict[str, Any], options: ValidateOptions) -> dict[str, KnownExtension]:
    """The extensions this run can check: every bundled one, with ``--schema`` applied."""
    bundled = [version for version, _ in bundled_extensions()]
    override_uri = None
    if options.schema is not None:
        override_uri = _override_target(card, options, [b.uri for b in bundled])
    known: dict[str, KnownExtension] = {}
    for item, document in bundled_extensions():
        if item.uri == override_uri:
            continue
        schema = ParamsSchema(document, item.schema_url, item.schema_url, bundled=True)
        rules = RULES.get(item.key.split("/")[0])
        known[item.uri] = KnownExtension(
            item.uri, item.key, schema, rules, draft=item.status == "draft"
        )
    for family in options.family:  # the host's own, where the schema applies to params
        if family.uri in known or "card params" not in family.entry.applies_to:
            continue
        schema = ParamsSchema(family.document, family.entry.schema_url, family.origin)
        known[family.uri] = KnownExtension(family.uri, family.key, schema, None)
    if override_uri is not None and options.schema is not None:
        contents = options.schema.schema
        schema_id = contents.get("$id") if isinstance(contents, dict) else None
        url = schema_id if isinstance(schema_id, str) else override_uri + "/schema.json"
        base = next((b for b in bundled if b.uri == override_uri), None)
        key = base.key if base is not None else "draft"
        rules = RULES.get(base.key.split("/")[0]) if base is not None else None
        schema = ParamsSchema(contents, url, options.schema.origin)
        known[override_uri] = KnownExtension(override_uri, key, schema, rules)
    return known


def _override_target(card: dict[str, Any], options: ValidateOptions, bundled: list[str]) -> str:
    """Which extension URI ``--schema`` replaces the schema of."""
    if len(options.extensions) == 1:
        return _resolve_uri(options.extensions[0])
    schema = options.schema.schema if options.schema else None
    schema_id = schema.get("$id") if isinstance(schema, dict) else None
    declared = _declared_uris(card)
    if isinstance(schema_id, str) and schema_id.endswith("/schema.json"):
        uri = schema_id.removesuffix("/schema.json")
        if uri in declared or uri in bundled:
            return uri
    ours = [uri for uri in declared if uri in bundled]
    if len(ours) == 1:
        return ours[0]
    if len(bundled) == 1:
        return bundled[0]
    raise SchemaError("--schema: name the extension it is for with --extension URI")


def _declared_uris(card: dict[str, Any]) -> list[str]:
    return [
        e["uri"]
        for e in extension_entries(card)
        if isinstance(e, dict) and isinstance(e.get("uri"), str)
    ]


def _resolve_uri(name: str) -> str:
    """An extension named by URI or by bundled key (``commands/v1``), as its URI."""
    for item, _ in bundled_extensions():
        if name in (item.key, item.uri, item.uri + "/"):
            return item.uri
    return name


_INTERFACE_SUMMARY = ("url", "protocolBinding", "protocolVersion")


def summarize_card(card: dict[str, Any]) -> dict[str, Any]:
    """The card's identity and shape, from the fields that have the right types."""

    def string_at(key: str) -> str | None:
        value = card.get(key)
        return value if isinstance(value, str) else None

    interfaces = card.get("supportedInterfaces")
    skills = card.get("skills")
    return {
        "name": string_at("name"),
        "version": string_at("version"),
        "interfaces": [
            {
                k: redact(i[k]) if "@" in i[k] else i[k]
                for k in _INTERFACE_SUMMARY
                if isinstance(i.get(k), str)
            }
            for i in (interfaces if isinstance(interfaces, list) else [])
            if isinstance(i, dict)
        ],
        "skills": [
            s["id"]
            for s in (skills if isinstance(skills, list) else [])
            if isinstance(s, dict) and isinstance(s.get("id"), str)
        ],
        "extensions": _declared_uris(card),
    }
