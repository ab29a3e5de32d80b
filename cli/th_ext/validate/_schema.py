"""JSON schemas run by jsonschema (draft 2020-12, every error; patterns matched with ``regex``
within the deadline), and their errors said in a card author's words."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import regex
from jsonschema import Draft202012Validator, ValidationError, validators
from jsonschema.exceptions import SchemaError as MetaschemaError
from jsonschema.protocols import Validator
from referencing import Registry, Resource
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012

from th_ext._deadline import Deadline
from th_ext._exceptions import DeadlineError, SchemaError, SourceError, cut
from th_ext.problems._problem import Layer, Problem
from th_ext.problems._text import closest_name, quoted
from th_ext.sources._source import SourceLimits, read_source
from th_ext.validate._card_schema import URL_PATTERN
from th_ext.validate._document import json_type, parse_document
from th_ext.validate._positions import pointer

__all__ = [
    "ParamsSchema",
    "SchemaOverride",
    "allowed_keys_text",
    "check_schema",
    "minimal_schema_value",
    "problems_for",
    "read_schema_override",
    "reading_errors",
    "safe_validator",
]

_MESSAGE_LIMIT = 240
_REASON_LIMIT = 200

#: The deadline of the validation whose errors this thread (or task) is reading.
_DEADLINE: ContextVar[Deadline | None] = ContextVar("th_ext_schema_deadline", default=None)


@dataclass(frozen=True, slots=True)
class SchemaOverride:
    """A schema that replaces a bundled one (to try a draft): its contents and where from."""

    schema: Any
    origin: str
    notices: tuple[Problem, ...] = ()
    """Warnings about how the schema was read (such as a header withheld from a redirect)."""


def read_schema_override(schema_source: str, limits: SourceLimits) -> SchemaOverride:
    """The schema at ``schema_source``; ``SchemaError`` when it cannot be read or is not one."""
    try:
        raw = read_source(schema_source, limits, well_known=False)
    except SourceError as exc:
        raise SchemaError(f"--schema: {exc}") from None
    document = parse_document(raw.data)
    if document.fatal or not isinstance(document.value, dict):
        problem = next((p for p in document.problems if p.fatal), None)
        reason = problem.message if problem else "a schema must be a JSON object"
        raise SchemaError(f"--schema {raw.location}: {reason}")
    try:
        Draft202012Validator.check_schema(document.value)
    except MetaschemaError as exc:
        reason = " ".join(exc.message.split())[:_REASON_LIMIT]
        raise SchemaError(f"--schema {raw.location}: not a valid JSON schema ({reason})") from None
    return SchemaOverride(document.value, raw.location, raw.notices)


@dataclass(frozen=True, slots=True)
class ParamsSchema:
    """One extension's params schema: its contents, the URL ``$ref`` reaches it at, and the
    name its problems' hints give it."""

    schema: Any
    url: str
    name: str
    bundled: bool = False
    """Bundled with th-ext, so checked against the metaschema when it was published."""


def safe_validator(schema: Any, resources: Mapping[str, Any]) -> Validator:
    """A draft 2020-12 validator of ``schema`` whose ``$ref`` reaches only ``resources`` (by
    URL; nothing is fetched) and whose patterns (``pattern``, ``patternProperties`` and the
    ``additionalProperties`` beside them) match with ``regex``: the validation's deadline, held
    in ``_DEADLINE`` while its errors are read, stops a pattern that backtracks without end."""
    registry: Registry[Any] = Registry().with_resources(
        (url, Resource.from_contents(_own_dialect(contents), default_specification=DRAFT202012))
        for url, contents in resources.items()
        if url
    )
    validator: Validator = _SafeValidator(schema, registry=registry)
    return validator


def _own_dialect(contents: Any) -> Any:
    """``contents`` without ``$schema``: jsonschema validates a resource that names its dialect
    with that dialect's stock validator, which matches patterns with ``re``, not ``regex``."""
    if isinstance(contents, dict) and "$schema" in contents:
        return {key: value for key, value in contents.items() if key != "$schema"}
    return contents


def check_schema(schema: Any, name: str) -> None:
    """``SchemaError`` naming ``name`` when ``schema`` is not a valid draft 2020-12 schema."""
    try:
        _SafeValidator.check_schema(schema)
    except MetaschemaError as exc:
        raise SchemaError(f"{name}: not a valid JSON schema ({_shorten(exc.message)})") from None


@contextmanager
def reading_errors(name: str, deadline: Deadline | None) -> Iterator[None]:
    """Around the reading of a validator's errors: the deadline its patterns keep, and a
    ``SchemaError`` naming ``name`` for a schema that cannot be followed."""
    token = _DEADLINE.set(deadline)
    try:
        yield
    except Unresolvable as exc:
        raise SchemaError(
            f"{name}: $ref {getattr(exc, 'ref', '')!r} cannot be resolved "
            "(only the bundled schemas are available)"
        ) from None
    except RecursionError:
        raise SchemaError(
            f"{name}: the schema refers to itself without end ($ref recursion)"
        ) from None
    except regex.error as exc:
        raise SchemaError(
            f"{name}: a pattern is not a regular expression ({_shorten(str(exc))})"
        ) from None
    finally:
        _DEADLINE.reset(token)


@lru_cache(maxsize=256)
def _compiled(pattern: str) -> regex.Pattern[str]:
    """``pattern`` compiled once (``regex``'s own cache costs more than a short match)."""
    return regex.compile(pattern)


def _search(pattern: str, text: str) -> bool:
    """Whether ``pattern`` matches somewhere in ``text``, within this validation's deadline."""
    compiled = _compiled(pattern)
    deadline = _DEADLINE.get()
    if deadline is None:
        return compiled.search(text) is not None
    deadline.check()
    try:
        return compiled.search(text, timeout=deadline.remaining()) is not None
    except TimeoutError:
        raise DeadlineError(deadline.message) from None


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not _search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(
    validator: Any, patterns: dict[str, Any], instance: Any, schema: Any
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            if _search(pattern, key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _additional_properties(
    validator: Any, additional: Any, instance: Any, schema: Any
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    properties = schema.get("properties", {})
    patterns = "|".join(schema.get("patternProperties", {}))
    extras = {
        key
        for key in instance
        if key not in properties and not (patterns and _search(patterns, key))
    }
    if validator.is_type(additional, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], additional, path=extra)
    elif not additional and extras:
        if "patternProperties" in schema:
            verb = "does" if len(extras) == 1 else "do"
            joined = ", ".join(repr(each) for each in sorted(extras))
            listed = ", ".join(repr(each) for each in sorted(schema["patternProperties"]))
            yield ValidationError(f"{joined} {verb} not match any of the regexes: {listed}")
        else:
            names = sorted(extras, key=str)
            verb = "was" if len(names) == 1 else "were"
            shown = ", ".join(repr(extra) for extra in names)
            yield ValidationError(
                f"Additional properties are not allowed ({shown} {verb} unexpected)"
            )


def _within_deadline(keyword: Any) -> Any:
    """``keyword`` checking this validation's deadline before it descends: it runs once per
    object or array, so a large value that has no error still stops at the deadline."""

    def checked(validator: Any, value: Any, instance: Any, schema: Any) -> Any:
        deadline = _DEADLINE.get()
        if deadline is not None:
            deadline.check()
        return keyword(validator, value, instance, schema)

    return checked


_DRAFT = Draft202012Validator.VALIDATORS

#: Draft 2020-12, with the keywords that match a pattern using ``regex`` (see the module) and
#: the keywords that descend keeping the deadline.
_SafeValidator: Any = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator,
    {
        "pattern": _pattern,
        "properties": _within_deadline(_DRAFT["properties"]),
        "items": _within_deadline(_DRAFT["items"]),
        "prefixItems": _within_deadline(_DRAFT["prefixItems"]),
        "patternProperties": _within_deadline(_pattern_properties),
        "additionalProperties": _within_deadline(_additional_properties),
    },
)


_TYPES = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "array": "an array",
    "object": "an object",
    "null": "null",
}


def problems_for(
    error: Any,
    base: tuple[str | int, ...],
    schema_name: str,
    *,
    layer: Layer = "extension",
    root: Any = None,
) -> list[Problem]:
    """The problems one jsonschema ``ValidationError`` stands for, at ``base`` + its path.

    In the extension layer every problem is a ``schema-violation``; in the card layer each
    keyword has its code (``missing-field``, ``wrong-type``, ...). ``root`` is the schema whose
    local ``$ref`` a missing member's hint may follow.
    """
    path = (*base, *error.absolute_path)
    card = layer == "card"
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        unexpected = _unexpected_keys(error.schema, error.instance)
        if unexpected:
            allowed = _allowed(error.schema)
            return [
                _problem(
                    (*path, key),
                    f"{quoted(key)} is not a key this object may have",
                    _unknown_key_hint(key, allowed),
                    layer,
                    at_key=True,
                )
                for key in unexpected
            ]
    if error.validator == "required" and isinstance(error.instance, dict):
        key = _missing_key(error)
        if key is not None:
            properties = error.schema.get("properties")
            value = minimal_schema_value(
                properties.get(key) if isinstance(properties, dict) else None, root
            )
            return [
                _problem(
                    (*path, key),
                    f"the required {'field' if card else 'key'} {quoted(key)} is missing",
                    f"add {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}",
                    layer,
                    code="missing-field" if card else "schema-violation",
                )
            ]
    if card:
        code, message, hint = _card_words(error, path)
        return [_problem(path, message, hint or _hint(error, schema_name), layer, code=code)]
    return [_problem(path, _words(error), _hint(error, schema_name), layer)]


def _card_words(error: Any, path: tuple[str | int, ...]) -> tuple[str, str, str]:
    """The card layer's code, message and hint ("" for the common one) for one error."""
    names = [step for step in path if isinstance(step, str)]
    name = repr(names[-1]) if names else "the card"
    keyword, value, instance = error.validator, error.validator_value, error.instance
    if keyword == "type":
        expected = " or ".join(_TYPES.get(str(k), str(k)) for k in _listed(value))
        found = _TYPES.get(json_type(instance), "null")
        if path and isinstance(path[-1], int):
            name = f"each item of {name}"
        return "wrong-type", f"{name} must be {expected}, not {found}", ""
    if keyword == "minLength" and value == 1:
        return "empty-field", f"the required field {name} is empty", f"give {name} a value"
    if keyword == "pattern" and value == URL_PATTERN:
        return (
            "invalid-url",
            f"{name} is not an absolute http(s) URL",
            "use a full URL such as https://agent.example/a2a",
        )
    if keyword == "minItems":
        return (
            "empty-array",
            f"the required array {name} is empty",
            f"{name} needs at least one element",
        )
    if keyword == "minProperties":
        return "empty-field", f"the required map {name} is empty", f"give {name} an entry"
    title = error.schema.get("title", "this object")
    if keyword == "oneOf" and isinstance(instance, dict):
        members = [branch["required"][0] for branch in value]
        given = [member for member in members if member in instance]
        listed = ", ".join(members)
        if len(given) > 1:
            return (
                "oneof-conflict",
                f"{title} may set one of {listed}, not {', '.join(given)}",
                f"keep one of {', '.join(given)}",
            )
        if instance:  # only keys the message does not have: a client reads nothing
            return (
                "no-known-field",
                f"none of this object's fields is a field of {title}",
                f"its fields are {listed}; as it is, a client reads nothing",
            )
        return (
            "empty-oneof",
            f"this {title} names none of its kinds ({listed})",
            f"give exactly one of {listed}; as it is, it says nothing",
        )
    if keyword == "anyOf" and isinstance(instance, dict):
        fields = ", ".join(_allowed(error.schema))
        return (
            "no-known-field",
            f"none of this object's fields is a field of {title}",
            f"its fields are {fields}; as it is, a client reads nothing",
        )
    return "schema-violation", _words(error), ""


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _hint(error: Any, schema_name: str) -> str:
    fix = _fix(error)
    return f"{fix}, as {schema_name} requires" if fix else f"see what {schema_name} allows here"


def _problem(
    path: tuple[str | int, ...],
    message: str,
    hint: str,
    layer: Layer,
    *,
    code: str = "schema-violation",
    at_key: bool = False,
) -> Problem:
    return Problem("error", code, pointer(path), message, hint, layer, at_key=at_key)


def _allowed(schema: dict[str, Any]) -> list[str]:
    properties = schema.get("properties")
    return sorted(properties) if isinstance(properties, dict) else []


def _unexpected_keys(schema: dict[str, Any], instance: dict[str, Any]) -> list[str]:
    allowed = set(_allowed(schema))
    patterns = schema.get("patternProperties")
    names = list(patterns) if isinstance(patterns, dict) else []
    return [
        key
        for key in instance
        if key not in allowed and not any(_search(pattern, key) for pattern in names)
    ]


def _unknown_key_hint(key: str, allowed: list[str]) -> str:
    suggestion = closest_name(key, allowed)
    known = allowed_keys_text(allowed)
    if suggestion is not None:
        return f"did you mean {suggestion!r}? {known[0].upper()}{known[1:]}"
    return f"remove it or rename it: {known}"


def _missing_key(error: Any) -> str | None:
    required = error.validator_value if isinstance(error.validator_value, list) else []
    missing = [k for k in required if isinstance(k, str) and k not in error.instance]
    for key in missing:
        if error.message.startswith(repr(key)):
            return key
    return missing[0] if missing else None


def _fix(error: Any) -> str:
    value = error.validator_value
    if error.validator == "type":
        return "make it " + " or ".join(_TYPES.get(str(k), str(k)) for k in _listed(value))
    if error.validator == "enum" and isinstance(value, list):
        return "use one of " + ", ".join(_shorten(repr(v)) for v in value[:10])
    if error.validator == "pattern":
        return f"use a value that matches {value}"
    if error.validator == "const":
        return f"use {value!r}"
    return ""


def _words(error: Any) -> str:
    """jsonschema's message for ``error``, the value it starts with written as JSON (``null``,
    ``true``, ``{"a": null}``) where Python's spelling differs; a string keeps its quotes."""
    message, instance = error.message, error.instance
    if not isinstance(instance, str) and message.startswith(shown := repr(instance)):
        message = json.dumps(instance, ensure_ascii=False) + message[len(shown) :]
    return _shorten(message)


def _shorten(message: str) -> str:
    return cut(" ".join(message.split()), _MESSAGE_LIMIT)


_MAX_DEPTH = 8  # a $ref followed counts as a level


def allowed_keys_text(allowed: Iterable[str]) -> str:
    """``allowed`` as a phrase for a hint: "the keys allowed here are a, b and c"."""
    names = sorted(allowed)
    if not names:
        return "no keys are allowed here"
    if len(names) == 1:
        return f"the only key allowed here is {names[0]}"
    return f"the keys allowed here are {', '.join(names[:-1])} and {names[-1]}"


def minimal_schema_value(schema: Any, root: Any = None, depth: int = 0) -> Any:
    """A small value that passes ``schema`` (its ``default``, or its first example, when it
    has one), as far as the common keywords tell; a ``$ref`` is followed inside ``root``."""
    if not isinstance(schema, dict) or depth > _MAX_DEPTH:
        return None
    reference = schema.get("$ref")
    if isinstance(reference, str) and reference.startswith("#/$defs/") and len(schema) == 1:
        defs = root.get("$defs") if isinstance(root, dict) else None
        target = defs.get(reference.removeprefix("#/$defs/")) if isinstance(defs, dict) else None
        return minimal_schema_value(target, root, depth + 1)
    if "default" in schema:
        return schema["default"]
    examples = schema.get("examples")
    if isinstance(examples, list) and examples:
        return examples[0]
    if "const" in schema:
        return schema["const"]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    branches = schema.get("oneOf")
    if isinstance(branches, list) and branches and isinstance(branches[0], dict):
        first = branches[0].get("required") or [None]
        properties = schema.get("properties") or {}
        return {first[0]: minimal_schema_value(properties.get(first[0]), root, depth + 1)}
    kind = schema.get("type")
    if kind == "object" or (kind is None and "properties" in schema):
        properties = schema.get("properties")
        required = schema.get("required")
        properties = properties if isinstance(properties, dict) else {}
        required = required if isinstance(required, list) else []
        return {
            key: minimal_schema_value(properties.get(key), root, depth + 1)
            for key in required
            if isinstance(key, str)
        }
    if kind == "array":
        items = schema.get("items") if schema.get("minItems") else None
        return [minimal_schema_value(items, root, depth + 1)] if items else []
    if kind == "string":
        return "…"
    if kind in ("integer", "number"):
        return 0
    if kind == "boolean":
        return False
    return None
