"""The parts of a card checked field by field from the proto: security and signatures.

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
from typing import Any

from th_ext.problems._problem import Problem
from th_ext.validate._a2a_model import MESSAGES, Field
from th_ext.validate._fields import FieldChecker, json_type
from th_ext.validate._pointer import pointer

__all__ = ["walk_message"]

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
