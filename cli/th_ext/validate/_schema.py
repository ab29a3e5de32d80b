"""An extension's ``params`` against its JSON schema, and the errors said in a card author's words.

jsonschema decides, with draft 2020-12 and every error. The validator of a schema is built once
(the metaschema check, the ``referencing`` registry) and reused for every card checked against
the same schema with the same other schemas, in any thread. ``$ref`` resolves only against the
schemas given here (the bundled ones, a replacement given with ``--schema``, the family's):
the registry has no retrieval function, so nothing is ever fetched.

A schema's ``pattern`` (and ``patternProperties``, and ``additionalProperties`` beside them) is
matched with the ``regex`` module instead of ``re``: the same dialect, with a timeout. Python's
``re`` backtracks inside C code that nothing but a signal can stop, so a draft schema's
``^(a|a)*$`` against a long name would run for ever; with ``regex`` the match ends when the
validation's ``Deadline`` passes. The validator is shared, so the deadline of the validation
running in this thread (or task) is held in a context variable for as long as its errors are
read.

jsonschema's messages name its keywords ("Additional properties are not allowed", "the
'required' rule"); a card author needs the key that is wrong, the name it most likely meant,
the keys that are allowed, and for a missing member a value that would pass. ``problems_for``
turns one error into its problems: one per unexpected key (placed at the key), one for a
missing member (placed at the object it belongs in), one for anything else.

``--schema`` (``read_schema_override``): a draft of an extension's schema, read under the same
limits as the card, must be a JSON object that is a valid draft 2020-12 schema; otherwise
nothing is validated and the reason is a ``SchemaError``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import regex
from jsonschema import Draft202012Validator, ValidationError, validators
from jsonschema.exceptions import SchemaError as MetaschemaError
from jsonschema.protocols import Validator
from referencing import Registry, Resource
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012

from th_ext._deadline import Deadline
from th_ext._exceptions import DeadlineError, SchemaError, SourceError
from th_ext.problems._problem import Problem
from th_ext.sources._source import SourceLimits, read_source
from th_ext.validate._card import allowed_keys_text, closest_name, minimal_schema_value
from th_ext.validate._document import parse_document
from th_ext.validate._limits import ProblemList, TooManyProblems
from th_ext.validate._positions import pointer

__all__ = ["ParamsSchema", "SchemaOverride", "problems_for", "read_schema_override"]

_MESSAGE_LIMIT = 240
_REASON_LIMIT = 200
_CACHED_VALIDATORS = 32

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


class ParamsSchema:
    """One extension's params schema, with every other known schema available to ``$ref``."""

    def __init__(self, schema: Any, resources: Mapping[str, Any], *, name: str) -> None:
        self.schema = schema
        self.resources = dict(resources)
        self.name = name

    def validator(self) -> Validator:
        """The schema's jsonschema validator (built once for this schema and these resources);
        ``SchemaError`` when the schema is not a valid JSON schema."""
        return _validator(self.schema, self.resources, self.name)

    def problems(
        self, instance: Any, base: tuple[str | int, ...], deadline: Deadline | None = None
    ) -> list[Problem]:
        """A ``schema-violation`` problem for every error (see ``problems_for``), in document
        order; ``DeadlineError`` once ``deadline`` passes.

        The errors are read one at a time and only the first ``MAX_PER_CODE`` are kept (see
        ``ProblemList``): jsonschema's errors are heavy, and a hostile card has millions.
        """
        validator = self.validator()
        kept: list[tuple[list[tuple[bool, str | int]], Problem]] = []
        found = ProblemList()
        token = _DEADLINE.set(deadline)
        try:
            for error in validator.iter_errors(instance):
                if deadline is not None:
                    deadline.check()
                path = list(error.absolute_path)
                problems = problems_for(error, base, self.name)
                del error
                for problem in problems:
                    before = len(found)
                    found.append(problem)
                    if len(found) > before:
                        kept.append(([(isinstance(p, str), p) for p in path], problem))
        except Unresolvable as exc:
            raise SchemaError(
                f"{self.name}: $ref {getattr(exc, 'ref', '')!r} cannot be resolved "
                "(only the bundled schemas are available)"
            ) from None
        except RecursionError:
            raise SchemaError(
                f"{self.name}: the schema refers to itself without end ($ref recursion)"
            ) from None
        except regex.error as exc:
            raise SchemaError(
                f"{self.name}: a pattern is not a regular expression ({_shorten(str(exc))})"
            ) from None
        except TooManyProblems:
            pass
        finally:
            _DEADLINE.reset(token)
        kept.sort(key=lambda pair: pair[0])
        found[:] = [problem for _, problem in kept]
        return found.finished()


_validators: dict[tuple[Any, ...], tuple[Any, dict[str, Any], Validator]] = {}


def _validator(schema: Any, resources: dict[str, Any], name: str) -> Validator:
    """The validator of ``schema`` with ``resources``, built on first use and then reused.

    Keyed by the identity of the schema and of each resource: the bundled schemas are read
    once per process, so every card checked against them shares one validator. The cache
    holds the schemas it was built from, so that no other object can take their identity.
    """
    key = (id(schema), *((uri, id(contents)) for uri, contents in resources.items()))
    cached = _validators.get(key)
    if cached is not None:
        return cached[2]
    try:
        _SafeValidator.check_schema(schema)
    except MetaschemaError as exc:
        raise SchemaError(f"{name}: not a valid JSON schema ({_shorten(exc.message)})") from None
    registry: Registry[Any] = Registry().with_resources(
        (uri, Resource.from_contents(contents, default_specification=DRAFT202012))
        for uri, contents in resources.items()
        if uri
    )
    validator: Validator = _SafeValidator(schema, registry=registry)
    if len(_validators) >= _CACHED_VALIDATORS:
        _validators.pop(next(iter(_validators)))
    _validators[key] = (schema, resources, validator)
    return validator


def _search(pattern: str, text: str) -> bool:
    """Whether ``pattern`` matches somewhere in ``text``, within this validation's deadline."""
    deadline = _DEADLINE.get()
    if deadline is None:
        return regex.search(pattern, text) is not None
    deadline.check()
    try:
        return regex.search(pattern, text, timeout=deadline.remaining()) is not None
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


#: Draft 2020-12, with the keywords that match a pattern using ``regex`` (see the module).
_SafeValidator: Any = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator,
    {
        "pattern": _pattern,
        "patternProperties": _pattern_properties,
        "additionalProperties": _additional_properties,
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


def problems_for(error: Any, base: tuple[str | int, ...], schema_name: str) -> list[Problem]:
    """The problems one jsonschema ``ValidationError`` stands for, at ``base`` + its path."""
    path = (*base, *error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        unexpected = _unexpected_keys(error.schema, error.instance)
        if unexpected:
            allowed = _allowed(error.schema)
            return [
                _problem(
                    (*path, key),
                    f"{key!r} is not a key this object may have",
                    _unknown_key_hint(key, allowed),
                    at_key=True,
                )
                for key in unexpected
            ]
    if error.validator == "required" and isinstance(error.instance, dict):
        key = _missing_key(error)
        if key is not None:
            properties = error.schema.get("properties")
            value = minimal_schema_value(
                properties.get(key) if isinstance(properties, dict) else None
            )
            return [
                _problem(
                    (*path, key),
                    f"the required key {key!r} is missing",
                    f"add {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}",
                )
            ]
    return [_problem(path, _shorten(error.message), _hint(error, schema_name))]


def _hint(error: Any, schema_name: str) -> str:
    fix = _fix(error)
    return f"{fix}, as {schema_name} requires" if fix else f"see what {schema_name} allows here"


def _problem(
    path: tuple[str | int, ...], message: str, hint: str, *, at_key: bool = False
) -> Problem:
    return Problem(
        "error", "schema-violation", pointer(path), message, hint, "extension", at_key=at_key
    )


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
        kinds = value if isinstance(value, list) else [value]
        return "make it " + " or ".join(_TYPES.get(str(k), str(k)) for k in kinds)
    if error.validator == "enum" and isinstance(value, list):
        return "use one of " + ", ".join(_shorten(repr(v)) for v in value[:10])
    if error.validator == "pattern":
        return f"use a value that matches {value}"
    if error.validator == "const":
        return f"use {value!r}"
    return ""


def _shorten(message: str) -> str:
    one_line = " ".join(message.split())
    if len(one_line) <= _MESSAGE_LIMIT:
        return one_line
    return one_line[: _MESSAGE_LIMIT - 1] + "…"
