"""The card layer's rules beyond the schema, word for word: each case changes the example card
and lists every card-layer problem it gets, in the order a report gives them (severity, code,
path, message, hint, and whether the problem points at the key rather than its value)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from th_ext.validate import validate_value
from th_ext.validate._a2a_model import MESSAGES
from th_ext.validate._card import completed
from th_ext.validate._card_schema import card_schema

from .conftest import example_card

Card = dict[str, Any]


def loose_urls(c: Card) -> None:
    c["provider"] = {"url": "agent.example", "organization": "Example"}
    c["iconUrl"] = "icon.png"
    c["documentationUrl"] = "docs"


def unusable_urls(c: Card) -> None:
    """http(s) URLs of the right form that no request can be sent to."""
    c["supportedInterfaces"][0]["url"] = "http://[::1/a2a"
    c["provider"] = {"url": "https://agent.example:65536/", "organization": "Example"}
    c["documentationUrl"] = "http://:80/docs"
    c["iconUrl"] = "https://agent.example/" + "a" * 70_000  # longer than httpx takes


def a2a_0_2_card(c: Card) -> None:
    c["url"] = "https://agent.example/a2a"
    del c["supportedInterfaces"]
    c["protocolVersion"] = "0.2.5"
    c["preferredTransport"] = "JSONRPC"


def a2a_0_3_card_blank_version(c: Card) -> None:
    c["url"] = "https://agent.example/a2a"
    del c["supportedInterfaces"]
    c["protocolVersion"] = " "


def bindings(c: Card) -> None:
    first = c["supportedInterfaces"][0]
    c["supportedInterfaces"] = [
        {**first, "protocolBinding": "grpc"},
        {**first, "url": "agent.example", "protocolBinding": "urn:example:custom"},
        {**first, "url": "agent.example:443", "protocolBinding": "GRPC"},
        {**first, "url": "dns:///agent.example", "protocolBinding": "GRPC"},
        {**first, "url": "not a url", "protocolBinding": "GRPC"},
    ]


def no_1_0_interface(c: Card) -> None:
    c["supportedInterfaces"][0]["protocolVersion"] = "0.3"
    c["supportedInterfaces"].append({**c["supportedInterfaces"][0], "protocolVersion": "1.0x"})


def a_1_0_patch_version_is_1_0(c: Card) -> None:
    c["supportedInterfaces"][0]["protocolVersion"] = "1.0.1"


def duplicate_skill_ids(c: Card) -> None:
    c["skills"] = [dict(c["skills"][0]) for _ in range(12)]


def a2a_0_3_security(c: Card) -> None:
    c["security"] = [{"oauth": ["read"]}]
    c["securitySchemes"] = {
        "oauth": {"type": "oauth2", "flows": {}},
        "key": {"type": "apiKey", "in": "header", "name": "X-Key", "description": "the key"},
        "odd": {"type": "weird"},
        "mtls": {"type": "mutualTLS"},
    }


def a2a_0_3_requirements(c: Card) -> None:
    c["securityRequirements"] = [{"oauth": ["read", "write"]}, {"schemes": {"key": ["all"]}}]
    c["skills"][0]["securityRequirements"] = [{"key": []}]


def a_long_hint_is_cut(c: Card) -> None:
    c["securityRequirements"] = [{"oauth": [f"scope-{i}" for i in range(40)]}]


def a2a_0_3_fields_beside_1_0(c: Card) -> None:
    c["capabilities"]["stateTransitionHistory"] = True
    c["preferredTransport"] = "JSONRPC"
    c["supportsAuthenticatedExtendedCard"] = False
    c["supportedInterfaces"][0]["transport"] = "JSONRPC"


def a2a_0_3_fields_for_a_0_3_interface(c: Card) -> None:
    c["supportedInterfaces"].append({**c["supportedInterfaces"][0], "protocolVersion": "0.3.0"})
    c["preferredTransport"] = "JSONRPC"
    c["capabilities"]["stateTransitionHistory"] = True


def compat_scheme(c: Card) -> None:
    c["securitySchemes"] = {
        "key": {
            "type": "apiKey",
            "in": "header",
            "name": "X-Key",
            "apiKeySecurityScheme": {"location": "header", "name": "X-Key"},
            "extra": 1,
        }
    }


def unknown_fields(c: Card) -> None:
    c["skills"][0]["secrity"] = 1
    c["capabilities"]["streamin"] = True
    c["securitySchemes"] = {
        "k": {"apiKeySecurityScheme": {"location": "header", "name": "X", "nme": 1}}
    }
    c["securityRequirements"] = [{"schemes": {"k": {"list": []}}, "scheme": 1}]
    c["$schema"] = "https://example.com/agent-card.schema.json"


def no_skills(c: Card) -> None:
    del c["skills"]


EXPECTED: dict[Callable[[Card], None], list[tuple[str, str, str, str, str, bool]]] = {
    loose_urls: [
        (
            "warning",
            "invalid-url",
            "/documentationUrl",
            "'documentationUrl' is not an absolute http(s) URL",
            "use a full URL such as https://agent.example/a2a",
            False,
        ),
        (
            "warning",
            "invalid-url",
            "/iconUrl",
            "'iconUrl' is not an absolute http(s) URL",
            "use a full URL such as https://agent.example/a2a",
            False,
        ),
        (
            "warning",
            "invalid-url",
            "/provider/url",
            "'url' is not an absolute http(s) URL",
            "use a full URL such as https://agent.example/a2a",
            False,
        ),
    ],
    unusable_urls: [
        (
            "warning",
            "invalid-url",
            "/documentationUrl",
            "'documentationUrl' is not a URL a client can use: the URL names no host",
            "use a full URL such as https://agent.example/a2a (a port from 1 to 65535)",
            False,
        ),
        (
            "warning",
            "invalid-url",
            "/iconUrl",
            "'iconUrl' is not a URL a client can use: the URL is longer than 65,536 characters "
            "(70,022)",
            "use a full URL such as https://agent.example/a2a (a port from 1 to 65535)",
            False,
        ),
        (
            "warning",
            "invalid-url",
            "/provider/url",
            "'url' is not a URL a client can use: the port is not a number from 0 to 65535",
            "use a full URL such as https://agent.example/a2a (a port from 1 to 65535)",
            False,
        ),
        (
            "warning",
            "invalid-url",
            "/supportedInterfaces/0/url",
            "'url' is not a URL a client can use: not a URL (Invalid IPv6 URL)",
            "use a full URL such as https://agent.example/a2a (a port from 1 to 65535)",
            False,
        ),
    ],
    a2a_0_2_card: [
        (
            "error",
            "a2a-0.3-card",
            "",
            (
                "this is an A2A 0.2.5 card (a top-level url and no supportedInterfaces), not "
                "an A2A 1.0 card"
            ),
            (
                "A2A 1.0 lists endpoints in supportedInterfaces[{url, protocolBinding: "
                "JSONRPC, protocolVersion: '1.0'}] and drops url, preferredTransport and "
                "protocolVersion from the top level"
            ),
            False,
        ),
    ],
    a2a_0_3_card_blank_version: [
        (
            "error",
            "a2a-0.3-card",
            "",
            (
                "this is an A2A 0.3 card (a top-level url and no supportedInterfaces), not an "
                "A2A 1.0 card"
            ),
            (
                "A2A 1.0 lists endpoints in supportedInterfaces[{url, protocolBinding: "
                "JSONRPC, protocolVersion: '1.0'}] and drops url, preferredTransport and "
                "protocolVersion from the top level"
            ),
            False,
        ),
    ],
    bindings: [
        (
            "warning",
            "unknown-protocol-binding",
            "/supportedInterfaces/0/protocolBinding",
            "protocol binding 'grpc' is not JSONRPC, GRPC, HTTP+JSON or a URI",
            "use one of the standard bindings (upper case) or a URI for a custom one",
            False,
        ),
        (
            "warning",
            "invalid-url",
            "/supportedInterfaces/1/url",
            "'url' is not an absolute http(s) URL",
            "use a full URL such as https://agent.example/a2a",
            False,
        ),
        (
            "warning",
            "invalid-url",
            "/supportedInterfaces/4/url",
            "'url' is not an absolute http(s) URL",
            "use a full URL such as https://agent.example/a2a",
            False,
        ),
    ],
    no_1_0_interface: [
        (
            "warning",
            "no-1.0-interface",
            "/supportedInterfaces",
            "no interface declares protocolVersion '1.0'",
            "an A2A 1.0 agent lists at least one interface with protocolVersion '1.0'",
            False,
        ),
    ],
    a_1_0_patch_version_is_1_0: [],
    duplicate_skill_ids: [
        (
            "warning",
            "duplicate-skill-id",
            "/skills/1/id",
            "skill id 'chat' is used by an earlier skill",
            "give every skill its own id",
            False,
        ),
        (
            "warning",
            "duplicate-skill-id",
            "/skills/2/id",
            "skill id 'chat' is used by an earlier skill",
            "give every skill its own id",
            False,
        ),
        (
            "warning",
            "duplicate-skill-id",
            "/skills/3/id",
            "skill id 'chat' is used by an earlier skill",
            "give every skill its own id",
            False,
        ),
        (
            "warning",
            "duplicate-skill-id",
            "/skills/4/id",
            "skill id 'chat' is used by an earlier skill",
            "give every skill its own id",
            False,
        ),
        (
            "warning",
            "duplicate-skill-id",
            "/skills/5/id",
            "skill id 'chat' is used by an earlier skill",
            "give every skill its own id",
            False,
        ),
        (
            "warning",
            "duplicate-skill-id",
            "/skills/6/id",
            "skill id 'chat' is used by an earlier skill",
            "give every skill its own id",
            False,
        ),
        (
            "warning",
            "duplicate-skill-id",
            "/skills/7/id",
            "skill id 'chat' is used by an earlier skill",
            "give every skill its own id",
            False,
        ),
        (
            "warning",
            "duplicate-skill-id",
            "/skills/8/id",
            "skill id 'chat' is used by an earlier skill",
            "give every skill its own id",
            False,
        ),
        (
            "warning",
            "duplicate-skill-id",
            "/skills/9/id",
            "skill id 'chat' is used by an earlier skill",
            "give every skill its own id",
            False,
        ),
        (
            "warning",
            "duplicate-skill-id",
            "/skills/10/id",
            "skill id 'chat' is used by an earlier skill",
            "give every skill its own id",
            False,
        ),
        (
            "warning",
            "duplicate-skill-id",
            "/skills/11/id",
            "skill id 'chat' is used by an earlier skill",
            "give every skill its own id",
            False,
        ),
    ],
    a2a_0_3_security: [
        (
            "warning",
            "a2a-0.3-field",
            "/security",
            "'security' is an A2A 0.3 field that 1.0 no longer has",
            "1.0 renamed it securityRequirements",
            True,
        ),
        (
            "error",
            "a2a-0.3-security-scheme",
            "/securitySchemes/key",
            'this security scheme has the A2A 0.3 shape ("type": "apiKey")',
            (
                'in A2A 1.0 it is {"apiKeySecurityScheme": {"location": "header", "name": '
                '"X-Key", "description": "the key"}}'
            ),
            False,
        ),
        (
            "error",
            "a2a-0.3-security-scheme",
            "/securitySchemes/mtls",
            'this security scheme has the A2A 0.3 shape ("type": "mutualTLS")',
            'in A2A 1.0 it is {"mtlsSecurityScheme": {}}',
            False,
        ),
        (
            "error",
            "a2a-0.3-security-scheme",
            "/securitySchemes/oauth",
            'this security scheme has the A2A 0.3 shape ("type": "oauth2")',
            (
                'in A2A 1.0 it is {"oauth2SecurityScheme": {"flows": {"clientCredentials": '
                '{"tokenUrl": "\\u2026", "scopes": {"\\u2026": "\\u2026"}}}}}'
            ),
            False,
        ),
        (
            "error",
            "a2a-0.3-security-scheme",
            "/securitySchemes/odd",
            'this security scheme has the A2A 0.3 shape ("type": "weird")',
            'in A2A 1.0 the kind is a key, for example {"httpAuthSecurityScheme": {"scheme": "…"}}',
            False,
        ),
    ],
    a2a_0_3_requirements: [
        (
            "error",
            "a2a-0.3-security-requirement",
            "/securityRequirements/0",
            "this security requirement has the A2A 0.3 shape (scheme names as keys)",
            'A2A 1.0 nests them under schemes: {"schemes": {"oauth": {"list": ["read", "write"]}}}',
            False,
        ),
        (
            "error",
            "a2a-0.3-scopes",
            "/securityRequirements/1/schemes/key",
            "the scopes are a bare array, the A2A 0.3 shape",
            'A2A 1.0 wraps them in a StringList: {"list": ["all"]}',
            False,
        ),
        (
            "error",
            "a2a-0.3-security-requirement",
            "/skills/0/securityRequirements/0",
            "this security requirement has the A2A 0.3 shape (scheme names as keys)",
            'A2A 1.0 nests them under schemes: {"schemes": {"key": {"list": []}}}',
            False,
        ),
    ],
    a_long_hint_is_cut: [
        (
            "error",
            "a2a-0.3-security-requirement",
            "/securityRequirements/0",
            "this security requirement has the A2A 0.3 shape (scheme names as keys)",
            (
                'A2A 1.0 nests them under schemes: {"schemes": {"oauth": {"list": ["scope-0", '
                '"scope-1", "scope-2", "scope-3", "scope-4", "scope-5", "scope-6", "scope-7", '
                '"scope-8", "scope-9", "scope-10", "scop…'
            ),
            False,
        ),
    ],
    a2a_0_3_fields_beside_1_0: [
        (
            "warning",
            "a2a-0.3-field",
            "/capabilities/stateTransitionHistory",
            "'stateTransitionHistory' is an A2A 0.3 field that 1.0 no longer has",
            "1.0 removed stateTransitionHistory; drop it",
            True,
        ),
        (
            "warning",
            "a2a-0.3-field",
            "/preferredTransport",
            "'preferredTransport' is an A2A 0.3 field that 1.0 no longer has",
            (
                "1.0 has no preferredTransport: list each endpoint in supportedInterfaces as "
                "{url, protocolBinding, protocolVersion} (first preferred)"
            ),
            True,
        ),
        (
            "warning",
            "a2a-0.3-field",
            "/supportedInterfaces/0/transport",
            "'transport' is an A2A 0.3 field that 1.0 no longer has",
            "1.0 renamed it protocolBinding",
            True,
        ),
        (
            "warning",
            "a2a-0.3-field",
            "/supportsAuthenticatedExtendedCard",
            "'supportsAuthenticatedExtendedCard' is an A2A 0.3 field that 1.0 no longer has",
            "1.0 renamed it capabilities.extendedAgentCard",
            True,
        ),
    ],
    a2a_0_3_fields_for_a_0_3_interface: [
        (
            "warning",
            "a2a-0.3-field",
            "/capabilities/stateTransitionHistory",
            "'stateTransitionHistory' is an A2A 0.3 field that 1.0 no longer has",
            "1.0 removed stateTransitionHistory; drop it",
            True,
        ),
        (
            "info",
            "a2a-0.3-compat-field",
            "/preferredTransport",
            "'preferredTransport' is an A2A 0.3 field, kept for the card's 0.3 interface",
            (
                "nothing to do while the agent serves A2A 0.3 too; 1.0 has no "
                "preferredTransport: list each endpoint in supportedInterfaces as {url, "
                "protocolBinding, protocolVersion} (first preferred)"
            ),
            True,
        ),
    ],
    compat_scheme: [
        (
            "info",
            "a2a-0.3-compat-scheme",
            "/securitySchemes/key",
            (
                "this security scheme holds the A2A 1.0 member 'apiKeySecurityScheme' and, "
                "beside it, the A2A 0.3 keys in, name, type, as the official SDK serves it for "
                "0.3 clients"
            ),
            (
                "nothing to do while the agent serves A2A 0.3 too; 1.0 clients read "
                "'apiKeySecurityScheme'"
            ),
            False,
        ),
        (
            "warning",
            "unknown-field",
            "/securitySchemes/key/extra",
            "'extra' is not an A2A 1.0 field here; clients will ignore it",
            "check the spelling (field names are lowerCamelCase) or remove it",
            True,
        ),
    ],
    unknown_fields: [
        (
            "warning",
            "unknown-field",
            "/capabilities/streamin",
            "'streamin' is not an A2A 1.0 field here; clients will ignore it",
            "did you mean 'streaming'?",
            True,
        ),
        (
            "warning",
            "unknown-field",
            "/securityRequirements/0/scheme",
            "'scheme' is not an A2A 1.0 field here; clients will ignore it",
            "did you mean 'schemes'?",
            True,
        ),
        (
            "warning",
            "unknown-field",
            "/securitySchemes/k/apiKeySecurityScheme/nme",
            "'nme' is not an A2A 1.0 field here; clients will ignore it",
            "did you mean 'name'?",
            True,
        ),
        (
            "warning",
            "unknown-field",
            "/skills/0/secrity",
            "'secrity' is not an A2A 1.0 field here; clients will ignore it",
            "check the spelling (field names are lowerCamelCase) or remove it",
            True,
        ),
    ],
    no_skills: [
        (
            "error",
            "missing-field",
            "/skills",
            "the required field 'skills' is missing",
            (
                'add "skills": [{"id": "…", "name": "…", "description": "…", "tags": ["…"]}]; '
                'an agent with no skills must still serve "skills": [], but the official A2A '
                "SDKs leave an empty list out of the card they serve, so only a declared skill "
                "keeps the member"
            ),
            False,
        ),
    ],
}


@pytest.mark.parametrize("change", list(EXPECTED), ids=lambda change: change.__name__)
def test_the_card_layer_says_each_rule_in_its_own_words(change: Callable[[Card], None]) -> None:
    card = example_card()
    change(card)
    found = [
        (p.severity, p.code, p.path, p.message, p.hint, p.at_key)
        for p in validate_value(card).problems
        if p.layer == "card"
    ]
    assert found == EXPECTED[change]


def required_kinds() -> set[tuple[str, str]]:
    """The kinds of the fields A2A 1.0 requires (message fields by kind, maps by their values)."""
    return {
        (field.kind, field.target if field.kind == "map" else "")
        for fields in MESSAGES.values()
        for field in fields
        if field.required
    }


def test_a2a_requires_only_strings_string_maps_and_messages() -> None:
    """What ``completed`` proposes for a required field: a new kind needs a placeholder of its
    own (a regenerated model that requires a number or a boolean fails here first)."""
    assert required_kinds() <= {("string", ""), ("map", "string"), ("message", "")}


#: What a 0.3 security scheme's hint proposes: each kind of A2A 1.0 SecurityScheme.
SCHEME_KINDS = sorted(field.target for field in MESSAGES["SecurityScheme"])


@pytest.mark.parametrize("message", SCHEME_KINDS)
def test_what_a_hint_proposes_for_each_scheme_passes_the_card_schema(message: str) -> None:
    schema = card_schema()
    proposed = completed(message, {})
    check = Draft202012Validator({"$ref": f"#/$defs/{message}", "$defs": schema["$defs"]})
    assert [error.message for error in check.iter_errors(proposed)] == []


def test_a_value_given_is_kept_and_completed_below() -> None:
    flows = {"clientCredentials": {"tokenUrl": "https://agent.example/token"}}
    assert completed("OAuth2SecurityScheme", {"flows": flows}) == {
        "flows": {
            "clientCredentials": {"tokenUrl": "https://agent.example/token", "scopes": {"…": "…"}}
        }
    }
    assert completed("AgentProvider", {"url": ""}) == {"url": "…", "organization": "…"}
