"""The card layer: an agent card against A2A 1.0 (specification section 4.4 and 5.7).

Required fields present, of the right JSON type, required strings set and required arrays
non-empty; interfaces, skills and extension entries well formed; unknown fields are warnings
(clients ignore them). An A2A 0.3 card, recognised by its top-level ``url`` and the absence of
``supportedInterfaces``, gets one problem that says what 1.0 changed instead of a list of
missing fields. Fields left out because they hold their default value (an extension's
``required`` and ``params``, the capability booleans) are normal.

Did-you-mean for a key a card should not have, and a minimal value for one it lacks.

A misspelt key (``argument_hnit``), a camelCase one where the schema is snake_case
(``argumentHint``) or the reverse: the closest allowed name is suggested when one is close
enough. Names are compared with case, ``_`` and ``-`` set aside first, then by similarity.
A missing member's hint gives a value that would pass, built from A2A 1.0's model of the card
(every required field, with a typical value) or from the extension's schema.

Small field checks shared by the card layer: presence, JSON type, non-empty, unknown keys.

Each check appends problems to a list and returns whether the value can be looked into further,
so a layer reports every problem in one pass instead of stopping at the first.

The parts of a card checked field by field from the proto: security and signatures.

``walk_message`` checks a value against one message of the generated model
(``_a2a_model``): an object, each known field of its kind (JSON name or proto name, as the
SDK's parser accepts both), REQUIRED fields present and set, at most one member of a oneof, a
message made only of a oneof naming one member, unknown fields as warnings. Where a value has
the shape A2A 0.3 gave it (a ``{"type": "http"}`` security scheme, a ``[{"bearer": []}]``
requirement, scopes as a bare array) it is an error whose hint shows the 1.0 shape, with a
placeholder for every field 1.0 requires, so that the value it proposes passes: the SDK would
parse such a value leniently into an empty one and lose it. A security scheme that holds the
1.0 member and, beside it, the 0.3 keys (what the official SDK serves on a card with 0.3
interfaces) is a note, and its 1.0 member is checked.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from difflib import get_close_matches
from typing import Any
from urllib.parse import urlsplit

from th_ext.problems._problem import Problem
from th_ext.validate._a2a_model import MESSAGES, ROOT, Field
from th_ext.validate._limits import ProblemList
from th_ext.validate._positions import pointer

__all__ = [
    "FieldChecker",
    "allowed_keys_text",
    "check_card",
    "closest_name",
    "json_type",
    "minimal_card_member",
    "minimal_schema_value",
    "walk_message",
]

_CUTOFF = 0.75

#: Values a person would write for A2A fields whose meaning is known; any other string is "…".
_TYPICAL = {
    "url": "https://agent.example/a2a",
    "protocolBinding": "JSONRPC",
    "protocolVersion": "1.0",
    "defaultInputModes": ["text/plain"],
    "defaultOutputModes": ["text/plain"],
    "version": "1.0.0",
    "uri": "https://agent.example/ext/v1",
}
_MAX_DEPTH = 4


def _folded(name: str) -> str:
    return name.replace("_", "").replace("-", "").lower()


def closest_name(name: str, allowed: Iterable[str]) -> str | None:
    """The allowed name ``name`` most likely stands for, or ``None`` when none is close."""
    names = [a for a in allowed if a != name]
    folded = _folded(name)
    for candidate in names:
        if _folded(candidate) == folded:
            return candidate
    by_fold = {_folded(c): c for c in names}
    match = get_close_matches(folded, list(by_fold), n=1, cutoff=_CUTOFF)
    return by_fold[match[0]] if match else None


def allowed_keys_text(allowed: Iterable[str]) -> str:
    """``allowed`` as a phrase for a hint: "the keys allowed here are a, b and c"."""
    names = sorted(allowed)
    if not names:
        return "no keys are allowed here"
    if len(names) == 1:
        return f"the only key allowed here is {names[0]}"
    return f"the keys allowed here are {', '.join(names[:-1])} and {names[-1]}"


def minimal_card_member(path: tuple[str | int, ...], key: str) -> str | None:
    """``"key": value`` for the A2A field ``key`` of the object at ``path`` in a card."""
    message: str | None = ROOT
    for step in path:
        if isinstance(step, int) or message is None:
            continue
        field = next((f for f in MESSAGES.get(message, ()) if f.json_name == step), None)
        message = field.target if field is not None and field.kind == "message" else None
    if message is None:
        return None
    field = next((f for f in MESSAGES.get(message, ()) if f.json_name == key), None)
    if field is None:
        return None
    return f"{json.dumps(key)}: {_compact(_card_value(field, 0))}"


def _card_value(field: Any, depth: int) -> Any:
    if field.json_name in _TYPICAL:
        return _TYPICAL[field.json_name]
    if field.kind == "message" and depth < _MAX_DEPTH:
        value: Any = {
            f.json_name: _card_value(f, depth + 1)
            for f in MESSAGES.get(field.target, ())
            if f.required
        }
    elif field.kind == "bool":
        value = False
    elif field.kind in ("int", "float"):
        value = 0
    elif field.kind in ("map", "struct", "message"):
        value = {}
    else:
        value = "…"
    return [value] if field.repeated else value


def minimal_schema_value(schema: Any, depth: int = 0) -> Any:
    """A small value that passes ``schema`` (its ``default`` when it has one), as far as the
    common keywords tell; ``$ref`` is not followed."""
    if not isinstance(schema, dict):
        return None
    if "default" in schema:
        return schema["default"]
    if "const" in schema:
        return schema["const"]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object" or (kind is None and "properties" in schema):
        properties = schema.get("properties")
        required = schema.get("required")
        properties = properties if isinstance(properties, dict) else {}
        required = required if isinstance(required, list) else []
        if depth >= _MAX_DEPTH:
            return {}
        return {
            key: minimal_schema_value(properties.get(key), depth + 1)
            for key in required
            if isinstance(key, str)
        }
    if kind == "array":
        return []
    if kind == "string":
        return "…"
    if kind in ("integer", "number"):
        return 0
    if kind == "boolean":
        return False
    return None


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


_HOST_PORT = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):[0-9]{1,5}")

_TYPE_NAMES = {
    "string": "a string",
    "boolean": "a boolean",
    "object": "an object",
    "array": "an array",
    "number": "a number",
}


def json_type(value: Any) -> str:
    """The JSON type name of a parsed value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


class FieldChecker:
    """Collects the card layer's problems; paths are tuples turned into RFC 6901 pointers."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems

    def error(self, code: str, path: tuple[str | int, ...], message: str, hint: str) -> None:
        self.problems.append(Problem("error", code, pointer(path), message, hint, "card"))

    def warn(
        self,
        code: str,
        path: tuple[str | int, ...],
        message: str,
        hint: str,
        *,
        at_key: bool = False,
    ) -> None:
        self.problems.append(
            Problem("warning", code, pointer(path), message, hint, "card", at_key=at_key)
        )

    def typed(
        self,
        obj: dict[str, Any],
        key: str,
        kind: str,
        path: tuple[str | int, ...],
        *,
        required: bool,
    ) -> bool:
        """Whether ``obj[key]`` is present with JSON type ``kind``; reports it if not."""
        where = (*path, key)
        if key not in obj:
            if required:
                member = minimal_card_member(path, key)
                self.error(
                    "missing-field",
                    where,
                    f"the required field {key!r} is missing",
                    f"add {member}" if member else f"add {key!r} ({_TYPE_NAMES[kind]})",
                )
            return False
        found = json_type(obj[key])
        if found != kind:
            self.error(
                "wrong-type",
                where,
                f"{key!r} must be {_TYPE_NAMES[kind]}, not {_article(found)}",
                f"make {key!r} {_TYPE_NAMES[kind]}",
            )
            return False
        return True

    def required_string(self, obj: dict[str, Any], key: str, path: tuple[str | int, ...]) -> bool:
        """A required string must also be set: the empty string counts as missing."""
        if not self.typed(obj, key, "string", path, required=True):
            return False
        if not obj[key].strip():
            self.error(
                "empty-field",
                (*path, key),
                f"the required field {key!r} is empty",
                f"give {key!r} a value",
            )
            return False
        return True

    def string_array(
        self, obj: dict[str, Any], key: str, path: tuple[str | int, ...], *, required: bool
    ) -> None:
        """An array of strings; a required one must have at least one element."""
        if not self.typed(obj, key, "array", path, required=required):
            return
        values = obj[key]
        if required and not values:
            self.error(
                "empty-array",
                (*path, key),
                f"the required array {key!r} is empty",
                f"{key!r} needs at least one element",
            )
        for index, item in enumerate(values):
            if not isinstance(item, str):
                self.error(
                    "wrong-type",
                    (*path, key, index),
                    f"{key!r} must hold strings, not {_article(json_type(item))}",
                    "use a string here",
                )

    def url(
        self,
        obj: dict[str, Any],
        key: str,
        path: tuple[str | int, ...],
        *,
        strict: bool,
        host_port: bool = False,
    ) -> None:
        """An absolute http(s) URL: an error when ``strict``, else a warning.

        With ``host_port`` (a gRPC interface) ``host:port`` is accepted too, as the A2A proto
        gives it (``grpc.example.com:443``).
        """
        value = obj.get(key)
        if not isinstance(value, str) or not value.strip():
            return
        if host_port and _HOST_PORT.fullmatch(value):
            return
        parts = urlsplit(value)
        if parts.scheme.lower() in ("http", "https") and parts.netloc:
            return
        if host_port and parts.scheme and parts.netloc:
            return
        report = self.error if strict else self.warn
        report(
            "invalid-url",
            (*path, key),
            f"{key!r} is not an absolute http(s) URL",
            "use a full URL such as https://agent.example/a2a",
        )

    def unknown_fields(
        self,
        obj: dict[str, Any],
        known: frozenset[str],
        path: tuple[str | int, ...],
        replaced: dict[str, str] | None = None,
        *,
        old_fields: str = "warning",
    ) -> None:
        """Warn about every key not in ``known``; ``replaced`` maps A2A 0.3 names to their fate.

        ``old_fields`` says what a 0.3 name is: a ``warning``, an ``info`` (a card that also
        serves a 0.3 interface carries them on purpose), or ``skip`` (already reported).
        """
        if obj and not any(key in known for key in obj):
            self.error(
                "no-known-field",
                path,
                "none of this object's fields is an A2A 1.0 field here",
                f"its fields are {', '.join(sorted(known))}; as it is, a client reads nothing",
            )
        for key in obj:
            if key in known:
                continue
            if replaced and key in replaced:
                if old_fields == "skip":
                    continue
                if old_fields == "info":
                    self.problems.append(
                        Problem(
                            "info",
                            "a2a-0.3-compat-field",
                            pointer((*path, key)),
                            f"{key!r} is an A2A 0.3 field, kept for the card's 0.3 interface",
                            "nothing to do while the agent serves A2A 0.3 too; " + replaced[key],
                            "card",
                            at_key=True,
                        )
                    )
                    continue
                self.warn(
                    "a2a-0.3-field",
                    (*path, key),
                    f"{key!r} is an A2A 0.3 field that 1.0 no longer has",
                    replaced[key],
                    at_key=True,
                )
            else:
                self.warn(
                    "unknown-field",
                    (*path, key),
                    f"{key!r} is not an A2A 1.0 field here; clients will ignore it",
                    _unknown_hint(key, known),
                    at_key=True,
                )


def _unknown_hint(key: str, known: frozenset[str]) -> str:
    suggestion = closest_name(key, known)
    if suggestion is not None:
        return f"did you mean {suggestion!r}?"
    return "check the spelling (field names are lowerCamelCase) or remove it"


def _article(type_name: str) -> str:
    return _TYPE_NAMES.get(type_name, type_name)


_JSON_KINDS = {"string": "string", "bool": "boolean", "struct": "object"}
_0_3_SCHEMES = {
    "apiKey": ("apiKeySecurityScheme", {"in": "location", "name": "name"}),
    "http": ("httpAuthSecurityScheme", {"scheme": "scheme", "bearerFormat": "bearerFormat"}),
    "oauth2": ("oauth2SecurityScheme", {"flows": "flows"}),
    "openIdConnect": ("openIdConnectSecurityScheme", {"openIdConnectUrl": "openIdConnectUrl"}),
    "mutualTLS": ("mtlsSecurityScheme", {}),
}
_0_3_SCHEME_KEYS = frozenset(
    {"type", "description", "in", "name", "scheme", "bearerFormat", "flows", "openIdConnectUrl"}
)
_PREFERRED_MEMBER = {"OAuthFlows": "clientCredentials"}
"""The member a placeholder uses for a message made only of a oneof."""
Path = tuple[str | int, ...]


def walk_message(value: Any, message: str, path: Path, check: FieldChecker) -> None:
    """Check ``value`` as the A2A 1.0 message ``message``; problems go to ``check``."""
    if message == "SecurityScheme" and isinstance(value, dict) and "type" in value:
        members = [f.json_name for f in MESSAGES["SecurityScheme"] if f.json_name in value]
        if members:
            _dual_scheme(value, members, path, check)
            return
        _old_scheme(value, path, check)
        return
    if message == "SecurityRequirement" and isinstance(value, dict) and _old_requirement(value):
        shape = {"schemes": {k: {"list": v} for k, v in value.items()}}
        check.error(
            "a2a-0.3-security-requirement",
            path,
            "this security requirement has the A2A 0.3 shape (scheme names as keys)",
            f"A2A 1.0 nests them under schemes: {_short(shape)}",
        )
        return
    if not isinstance(value, dict):
        check.error("wrong-type", path, f"a {message} must be an object", "use an object here")
        return
    fields = MESSAGES[message]
    by_name = {f.json_name: f for f in fields} | {f.name: f for f in fields}
    if value and not any(key in by_name for key in value):
        names = ", ".join(f.json_name for f in fields)
        check.error(
            "no-known-field",
            path,
            f"none of this object's fields is a field of {message}",
            f"its fields are {names}; as it is, a client reads nothing",
        )
    set_members: dict[str, list[str]] = {}
    for key, item in value.items():
        field = by_name.get(key)
        if field is None:
            check.warn(
                "unknown-field",
                (*path, key),
                f"{key!r} is not an A2A 1.0 field of {message}; clients will ignore it",
                "check the spelling (field names are lowerCamelCase) or remove it",
            )
            continue
        if field.oneof:
            set_members.setdefault(field.oneof, []).append(field.json_name)
        _field(item, field, (*path, key), check)
    for field in fields:
        if field.required and field.json_name not in value and field.name not in value:
            check.error(
                "missing-field",
                (*path, field.json_name),
                f"the required field {field.json_name!r} of {message} is missing",
                f"add {field.json_name!r}",
            )
    _oneofs(message, fields, set_members, path, check)


def _field(item: Any, field: Field, path: Path, check: FieldChecker) -> None:
    if field.repeated:
        if not _typed(item, "array", field, path, check):
            return
        if field.required and not item:
            check.error(
                "empty-array",
                path,
                f"the required array {field.json_name!r} is empty",
                f"{field.json_name!r} needs at least one element",
            )
        for index, element in enumerate(item):
            _single(element, field, (*path, index), check)
        return
    if field.kind == "map":
        if not _typed(item, "object", field, path, check):
            return
        if field.required and not item:
            check.error(
                "empty-field",
                path,
                f"the required map {field.json_name!r} is empty",
                f"give {field.json_name!r} at least one entry",
            )
        for key, element in item.items():
            _map_value(element, field, (*path, key), check)
        return
    _single(item, field, path, check)
    if field.required and field.kind == "string" and isinstance(item, str) and not item.strip():
        check.error(
            "empty-field",
            path,
            f"the required field {field.json_name!r} is empty",
            f"give {field.json_name!r} a value",
        )


def _single(item: Any, field: Field, path: Path, check: FieldChecker) -> None:
    if field.kind == "message":
        if field.target == "StringList" and isinstance(item, list):
            _bare_scopes(item, path, check)
            return
        walk_message(item, field.target, path, check)
        return
    _scalar(item, field.kind, field.json_name, path, check)


def _map_value(item: Any, field: Field, path: Path, check: FieldChecker) -> None:
    if field.target in MESSAGES:
        if field.target == "StringList" and isinstance(item, list):
            _bare_scopes(item, path, check)
            return
        walk_message(item, field.target, path, check)
    else:
        _scalar(item, field.target, field.json_name, path, check)


def _scalar(item: Any, kind: str, name: str, path: Path, check: FieldChecker) -> None:
    expected = _JSON_KINDS.get(kind)
    if expected is None:
        ok = (
            kind in ("int", "float")
            and isinstance(item, int | float)
            and not isinstance(item, bool)
        )
        ok = ok or (kind in ("bytes", "enum") and isinstance(item, str))
        if not ok:
            check.error("wrong-type", path, f"{name!r} holds {json_type(item)}", f"use a {kind}")
        return
    if json_type(item) != expected:
        check.error(
            "wrong-type",
            path,
            f"{name!r} must be a {expected}, not {json_type(item)}",
            f"make it a {expected}",
        )


def _typed(item: Any, expected: str, field: Field, path: Path, check: FieldChecker) -> bool:
    if json_type(item) == expected:
        return True
    check.error(
        "wrong-type",
        path,
        f"{field.json_name!r} must be an {expected}, not {json_type(item)}",
        f"make {field.json_name!r} an {expected}",
    )
    return False


def _oneofs(
    message: str,
    fields: tuple[Field, ...],
    set_members: dict[str, list[str]],
    path: Path,
    check: FieldChecker,
) -> None:
    groups = {f.oneof for f in fields if f.oneof}
    for group in sorted(groups):
        members = set_members.get(group, [])
        if len(members) > 1:
            check.error(
                "oneof-conflict",
                path,
                f"{message} may set one of its {group} fields, not {', '.join(members)}",
                f"keep one of {', '.join(members)}",
            )
        only_oneof = all(f.oneof == group for f in fields)
        if not members and only_oneof:
            names = ", ".join(f.json_name for f in fields)
            check.error(
                "empty-oneof",
                path,
                f"this {message} names none of its kinds ({names})",
                f"give exactly one of {names}; as it is, it says nothing",
            )


def _dual_scheme(
    value: dict[str, Any], members: list[str], path: Path, check: FieldChecker
) -> None:
    """The SDK's dual shape: the 1.0 member, and the 0.3 keys beside it for 0.3 clients."""
    old = sorted(key for key in value if key in _0_3_SCHEME_KEYS)
    check.problems.append(
        Problem(
            "info",
            "a2a-0.3-compat-scheme",
            pointer(path),
            f"this security scheme holds the A2A 1.0 member {members[0]!r} and, beside it, the "
            f"A2A 0.3 keys {', '.join(old)}, as the official SDK serves it for 0.3 clients",
            f"nothing to do while the agent serves A2A 0.3 too; 1.0 clients read {members[0]!r}",
            "card",
        )
    )
    rest = {key: item for key, item in value.items() if key not in _0_3_SCHEME_KEYS}
    walk_message(rest, "SecurityScheme", path, check)


def completed(message: str, value: dict[str, Any], depth: int = 0) -> dict[str, Any]:
    """``value`` with a placeholder for every field ``message`` requires (and, for a message
    made only of a oneof, one member), so that a value a hint proposes passes the check."""
    fields = MESSAGES.get(message, ())
    result = dict(value)
    if fields and all(f.oneof for f in fields) and not any(f.json_name in result for f in fields):
        chosen = next((f for f in fields if f.json_name == _PREFERRED_MEMBER.get(message)), None)
        chosen = chosen or fields[0]
        result[chosen.json_name] = _placeholder(chosen, depth)
    for field in fields:
        present = result.get(field.json_name)
        if field.required and (field.json_name not in result or present in ({}, [], "")):
            result[field.json_name] = _placeholder(field, depth)
        elif field.kind == "message" and isinstance(present, dict) and depth < 4:
            result[field.json_name] = completed(field.target, present, depth + 1)
    return result


def _placeholder(field: Field, depth: int) -> Any:
    value: Any
    if field.kind == "message":
        value = completed(field.target, {}, depth + 1) if depth < 4 else {}
    elif field.kind == "map":
        value = {
            "…": "…" if field.target not in MESSAGES else completed(field.target, {}, depth + 1)
        }
    elif field.kind == "bool":
        value = False
    elif field.kind in ("int", "float"):
        value = 0
    else:
        value = "…"
    return [value] if field.repeated else value


def _old_scheme(value: dict[str, Any], path: Path, check: FieldChecker) -> None:
    kind = value.get("type")
    target = _0_3_SCHEMES.get(kind) if isinstance(kind, str) else None
    if target is None:
        hint = (
            'in A2A 1.0 the kind is a key, for example {"httpAuthSecurityScheme": {"scheme": "…"}}'
        )
    else:
        key, renamed = target
        inner = {renamed[k]: v for k, v in value.items() if k in renamed}
        if "description" in value:
            inner["description"] = value["description"]
        member = next(f for f in MESSAGES["SecurityScheme"] if f.json_name == key)
        hint = f"in A2A 1.0 it is {_short({key: completed(member.target, inner)})}"
    check.error(
        "a2a-0.3-security-scheme",
        path,
        f'this security scheme has the A2A 0.3 shape ("type": {json.dumps(kind)})',
        hint,
    )


def _old_requirement(value: dict[str, Any]) -> bool:
    return (
        bool(value) and "schemes" not in value and all(isinstance(v, list) for v in value.values())
    )


def _bare_scopes(item: list[Any], path: Path, check: FieldChecker) -> None:
    check.error(
        "a2a-0.3-scopes",
        path,
        "the scopes are a bare array, the A2A 0.3 shape",
        f"A2A 1.0 wraps them in a StringList: {_short({'list': item})}",
    )


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 160 else text[:157] + "..."


def _json_names(message: str) -> frozenset[str]:
    return frozenset(field.json_name for field in MESSAGES[message])


CARD_FIELDS = _json_names("AgentCard")
INTERFACE_FIELDS = _json_names("AgentInterface")
CAPABILITY_FIELDS = _json_names("AgentCapabilities")
EXTENSION_FIELDS = _json_names("AgentExtension")
SKILL_FIELDS = _json_names("AgentSkill")
PROVIDER_FIELDS = _json_names("AgentProvider")
BINDINGS = frozenset({"JSONRPC", "GRPC", "HTTP+JSON"})

_INTERFACES_HINT = (
    "list each endpoint in supportedInterfaces as {url, protocolBinding, protocolVersion}"
)
CARD_0_3_FIELDS = {
    "url": f"1.0 has no top-level url: {_INTERFACES_HINT}",
    "preferredTransport": f"1.0 has no preferredTransport: {_INTERFACES_HINT} (first preferred)",
    "protocolVersion": "1.0 moved protocolVersion into each supportedInterfaces entry",
    "additionalInterfaces": f"1.0 replaced additionalInterfaces: {_INTERFACES_HINT}",
    "supportsAuthenticatedExtendedCard": "1.0 renamed it capabilities.extendedAgentCard",
    "security": "1.0 renamed it securityRequirements",
}
CAPABILITY_0_3_FIELDS = {"stateTransitionHistory": "1.0 removed stateTransitionHistory; drop it"}
SKILL_0_3_FIELDS = {"security": "1.0 renamed it securityRequirements"}
INTERFACE_0_3_FIELDS = {"transport": "1.0 renamed it protocolBinding"}


def check_card(card: dict[str, Any]) -> list[Problem]:
    """Every problem of ``card`` as an A2A 1.0 agent card (the card layer only).

    Bounded as every check is (``ProblemList``): it may raise ``TooManyProblems``.
    """
    problems = ProblemList()
    check = FieldChecker(problems)
    old_card = "url" in card and "supportedInterfaces" not in card
    if old_card:
        stated = card.get("protocolVersion")
        version = stated if isinstance(stated, str) and stated.strip() else "0.3"
        check.error(
            "a2a-0.3-card",
            (),
            f"this is an A2A {version} card (a top-level url and no supportedInterfaces), "
            "not an A2A 1.0 card",
            "A2A 1.0 lists endpoints in supportedInterfaces[{url, protocolBinding: JSONRPC, "
            "protocolVersion: '1.0'}] and drops url, preferredTransport and protocolVersion "
            "from the top level",
        )
    else:
        _interfaces(card, check)
    for key in ("name", "description", "version"):
        check.required_string(card, key, ())
    check.string_array(card, "defaultInputModes", (), required=True)
    check.string_array(card, "defaultOutputModes", (), required=True)
    if check.typed(card, "capabilities", "object", (), required=True):
        _capabilities(card["capabilities"], check)
    _skills(card, check)
    _optional(card, check)
    old_fields = "skip" if old_card else "info" if _serves_0_3(card) else "warning"
    check.unknown_fields(card, CARD_FIELDS, (), CARD_0_3_FIELDS, old_fields=old_fields)
    return problems.finished()


def _serves_0_3(card: dict[str, Any]) -> bool:
    """Whether the card lists a 0.x interface beside its 1.0 ones (a dual-version card)."""
    interfaces = card.get("supportedInterfaces")
    if not isinstance(interfaces, list):
        return False
    return any(
        isinstance(i, dict)
        and isinstance(i.get("protocolVersion"), str)
        and i["protocolVersion"].startswith("0.")
        for i in interfaces
    )


def _interfaces(card: dict[str, Any], check: FieldChecker) -> None:
    if not check.typed(card, "supportedInterfaces", "array", (), required=True):
        return
    interfaces = card["supportedInterfaces"]
    if not interfaces:
        check.error(
            "empty-array",
            ("supportedInterfaces",),
            "the required array 'supportedInterfaces' is empty",
            "list at least one interface the agent answers on",
        )
        return
    versions = []
    for index, interface in enumerate(interfaces):
        path = ("supportedInterfaces", index)
        if not isinstance(interface, dict):
            check.error("wrong-type", path, "an interface must be an object", "use {url, ...}")
            continue
        binding_ok = check.required_string(interface, "protocolBinding", path)
        binding = interface.get("protocolBinding") if binding_ok else None
        if check.required_string(interface, "url", path):
            check.url(
                interface,
                "url",
                path,
                strict=binding in ("JSONRPC", "HTTP+JSON"),
                host_port=binding == "GRPC",
            )
        if binding is not None and binding not in BINDINGS and ":" not in binding:
            check.warn(
                "unknown-protocol-binding",
                (*path, "protocolBinding"),
                f"protocol binding {binding!r} is not JSONRPC, GRPC, HTTP+JSON or a URI",
                "use one of the standard bindings (upper case) or a URI for a custom one",
            )
        if check.required_string(interface, "protocolVersion", path):
            versions.append(interface["protocolVersion"])
        if "tenant" in interface:
            check.typed(interface, "tenant", "string", path, required=False)
        check.unknown_fields(interface, INTERFACE_FIELDS, path, INTERFACE_0_3_FIELDS)
    if versions and not any(v == "1.0" or v.startswith("1.0.") for v in versions):
        check.warn(
            "no-1.0-interface",
            ("supportedInterfaces",),
            "no interface declares protocolVersion '1.0'",
            "an A2A 1.0 agent lists at least one interface with protocolVersion '1.0'",
        )


def _capabilities(capabilities: dict[str, Any], check: FieldChecker) -> None:
    path = ("capabilities",)
    for flag in ("streaming", "pushNotifications", "extendedAgentCard"):
        check.typed(capabilities, flag, "boolean", path, required=False)
    if check.typed(capabilities, "extensions", "array", path, required=False):
        for index, entry in enumerate(capabilities["extensions"]):
            _extension_entry(entry, (*path, "extensions", index), check)
    check.unknown_fields(capabilities, CAPABILITY_FIELDS, path, CAPABILITY_0_3_FIELDS)


def _extension_entry(entry: Any, path: tuple[str | int, ...], check: FieldChecker) -> None:
    if not isinstance(entry, dict):
        check.error("wrong-type", path, "an extension entry must be an object", "use {uri, ...}")
        return
    check.required_string(entry, "uri", path)
    check.typed(entry, "description", "string", path, required=False)
    check.typed(entry, "required", "boolean", path, required=False)
    check.typed(entry, "params", "object", path, required=False)
    check.unknown_fields(entry, EXTENSION_FIELDS, path)


SKILLS_HINT = (
    'add "skills": [{"id": "…", "name": "…", "description": "…", "tags": ["…"]}]; an agent '
    'with no skills must still serve "skills": [], but the official A2A SDKs leave an empty '
    "list out of the card they serve, so only a declared skill keeps the member"
)


def _skills(card: dict[str, Any], check: FieldChecker) -> None:
    if "skills" not in card:
        check.error(
            "missing-field", ("skills",), "the required field 'skills' is missing", SKILLS_HINT
        )
        return
    if not check.typed(card, "skills", "array", (), required=True):
        return
    skills = card["skills"]
    if not skills:
        check.error(
            "empty-array",
            ("skills",),
            "the required array 'skills' is empty",
            "describe at least one skill the agent has",
        )
    seen: set[str] = set()
    for index, skill in enumerate(skills):
        path = ("skills", index)
        if not isinstance(skill, dict):
            check.error("wrong-type", path, "a skill must be an object", "use {id, name, ...}")
            continue
        if check.required_string(skill, "id", path):
            if skill["id"] in seen:
                check.warn(
                    "duplicate-skill-id",
                    (*path, "id"),
                    f"skill id {skill['id']!r} is used by an earlier skill",
                    "give every skill its own id",
                )
            seen.add(skill["id"])
        check.required_string(skill, "name", path)
        check.required_string(skill, "description", path)
        check.string_array(skill, "tags", path, required=True)
        for key in ("examples", "inputModes", "outputModes"):
            check.string_array(skill, key, path, required=False)
        _messages(skill, "securityRequirements", "SecurityRequirement", path, check)
        check.unknown_fields(skill, SKILL_FIELDS, path, SKILL_0_3_FIELDS)


def _optional(card: dict[str, Any], check: FieldChecker) -> None:
    if check.typed(card, "provider", "object", (), required=False):
        provider = card["provider"]
        check.required_string(provider, "organization", ("provider",))
        if check.required_string(provider, "url", ("provider",)):
            check.url(provider, "url", ("provider",), strict=False)
        check.unknown_fields(provider, PROVIDER_FIELDS, ("provider",))
    for key in ("documentationUrl", "iconUrl"):
        if check.typed(card, key, "string", (), required=False):
            check.url(card, key, (), strict=False)
    if check.typed(card, "securitySchemes", "object", (), required=False):
        for name, scheme in card["securitySchemes"].items():
            walk_message(scheme, "SecurityScheme", ("securitySchemes", name), check)
    _messages(card, "securityRequirements", "SecurityRequirement", (), check)
    _messages(card, "signatures", "AgentCardSignature", (), check)


def _messages(
    obj: dict[str, Any], key: str, message: str, path: tuple[str | int, ...], check: FieldChecker
) -> None:
    """An optional array of ``message`` values, each checked from the proto."""
    if not check.typed(obj, key, "array", path, required=False):
        return
    for index, item in enumerate(obj[key]):
        walk_message(item, message, (*path, key, index), check)
