"""Whether a JSON schema is itself a valid draft 2020-12 schema: the one place that asks.

The publishing checks, ``--schema`` and the params check all need this answer; each words the
defect for its own reader. jsonschema is imported only when a schema is checked.
``local_validator`` is the one way a schema is applied outside validation's own reader: a
``referencing`` registry holding only the schemas given, with no retrieval, so a ``$ref`` to
anything else is unresolvable instead of fetched.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["SchemaDefect", "declared_schema_defect", "local_validator", "schema_defect"]


@dataclass(frozen=True, slots=True)
class SchemaDefect:
    """What the metaschema rejects: jsonschema's message and the path into the schema."""

    message: str
    path: tuple[str | int, ...]


def schema_defect(schema: Any) -> SchemaDefect | None:
    """Why ``schema`` is not a valid draft 2020-12 schema, or None when it is."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        return SchemaDefect(exc.message, tuple(exc.absolute_path))
    return None


def declared_schema_defect(schema: Any) -> SchemaDefect | None:
    """Why ``schema`` is not a valid schema of the draft its ``$schema`` declares (draft
    2020-12 when it declares none), or None when it is. An unknown ``$schema`` is a defect."""
    from jsonschema.exceptions import SchemaError
    from jsonschema.protocols import Validator
    from jsonschema.validators import validator_for

    if not isinstance(schema, dict) or "$schema" not in schema:
        return schema_defect(schema)
    declared = schema["$schema"]

    class Unknown:  # what validator_for answers for a $schema it does not know
        pass

    unknown: Any = Unknown
    validator: type[Validator] | None = (
        validator_for(schema, default=unknown) if isinstance(declared, str) else None
    )
    if validator is None or validator is unknown:
        return SchemaDefect(f"$schema {declared!r} is not a JSON Schema draft th-ext knows", ())
    try:
        validator.check_schema(schema)
    except SchemaError as exc:
        return SchemaDefect(exc.message, tuple(exc.absolute_path))
    return None


def local_validator(schema: dict[str, Any], resources: dict[str, Any] | None = None) -> Any:
    """A draft 2020-12 validator whose ``$ref``s resolve only to ``schema`` and ``resources``.

    A ``$ref`` to any other URI raises ``referencing.exceptions.Unresolvable`` when it is
    reached; nothing is ever fetched.
    """
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    known = dict(resources or {})
    if isinstance(schema.get("$id"), str):
        known[schema["$id"]] = schema
    registry: Registry[Any] = Registry().with_resources(
        (uri, Resource.from_contents(contents, default_specification=DRAFT202012))
        for uri, contents in known.items()
    )
    return Draft202012Validator(schema, registry=registry)
