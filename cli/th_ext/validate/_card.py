"""The card layer: an agent card against the card schema, one compiled validator that also checks
each known extension's params, and the rules a schema cannot say (``BEYOND_SCHEMA``)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from contextlib import suppress
from dataclasses import replace
from typing import Any, NamedTuple

from jsonschema.protocols import Validator

from th_ext._deadline import Deadline
from th_ext._exceptions import cut
from th_ext.net import url_problem
from th_ext.problems._problem import Problem
from th_ext.problems._text import closest_name, quoted
from th_ext.validate._a2a_model import MESSAGES, ROOT, Field
from th_ext.validate._card_schema import binding, card_schema
from th_ext.validate._limits import MAX_PER_LAYER, ProblemList, TooManyProblems
from th_ext.validate._positions import pointer
from th_ext.validate._schema import (
    ParamsSchema,
    check_schema,
    problems_for,
    reading_errors,
    safe_validator,
)

__all__ = ["BEYOND_SCHEMA", "CardSchema", "card_validator", "check_card", "extension_entries"]

#: The card layer's rules beyond the schema (the site says why no schema can state each).
BEYOND_SCHEMA = (
    "a2a-0.3-card",
    "a2a-0.3-security-scheme",
    "a2a-0.3-security-requirement",
    "a2a-0.3-scopes",
    "a2a-0.3-compat-scheme",
    "a2a-0.3-compat-field",
    "a2a-0.3-field",
    "unknown-field",
    "invalid-url",
    "unknown-protocol-binding",
    "no-1.0-interface",
    "duplicate-skill-id",
)

SKILLS_HINT = (
    'add "skills": [{"id": "…", "name": "…", "description": "…", "tags": ["…"]}]; an agent '
    'with no skills must still serve "skills": [], but the official A2A SDKs leave an empty '
    "list out of the card they serve, so only a declared skill keeps the member"
)
#: Of two problems the schema finds at one path, the one that says more about what to do.
_RANK = {"wrong-type": 0, "missing-field": 1, "empty-field": 2, "empty-array": 2}
_INTERFACES_HINT = (
    "list each endpoint in supportedInterfaces as {url, protocolBinding, protocolVersion}"
)
#: Fields A2A 0.3 had where 1.0 has none, by message, with what became of each.
_0_3_FIELDS = {
    ROOT: {
        "url": f"1.0 has no top-level url: {_INTERFACES_HINT}",
        "preferredTransport": f"1.0 has no preferredTransport: {_INTERFACES_HINT} (first "
        "preferred)",
        "protocolVersion": "1.0 moved protocolVersion into each supportedInterfaces entry",
        "additionalInterfaces": f"1.0 replaced additionalInterfaces: {_INTERFACES_HINT}",
        "supportsAuthenticatedExtendedCard": "1.0 renamed it capabilities.extendedAgentCard",
        "security": "1.0 renamed it securityRequirements",
    },
    "AgentCapabilities": {"stateTransitionHistory": "1.0 removed stateTransitionHistory; drop it"},
    "AgentSkill": {"security": "1.0 renamed it securityRequirements"},
    "AgentInterface": {"transport": "1.0 renamed it protocolBinding"},
}
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
#: Keys an editor reads and every A2A client ignores (the SDK's card resolver drops them).
_EDITOR_KEYS = frozenset({"$schema"})
_FIELDS = {name: {f.json_name: f for f in fields} for name, fields in MESSAGES.items()}
_BINDINGS = frozenset({"JSONRPC", "GRPC", "HTTP+JSON"})
_HOST_PORT = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):[0-9]{1,5}")
#: A gRPC target as gRPC names it: ``scheme:`` and the rest (``dns:///host:port``, ``unix:path``).
_GRPC_TARGET = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:[^\s]+")
_HTTP_URL = re.compile(r"[Hh][Tt][Tt][Pp][Ss]?://[^/?#\s]")
_INDEX = re.compile(r"[0-9]+")
_PREFERRED_MEMBER = {"OAuthFlows": "clientCredentials"}
_CACHED_VALIDATORS = 32
Path = tuple[str | int, ...]


class CardSchema(NamedTuple):
    """The card schema for one set of known extensions, and its compiled validator."""

    schema: dict[str, Any]
    validator: Validator
    names: dict[str, str]
    """The name each bound extension URI's schema goes by in hints."""


_validators: dict[tuple[Any, ...], tuple[list[Any], CardSchema]] = {}


def card_validator(
    params: Mapping[str, ParamsSchema], others: Mapping[str, Any] | None = None
) -> CardSchema:
    """The card schema with each ``params`` schema bound to its URI, compiled once and reused;
    ``$ref`` reaches those and the ``others`` schemas (by URL).

    A schema that is not bundled is checked against the metaschema first (``SchemaError``);
    the bundled ones are checked when they are published.
    """
    resources = {**(others or {}), **{p.url: p.schema for p in params.values()}}
    key = tuple((uri, p.url, id(p.schema)) for uri, p in params.items()) + tuple(
        (url, id(contents)) for url, contents in resources.items()
    )
    cached = _validators.get(key)
    if cached is not None:
        return cached[1]
    for schema in params.values():
        if not schema.bundled:
            check_schema(schema.schema, schema.name)
    document = card_schema(binding(uri, p.url) for uri, p in params.items())
    names = {uri: p.name for uri, p in params.items()}
    compiled = CardSchema(document, safe_validator(document, resources), names)
    if len(_validators) >= _CACHED_VALIDATORS:
        _validators.pop(next(iter(_validators)))
    _validators[key] = ([*params.values(), *resources.values()], compiled)
    return compiled


def check_card(
    card: dict[str, Any], schema: CardSchema, deadline: Deadline | None = None
) -> tuple[list[Problem], dict[int, list[Problem]]]:
    """The card layer's problems, and each known extension entry's schema problems by index.

    Bounded as every check is: the schema's errors are read one at a time, at most
    ``MAX_PER_LAYER`` of them, and at most one card problem is kept per path.
    """
    by_path: dict[str, Problem] = {}
    params: dict[int, list[tuple[list[tuple[bool, str | int]], Problem]]] = {}
    entries = extension_entries(card)
    stopped = False
    with reading_errors("the card schema", deadline):
        for count, error in enumerate(schema.validator.iter_errors(card)):
            if deadline is not None:
                deadline.check()
            if count >= MAX_PER_LAYER:
                stopped = True
                break
            path = tuple(error.absolute_path)
            index = _params_entry(path, error.validator)
            if index is not None:
                name = schema.names.get(_uri(entries, index), "the extension's schema")
                key = [(isinstance(step, str), step) for step in path]
                params.setdefault(index, []).extend(
                    (key, problem) for problem in problems_for(error, (), name)
                )
                continue
            for problem in problems_for(error, (), "A2A 1.0", layer="card", root=schema.schema):
                known = by_path.get(problem.path)
                if known is None or _RANK.get(problem.code, 9) < _RANK.get(known.code, 9):
                    by_path[problem.path] = _skills_hint(problem)
            del error
    card_problems = _explained(card, list(by_path.values())) + _beyond_schema(card)
    return _bounded(sorted(card_problems, key=_path_key), stopped), {
        index: _bounded([p for _, p in sorted(pairs, key=lambda pair: pair[0])], stopped)
        for index, pairs in params.items()
    }


def _skills_hint(problem: Problem) -> Problem:
    """A missing ``skills`` explained: the SDKs leave an empty list out of the card."""
    if problem.path == "/skills" and problem.code == "missing-field":
        return replace(problem, hint=SKILLS_HINT)
    return problem


def _bounded(problems: list[Problem], stopped: bool) -> list[Problem]:
    """``problems`` with each code capped, and a note when reading stopped early."""
    found = ProblemList()
    with suppress(TooManyProblems):
        found.extend(problems)
    found.stopped = found.stopped or stopped
    return found.finished()


def _path_key(problem: Problem) -> list[tuple[bool, str | int]]:
    parts = problem.path.split("/")[1:]
    return [(not _INDEX.fullmatch(p), int(p) if _INDEX.fullmatch(p) else p) for p in parts]


def extension_entries(card: dict[str, Any]) -> list[Any]:
    """``capabilities.extensions``, or no entry when it is not a list."""
    capabilities = card.get("capabilities")
    entries = capabilities.get("extensions") if isinstance(capabilities, dict) else None
    return entries if isinstance(entries, list) else []


def _uri(entries: list[Any], index: int) -> str:
    entry = entries[index] if index < len(entries) else None
    uri = entry.get("uri") if isinstance(entry, dict) else None
    return uri if isinstance(uri, str) else ""


def _params_entry(path: Path, keyword: Any) -> int | None:
    """The index of the extension entry whose params an error is inside, or None when the
    error is the card's (a ``params`` that is not an object is the card's to report)."""
    if len(path) < 4 or path[:2] != ("capabilities", "extensions") or path[3] != "params":
        return None
    if len(path) == 4 and keyword == "type":
        return None
    return path[2] if isinstance(path[2], int) else None


# The A2A 0.3 shapes: recognised, and each said once with its 1.0 form, in place of the
# schema's problems at and under its path.


def _explained(card: dict[str, Any], problems: list[Problem]) -> list[Problem]:
    replaced: dict[str, Problem | None] = {}
    if _old_card(card):
        replaced["/supportedInterfaces"] = None
        stated = card.get("protocolVersion")
        version = stated if isinstance(stated, str) and stated.strip() else "0.3"
        problems.append(
            _error(
                "a2a-0.3-card",
                (),
                f"this is an A2A {version} card (a top-level url and no supportedInterfaces), "
                "not an A2A 1.0 card",
                "A2A 1.0 lists endpoints in supportedInterfaces[{url, protocolBinding: JSONRPC, "
                "protocolVersion: '1.0'}] and drops url, preferredTransport and protocolVersion "
                "from the top level",
            )
        )
    for path, value in _security_values(card):
        replacement = _old_shape(path, value)
        if replacement is not None:
            replaced[pointer(path)] = replacement
    kept = [p for p in problems if not _under(p.path, replaced)]
    return kept + [p for p in replaced.values() if p is not None]


def _under(path: str, prefixes: Mapping[str, Any]) -> bool:
    return any(path == prefix or path.startswith(prefix + "/") for prefix in prefixes)


def _old_card(card: dict[str, Any]) -> bool:
    return "url" in card and "supportedInterfaces" not in card


def _security_values(card: dict[str, Any]) -> Iterator[tuple[Path, Any]]:
    """Every security scheme, security requirement and scope list on the card, with its path."""
    schemes = card.get("securitySchemes")
    if isinstance(schemes, dict):
        for name, scheme in schemes.items():
            yield ("securitySchemes", name), scheme
    places: list[tuple[Path, Any]] = [((), card)]
    skills = card.get("skills")
    if isinstance(skills, list):
        places += [(("skills", index), skill) for index, skill in enumerate(skills)]
    for base, holder in places:
        requirements = holder.get("securityRequirements") if isinstance(holder, dict) else None
        for index, requirement in enumerate(requirements if isinstance(requirements, list) else []):
            path = (*base, "securityRequirements", index)
            yield path, requirement
            inner = requirement.get("schemes") if isinstance(requirement, dict) else None
            for name, scopes in inner.items() if isinstance(inner, dict) else ():
                yield (*path, "schemes", name), scopes


def _old_shape(path: Path, value: Any) -> Problem | None:
    """The problem that names a 0.3 shape at ``path``, or None."""
    if path[0] == "securitySchemes" and len(path) == 2:
        if isinstance(value, dict) and "type" in value and not _members(value):
            return _old_scheme(value, path)
        return None
    if path[-2] == "schemes":
        if isinstance(value, list):
            return _error(
                "a2a-0.3-scopes",
                path,
                "the scopes are a bare array, the A2A 0.3 shape",
                f"A2A 1.0 wraps them in a StringList: {_short({'list': value})}",
            )
        return None
    if _old_requirement(value):
        shape = {"schemes": {k: {"list": v} for k, v in value.items()}}
        return _error(
            "a2a-0.3-security-requirement",
            path,
            "this security requirement has the A2A 0.3 shape (scheme names as keys)",
            f"A2A 1.0 nests them under schemes: {_short(shape)}",
        )
    return None


def _old_requirement(value: Any) -> bool:
    """A security requirement with scheme names as keys and scope arrays as values."""
    return (
        isinstance(value, dict)
        and bool(value)
        and "schemes" not in value
        and all(isinstance(v, list) for v in value.values())
    )


def _members(scheme: dict[str, Any]) -> list[str]:
    return [name for name in _FIELDS["SecurityScheme"] if name in scheme]


def _old_scheme(value: dict[str, Any], path: Path) -> Problem:
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
        member = _FIELDS["SecurityScheme"][key]
        hint = f"in A2A 1.0 it is {_short({key: completed(member.target, inner)})}"
    return _error(
        "a2a-0.3-security-scheme",
        path,
        f'this security scheme has the A2A 0.3 shape ("type": {json.dumps(kind)})',
        hint,
    )


def completed(message: str, value: dict[str, Any]) -> dict[str, Any]:
    """``value`` with a placeholder for every field ``message`` requires (and, for a message
    made only of a oneof, one member), so that a value a hint proposes passes the check.

    A2A 1.0 requires only strings, string maps and messages (a test holds the model to that),
    and no message requires itself, so the placeholders are ``"…"``, ``{"…": "…"}`` and the
    message completed in turn.
    """
    fields = MESSAGES.get(message, ())
    result = dict(value)
    if fields and all(f.oneof for f in fields) and not any(f.json_name in result for f in fields):
        chosen = next((f for f in fields if f.json_name == _PREFERRED_MEMBER.get(message)), None)
        chosen = chosen or fields[0]
        result[chosen.json_name] = _placeholder(chosen)
    for field in fields:
        present = result.get(field.json_name)
        if field.required and (field.json_name not in result or present in ({}, [], "")):
            result[field.json_name] = _placeholder(field)
        elif field.kind == "message" and isinstance(present, dict):
            result[field.json_name] = completed(field.target, present)
    return result


def _placeholder(field: Field) -> Any:
    value: Any
    if field.kind == "message":
        value = completed(field.target, {})
    elif field.kind == "map":
        value = {"…": "…"}
    else:
        value = "…"
    return [value] if field.repeated else value


def _short(value: Any) -> str:
    return cut(json.dumps(value, ensure_ascii=True), 160)


def _error(code: str, path: Path, message: str, hint: str) -> Problem:
    return Problem("error", code, pointer(path), message, hint, "card")


def _warning(code: str, path: Path, message: str, hint: str, *, at_key: bool = False) -> Problem:
    return Problem("warning", code, pointer(path), message, hint, "card", at_key=at_key)


# The rules beyond the schema: warnings and notes (JSON Schema has only errors), and what needs
# two values compared.


def _beyond_schema(card: dict[str, Any]) -> list[Problem]:
    problems: list[Problem] = []
    _fields(card, ROOT, (), problems, _old_fields(card))
    _interfaces(card.get("supportedInterfaces"), problems)
    _skills(card.get("skills"), problems)
    provider = card.get("provider")
    if isinstance(provider, dict):
        _loose_url(provider, "url", ("provider",), problems)
    for key in ("documentationUrl", "iconUrl"):
        _loose_url(card, key, (), problems)
    return problems


def _old_fields(card: dict[str, Any]) -> str:
    """What a 0.3 top-level field is: ``skip`` on a 0.3 card (said once), ``info`` on a card
    that also lists a 0.x interface, else ``warning``."""
    if _old_card(card):
        return "skip"
    interfaces = card.get("supportedInterfaces")
    for interface in interfaces if isinstance(interfaces, list) else []:
        version = interface.get("protocolVersion") if isinstance(interface, dict) else None
        if isinstance(version, str) and version.startswith("0."):
            return "info"
    return "warning"


def _fields(value: Any, message: str, path: Path, found: list[Problem], old: str) -> None:
    """Every key of ``value`` (an A2A ``message``) and below it that A2A 1.0 does not have."""
    if not isinstance(value, dict):
        return
    fields = _FIELDS[message]
    skip: frozenset[str] = frozenset()
    if message == "SecurityScheme" and "type" in value:
        if not _members(value):
            return  # the 0.3 shape, said once
        skip = _0_3_SCHEME_KEYS
        found.append(_compat_scheme(value, path))
    if message == "SecurityRequirement" and _old_requirement(value):
        return
    if message == ROOT:
        skip = _EDITOR_KEYS
    replaced = _0_3_FIELDS.get(message, {})
    for key, item in value.items():
        field = fields.get(key)
        if field is not None:
            _descend(item, field, (*path, key), found)
        elif key in replaced:
            _old_field(key, replaced[key], (*path, key), found, old if message == ROOT else "")
        elif key not in skip:
            found.append(
                _warning(
                    "unknown-field",
                    (*path, key),
                    f"{quoted(key)} is not an A2A 1.0 field here; clients will ignore it",
                    _unknown_hint(key, fields),
                    at_key=True,
                )
            )


def _descend(item: Any, field: Field, path: Path, found: list[Problem]) -> None:
    if field.kind == "message" and field.repeated and isinstance(item, list):
        for index, element in enumerate(item):
            _fields(element, field.target, (*path, index), found, "")
    elif field.kind == "message":
        _fields(item, field.target, path, found, "")
    elif field.kind == "map" and field.target in MESSAGES and isinstance(item, dict):
        for key, element in item.items():
            _fields(element, field.target, (*path, key), found, "")


def _old_field(key: str, fate: str, path: Path, found: list[Problem], old: str) -> None:
    if old == "skip":
        return
    if old == "info":
        found.append(
            Problem(
                "info",
                "a2a-0.3-compat-field",
                pointer(path),
                f"{quoted(key)} is an A2A 0.3 field, kept for the card's 0.3 interface",
                "nothing to do while the agent serves A2A 0.3 too; " + fate,
                "card",
                at_key=True,
            )
        )
        return
    found.append(
        _warning(
            "a2a-0.3-field",
            path,
            f"{quoted(key)} is an A2A 0.3 field that 1.0 no longer has",
            fate,
            at_key=True,
        )
    )


def _unknown_hint(key: str, known: Mapping[str, Field]) -> str:
    suggestion = closest_name(key, known)
    if suggestion is not None:
        return f"did you mean {suggestion!r}?"
    return "check the spelling (field names are lowerCamelCase) or remove it"


def _compat_scheme(value: dict[str, Any], path: Path) -> Problem:
    """The SDK's dual shape: the 1.0 member, and the 0.3 keys beside it for 0.3 clients."""
    old = sorted(key for key in value if key in _0_3_SCHEME_KEYS)
    member = _members(value)[0]
    return Problem(
        "info",
        "a2a-0.3-compat-scheme",
        pointer(path),
        f"this security scheme holds the A2A 1.0 member {member!r} and, beside it, the "
        f"A2A 0.3 keys {', '.join(old)}, as the official SDK serves it for 0.3 clients",
        f"nothing to do while the agent serves A2A 0.3 too; 1.0 clients read {member!r}",
        "card",
    )


def _interfaces(interfaces: Any, found: list[Problem]) -> None:
    versions: list[str] = []
    for index, interface in enumerate(interfaces if isinstance(interfaces, list) else []):
        if not isinstance(interface, dict):
            continue
        path: Path = ("supportedInterfaces", index)
        binding_name = interface.get("protocolBinding")
        if isinstance(binding_name, str) and binding_name.strip():
            if binding_name not in _BINDINGS and ":" not in binding_name:
                found.append(
                    _warning(
                        "unknown-protocol-binding",
                        (*path, "protocolBinding"),
                        f"protocol binding {quoted(binding_name)} is not JSONRPC, GRPC, HTTP+JSON "
                        "or a URI",
                        "use one of the standard bindings (upper case) or a URI for a custom one",
                    )
                )
            if binding_name in ("JSONRPC", "HTTP+JSON"):  # the schema checks the form
                _unsendable_url(interface, "url", path, found)
            else:
                _loose_url(interface, "url", path, found, grpc=binding_name == "GRPC")
        version = interface.get("protocolVersion")
        if isinstance(version, str) and version.strip():
            versions.append(version)
    if versions and not any(v == "1.0" or v.startswith("1.0.") for v in versions):
        found.append(
            _warning(
                "no-1.0-interface",
                ("supportedInterfaces",),
                "no interface declares protocolVersion '1.0'",
                "an A2A 1.0 agent lists at least one interface with protocolVersion '1.0'",
            )
        )


def _loose_url(
    holder: dict[str, Any], key: str, path: Path, found: list[Problem], *, grpc: bool = False
) -> None:
    """A URL outside an HTTP interface: a warning when it is not an absolute http(s) URL (a
    gRPC interface may give ``host:port`` or a gRPC target such as ``dns:///host:port``)."""
    value = holder.get(key)
    if not isinstance(value, str) or not value.strip():
        return
    if _HTTP_URL.match(value):
        _unsendable_url(holder, key, path, found)
        return
    if grpc and (_HOST_PORT.fullmatch(value) or _GRPC_TARGET.fullmatch(value)):
        return
    found.append(
        _warning(
            "invalid-url",
            (*path, key),
            f"{quoted(key)} is not an absolute http(s) URL",
            "use a full URL such as https://agent.example/a2a",
        )
    )


def _unsendable_url(holder: dict[str, Any], key: str, path: Path, found: list[Problem]) -> None:
    """An http(s) URL no request can be sent to (``url_problem``): a warning, since the card
    is well formed; a client fails on it only when it connects."""
    value = holder.get(key)
    problem = url_problem(value) if isinstance(value, str) and _HTTP_URL.match(value) else ""
    if problem:
        found.append(
            _warning(
                "invalid-url",
                (*path, key),
                f"{quoted(key)} is not a URL a client can use: {problem}",
                "use a full URL such as https://agent.example/a2a (a port from 1 to 65535)",
            )
        )


def _skills(skills: Any, found: list[Problem]) -> None:
    seen: set[str] = set()
    for index, skill in enumerate(skills if isinstance(skills, list) else []):
        skill_id = skill.get("id") if isinstance(skill, dict) else None
        if not isinstance(skill_id, str) or not skill_id.strip():
            continue
        if skill_id in seen:
            found.append(
                _warning(
                    "duplicate-skill-id",
                    ("skills", index, "id"),
                    f"skill id {quoted(skill_id)} is used by an earlier skill",
                    "give every skill its own id",
                )
            )
        seen.add(skill_id)
