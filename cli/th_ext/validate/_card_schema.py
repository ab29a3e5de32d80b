"""The JSON Schema (draft 2020-12) of an A2A 1.0 agent card, made from the proto's facts
(``_a2a_model``), with each known extension's ``params`` bound by the entry's ``uri``."""

from __future__ import annotations

import hashlib
import posixpath
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from th_ext._exceptions import CatalogError
from th_ext.catalog._reader import discover, schema_bytes
from th_ext.catalog._records import ExtensionVersion, canonical_schema_text
from th_ext.problems import closest_name, quoted
from th_ext.validate._a2a_model import MESSAGES, ROOT, Field

__all__ = [
    "BINDINGS_DEF",
    "CARD_SCHEMA_KEY",
    "CARD_SCHEMA_NAME",
    "CARD_SCHEMA_URL",
    "URL_PATTERN",
    "binding",
    "card_rules_sha256",
    "card_schema",
    "card_schema_bytes",
    "published_schema_bytes",
]

CARD_SCHEMA_KEY = "agent-card/v1"
"""How the lock and ``th-ext schema`` name the card schema."""
CARD_SCHEMA_NAME = "agent-card"
"""The card schema's short name for ``th-ext schema``."""
CARD_SCHEMA_URL = (
    "https://madarauchiha-314.github.io/tiny-harness/a2a/ext/agent-card/v1/schema.json"
)
BINDINGS_DEF = "KnownExtensionParams"
"""The definition that binds each known extension's ``params``: one ``if``/``then`` per URI."""

URL_PATTERN = "^[Hh][Tt][Tt][Pp][Ss]?://[^/?#\\s]"
"""An absolute http(s) URL: the scheme, then a host."""

#: Values a person would write for fields whose meaning is known (the hints' and editors' pick).
_EXAMPLES: dict[str, Any] = {
    "url": "https://agent.example/a2a",
    "protocolBinding": "JSONRPC",
    "protocolVersion": "1.0",
    "defaultInputModes": ["text/plain"],
    "defaultOutputModes": ["text/plain"],
    "version": "1.0.0",
    "uri": "https://agent.example/ext/v1",
}
#: Interface bindings whose ``url`` must be an absolute http(s) URL.
_HTTP_BINDINGS = ["JSONRPC", "HTTP+JSON"]
_TEXT = {"type": "string", "minLength": 1}
_HTTP_URL = {"type": "string", "pattern": URL_PATTERN}
_SCALARS = {
    "string": {"type": "string"},
    "bytes": {"type": "string"},
    "enum": {"type": "string"},
    "bool": {"type": "boolean"},
    "int": {"type": "number"},
    "float": {"type": "number"},
    "struct": {"type": "object"},
}


def card_schema(bindings: Iterable[tuple[str, str]] = ()) -> dict[str, Any]:
    """The card schema; ``bindings`` are ``(extension URI, $ref of its params schema)``."""
    defs: dict[str, Any] = {name: _message(name, fields) for name, fields in MESSAGES.items()}
    defs["AgentInterface"]["allOf"] = [
        {
            "if": {
                "properties": {"protocolBinding": {"enum": _HTTP_BINDINGS}},
                "required": ["protocolBinding"],
            },
            "then": {"properties": {"url": _HTTP_URL}},
        }
    ]
    defs["AgentExtension"]["required"] = ["uri"]
    defs["AgentExtension"]["properties"]["uri"] = dict(_TEXT)
    defs["AgentExtension"]["$ref"] = f"#/$defs/{BINDINGS_DEF}"
    rules = [
        {
            "if": {"properties": {"uri": {"const": uri}}, "required": ["uri"]},
            "then": {"properties": {"params": {"$ref": ref}}},
        }
        for uri, ref in bindings
    ]
    defs[BINDINGS_DEF] = {"allOf": rules} if rules else {}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": CARD_SCHEMA_URL,
        "title": "A2A 1.0 agent card",
        "description": (
            "An A2A 1.0 agent card (AgentCard in a2a.proto), with the params of every "
            "extension published under https://madarauchiha-314.github.io/tiny-harness/a2a/ext/ "
            "checked against that extension's schema. Fields the proto does not know are "
            "allowed: clients ignore them."
        ),
        "$ref": f"#/$defs/{ROOT}",
        "$defs": dict(sorted(defs.items())),
    }


def _message(name: str, fields: tuple[Field, ...]) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "title": name,
        "type": "object",
        "properties": {field.json_name: _field(field) for field in fields},
    }
    required = [field.json_name for field in fields if field.required]
    if required:
        schema["required"] = required
    members = [field.json_name for field in fields if field.oneof]
    if members and len(members) == len(fields):
        schema["oneOf"] = [{"required": [member]} for member in members]
    elif not required:  # a value none of whose keys is a field says nothing a client reads
        schema["anyOf"] = [{"required": [f.json_name]} for f in fields] + [{"maxProperties": 0}]
    return schema


def _field(field: Field) -> dict[str, Any]:
    if field.kind == "message":
        item: dict[str, Any] = {"$ref": f"#/$defs/{field.target}"}
    elif field.kind == "map":
        value = MESSAGES.get(field.target)
        inner = {"$ref": f"#/$defs/{field.target}"} if value else dict(_SCALARS[field.target])
        item = {"type": "object", "additionalProperties": inner}
        if field.required:
            item["minProperties"] = 1
    elif field.kind == "string" and field.required and not field.repeated:
        item = dict(_TEXT)
    else:
        item = dict(_SCALARS[field.kind])
    if field.repeated:
        item = {"type": "array", "items": item}
        if field.required:
            item["minItems"] = 1
    if field.kind == "bool":
        item["default"] = False
    if field.json_name in _EXAMPLES:
        item["examples"] = [_EXAMPLES[field.json_name]]
    return item


def binding(uri: str, schema_url: str) -> tuple[str, str]:
    """The binding of the extension ``uri`` to the params schema at ``schema_url`` (relative to
    the card schema when both are on the same site)."""
    here, there = urlsplit(CARD_SCHEMA_URL), urlsplit(schema_url)
    if (here.scheme, here.netloc) != (there.scheme, there.netloc) or there.query:
        return uri, schema_url
    return uri, posixpath.relpath(there.path, posixpath.dirname(here.path))


def card_schema_bytes(extensions_dir: Path | None = None) -> bytes:
    """The published card schema: every extension version of the catalog (the bundled one by
    default) bound, in catalog order."""
    return _card_schema_bytes(discover(extensions_dir))


def _card_schema_bytes(versions: Iterable[ExtensionVersion]) -> bytes:
    schema = card_schema(binding(v.uri, v.schema_url) for v in versions)
    return canonical_schema_text(schema).encode("utf-8")


def published_schema_bytes(name: str, extensions_dir: Path | None = None) -> bytes:
    """The bytes of the published schema ``name`` stands for, from the catalog (the bundled one
    by default).

    The card schema is ``agent-card``, ``agent-card/v1`` or its ``$id``; an extension version's
    schema is ``<name>/<version>``, the version's URI (with or without a final ``/``) or the
    schema's ``$id``. A URL must be one of those exactly. ``CatalogError`` for any other name,
    saying the closest one, or which names there are.
    """
    versions = discover(extensions_dir)
    if name in (CARD_SCHEMA_NAME, CARD_SCHEMA_KEY, CARD_SCHEMA_URL):
        return _card_schema_bytes(versions)
    for version in versions:
        if name in (version.key, version.uri, version.uri + "/", version.schema_url):
            return schema_bytes(version)
    raise CatalogError(_unknown_schema(name, versions))


def _unknown_schema(name: str, versions: list[ExtensionVersion]) -> str:
    """One line for a name ``published_schema_bytes`` does not know: the closest name (a URL's
    closest URL), and the names there are."""
    known = ", ".join([CARD_SCHEMA_NAME, *(v.key for v in versions)])
    if "://" in name:
        urls = [CARD_SCHEMA_URL, *(url for v in versions for url in (v.uri, v.schema_url))]
        meant = closest_name(name, urls)
        known += ", or a schema's exact $id, or an extension's exact URI"
    else:
        meant = closest_name(name, [CARD_SCHEMA_NAME, CARD_SCHEMA_KEY, *(v.key for v in versions)])
    suggestion = f"; did you mean {meant!r}?" if meant is not None else ""
    return f"no schema {quoted(name, 200)}{suggestion} (known: {known})"


def card_rules_sha256() -> str:
    """The sha256 of the card schema with no extension bound: the A2A rules the lock freezes."""
    text = canonical_schema_text(card_schema())
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
