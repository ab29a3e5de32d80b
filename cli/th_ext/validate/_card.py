"""The card layer: an agent card against A2A 1.0 (specification section 4.4 and 5.7).

Required fields present, of the right JSON type, required strings set and required arrays
non-empty; interfaces, skills and extension entries well formed; unknown fields are warnings
(clients ignore them). An A2A 0.3 card, recognised by its top-level ``url`` and the absence of
``supportedInterfaces``, gets one problem that says what 1.0 changed instead of a list of
missing fields. Fields left out because they hold their default value (an extension's
``required`` and ``params``, the capability booleans) are normal.
"""

from __future__ import annotations

from typing import Any

from th_ext.problems._problem import Problem
from th_ext.validate._a2a_model import MESSAGES
from th_ext.validate._fields import FieldChecker
from th_ext.validate._limits import ProblemList
from th_ext.validate._proto_walk import walk_message

__all__ = ["check_card"]


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
