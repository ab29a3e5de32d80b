"""JSON Schema files as th-ext reads and checks them: files someone else wrote, read strictly,
and whether a schema is itself valid."""

from __future__ import annotations

import json
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError as JSONSchemaError
from jsonschema.protocols import Validator
from jsonschema.validators import validator_for
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from th_ext._exceptions import SchemaError, is_folder, os_reason

__all__ = [
    "MAX_SCHEMA_BYTES",
    "SchemaDefect",
    "SchemaFile",
    "declared_schema_defect",
    "local_validator",
    "parse_schema_bytes",
    "read_schema_file",
    "read_schema_folder",
    "schema_defect",
]


@dataclass(frozen=True, slots=True)
class SchemaDefect:
    """What the metaschema rejects: jsonschema's message and the path into the schema; each
    caller words it for its own reader."""

    message: str
    path: tuple[str | int, ...]


def _defect(validator: type[Validator], schema: Any) -> SchemaDefect | None:
    try:
        validator.check_schema(schema)
    except JSONSchemaError as exc:
        return SchemaDefect(exc.message, tuple(exc.absolute_path))
    return None


def schema_defect(schema: Any) -> SchemaDefect | None:
    """Why ``schema`` is not a valid draft 2020-12 schema, or None when it is."""
    return _defect(Draft202012Validator, schema)


def declared_schema_defect(schema: Any) -> SchemaDefect | None:
    """Why ``schema`` is not a valid schema of the draft its ``$schema`` declares (draft
    2020-12 when it declares none), or None when it is. An unknown ``$schema`` is a defect."""
    if not isinstance(schema, dict) or "$schema" not in schema:
        return schema_defect(schema)
    declared = schema["$schema"]

    unknown: Any = None  # what validator_for answers for a $schema it does not know
    validator: type[Validator] | None = (
        validator_for(schema, default=unknown) if isinstance(declared, str) else None
    )
    if validator is None:
        return SchemaDefect(f"$schema {declared!r} is not a JSON Schema draft th-ext knows", ())
    return _defect(validator, schema)


def local_validator(schema: dict[str, Any], resources: dict[str, Any] | None = None) -> Any:
    """A draft 2020-12 validator whose ``$ref``s resolve only to ``schema`` and ``resources``.

    A ``$ref`` to any other URI raises ``referencing.exceptions.Unresolvable`` when it is
    reached; nothing is ever fetched. Use it wherever a schema is applied outside validation.
    """
    known = dict(resources or {})
    if isinstance(schema.get("$id"), str):
        known[schema["$id"]] = schema
    registry: Registry[Any] = Registry().with_resources(
        (uri, Resource.from_contents(contents, default_specification=DRAFT202012))
        for uri, contents in known.items()
    )
    return Draft202012Validator(schema, registry=registry)


# Reading a folder of JSON Schema files that someone else wrote (a host's ``docs/a2a/ext``).
#
# The subtree build serves such files at their ``$id`` and ``validate`` / ``conform`` check data
# with them, so both read them the same strict way: regular files only (no symbolic link is
# followed), bounded in size, UTF-8 JSON with no duplicate key and no ``NaN``. The bytes are
# kept as read: a schema is served and hashed byte for byte, never re-serialised.

MAX_SCHEMA_BYTES = 1024 * 1024
"""A schema file larger than this is refused: extension schemas are a few KiB."""


@dataclass(frozen=True)
class SchemaFile:
    """One ``*.json`` file of a schema folder, as read."""

    name: str
    content: bytes
    document: Any
    """The parsed JSON (a schema is an object; any other value has no ``$id``)."""

    @property
    def schema_id(self) -> str | None:
        """The top-level ``$id``, or None when the document has none."""
        value = self.document.get("$id") if isinstance(self.document, dict) else None
        return value if isinstance(value, str) else None

    @property
    def sha256(self) -> str:
        import hashlib  # loading OpenSSL is a start-up cost only a hash pays

        return hashlib.sha256(self.content).hexdigest()


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"duplicate key {key!r}")
        seen[key] = value
    return seen


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_schema_bytes(content: bytes, where: str) -> Any:
    """``content`` parsed as strict JSON; ``SchemaError`` naming ``where`` when it is not."""
    try:
        text = content.decode("utf-8")
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise SchemaError(f"{where}: not UTF-8 text") from None
    except RecursionError:
        raise SchemaError(f"{where}: nested too deeply") from None
    except ValueError as exc:
        raise SchemaError(f"{where}: not valid JSON ({exc})") from None


def read_schema_file(path: Path) -> SchemaFile:
    """One schema file; ``SchemaError`` with a one-line reason when it cannot be used."""
    try:
        info = path.lstat()
    except OSError as exc:
        raise SchemaError(f"{path}: cannot be read ({os_reason(exc)})") from None
    if stat.S_ISLNK(info.st_mode):
        raise SchemaError(f"{path}: a symbolic link; schema files are read only as they are")
    if not stat.S_ISREG(info.st_mode):
        raise SchemaError(f"{path}: not a regular file")
    if info.st_size > MAX_SCHEMA_BYTES:
        raise SchemaError(f"{path}: {info.st_size} bytes, more than {MAX_SCHEMA_BYTES}")
    try:
        content = path.read_bytes()[: MAX_SCHEMA_BYTES + 1]
    except OSError as exc:
        raise SchemaError(f"{path}: cannot be read ({os_reason(exc)})") from None
    if len(content) > MAX_SCHEMA_BYTES:
        raise SchemaError(f"{path}: more than {MAX_SCHEMA_BYTES} bytes")
    document = parse_schema_bytes(content, str(path))
    if isinstance(document, dict) and "$id" in document and not isinstance(document["$id"], str):
        raise SchemaError(f"{path}: $id must be a string")
    return SchemaFile(name=path.name, content=content, document=document)


def read_schema_folder(folder: Path) -> tuple[list[SchemaFile], list[str]]:
    """Every ``*.json`` directly in ``folder`` (sorted by name), and a one-line problem for
    each file that cannot be used. A missing folder is a ``SchemaError``."""
    if not is_folder(folder):
        raise SchemaError(f"{folder}: not a folder")
    files: list[SchemaFile] = []
    problems: list[str] = []
    for path in sorted(folder.glob("*.json")):
        if path.is_dir() and not path.is_symlink():
            continue
        try:
            files.append(read_schema_file(path))
        except SchemaError as exc:
            problems.append(str(exc))
    return files, problems
