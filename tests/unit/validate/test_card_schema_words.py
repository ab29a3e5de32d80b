"""The card schema's problems in the card layer's words, keyword by keyword: each case changes
the example card and lists every card-layer problem it gets (severity, code, path, message, hint,
and whether the problem points at the key)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from th_ext.validate import validate_value

from .conftest import example_card

Card = dict[str, Any]


def wrong_types(c: Card) -> None:
    c["name"] = 7
    c["defaultInputModes"] = ["text/plain", 3]
    c["capabilities"]["streaming"] = "yes"
    c["supportedInterfaces"][0]["protocolVersion"] = None
    c["skills"][0]["tags"] = {"a": 1}


def empty_values(c: Card) -> None:
    c["description"] = ""
    c["skills"][0]["tags"] = []
    c["securitySchemes"] = {
        "k": {
            "oauth2SecurityScheme": {
                "flows": {"clientCredentials": {"tokenUrl": "https://a.example/t", "scopes": {}}}
            }
        }
    }


def not_a_url(c: Card) -> None:
    c["supportedInterfaces"][0]["url"] = "agent.example/a2a"


def one_of_two_members(c: Card) -> None:
    c["securitySchemes"] = {
        "k": {"apiKeySecurityScheme": {"location": "header", "name": "X"}, "mtlsSecurityScheme": {}}
    }


def one_of_no_known_member(c: Card) -> None:
    c["securitySchemes"] = {"k": {"apiKey": {"location": "header"}}}


def one_of_empty(c: Card) -> None:
    c["securitySchemes"] = {"k": {}}


def the_card_not_an_object_inside(c: Card) -> None:
    c["capabilities"] = []


def an_extension_entry_with_no_known_field(c: Card) -> None:
    c["capabilities"]["extensions"].append({"url": "https://example.com/ext"})


EXPECTED: dict[Callable[[Card], None], list[tuple[str, str, str, str, str, bool]]] = {
    wrong_types: [
        (
            "error",
            "wrong-type",
            "/capabilities/streaming",
            "'streaming' must be true or false, not a string",
            "make it true or false, as A2A 1.0 requires",
            False,
        ),
        (
            "error",
            "wrong-type",
            "/defaultInputModes/1",
            "each item of 'defaultInputModes' must be a string, not a number",
            "make it a string, as A2A 1.0 requires",
            False,
        ),
        (
            "error",
            "wrong-type",
            "/name",
            "'name' must be a string, not a number",
            "make it a string, as A2A 1.0 requires",
            False,
        ),
        (
            "error",
            "wrong-type",
            "/skills/0/tags",
            "'tags' must be an array, not an object",
            "make it an array, as A2A 1.0 requires",
            False,
        ),
        (
            "error",
            "wrong-type",
            "/supportedInterfaces/0/protocolVersion",
            "'protocolVersion' must be a string, not null",
            "make it a string, as A2A 1.0 requires",
            False,
        ),
    ],
    empty_values: [
        (
            "error",
            "empty-field",
            "/description",
            "the required field 'description' is empty",
            "give 'description' a value",
            False,
        ),
        (
            "error",
            "empty-field",
            "/securitySchemes/k/oauth2SecurityScheme/flows/clientCredentials/scopes",
            "the required map 'scopes' is empty",
            "give 'scopes' an entry",
            False,
        ),
        (
            "error",
            "empty-array",
            "/skills/0/tags",
            "the required array 'tags' is empty",
            "'tags' needs at least one element",
            False,
        ),
    ],
    not_a_url: [
        (
            "error",
            "invalid-url",
            "/supportedInterfaces/0/url",
            "'url' is not an absolute http(s) URL",
            "use a full URL such as https://agent.example/a2a",
            False,
        ),
    ],
    one_of_two_members: [
        (
            "error",
            "oneof-conflict",
            "/securitySchemes/k",
            (
                "SecurityScheme may set one of apiKeySecurityScheme, httpAuthSecurityScheme, "
                "oauth2SecurityScheme, openIdConnectSecurityScheme, mtlsSecurityScheme, not "
                "apiKeySecurityScheme, mtlsSecurityScheme"
            ),
            "keep one of apiKeySecurityScheme, mtlsSecurityScheme",
            False,
        ),
    ],
    one_of_no_known_member: [
        (
            "error",
            "no-known-field",
            "/securitySchemes/k",
            "none of this object's fields is a field of SecurityScheme",
            (
                "its fields are apiKeySecurityScheme, httpAuthSecurityScheme, "
                "oauth2SecurityScheme, openIdConnectSecurityScheme, mtlsSecurityScheme; as it "
                "is, a client reads nothing"
            ),
            False,
        ),
        (
            "warning",
            "unknown-field",
            "/securitySchemes/k/apiKey",
            "'apiKey' is not an A2A 1.0 field here; clients will ignore it",
            "check the spelling (field names are lowerCamelCase) or remove it",
            True,
        ),
    ],
    one_of_empty: [
        (
            "error",
            "empty-oneof",
            "/securitySchemes/k",
            (
                "this SecurityScheme names none of its kinds (apiKeySecurityScheme, "
                "httpAuthSecurityScheme, oauth2SecurityScheme, openIdConnectSecurityScheme, "
                "mtlsSecurityScheme)"
            ),
            (
                "give exactly one of apiKeySecurityScheme, httpAuthSecurityScheme, "
                "oauth2SecurityScheme, openIdConnectSecurityScheme, mtlsSecurityScheme; as it "
                "is, it says nothing"
            ),
            False,
        ),
    ],
    the_card_not_an_object_inside: [
        (
            "error",
            "wrong-type",
            "/capabilities",
            "'capabilities' must be an object, not an array",
            "make it an object, as A2A 1.0 requires",
            False,
        ),
    ],
    an_extension_entry_with_no_known_field: [
        (
            "error",
            "no-known-field",
            "/capabilities/extensions/1",
            "none of this object's fields is a field of AgentExtension",
            "its fields are description, params, required, uri; as it is, a client reads nothing",
            False,
        ),
        (
            "error",
            "missing-field",
            "/capabilities/extensions/1/uri",
            "the required field 'uri' is missing",
            'add "uri": "…"',
            False,
        ),
        (
            "warning",
            "unknown-field",
            "/capabilities/extensions/1/url",
            "'url' is not an A2A 1.0 field here; clients will ignore it",
            "check the spelling (field names are lowerCamelCase) or remove it",
            True,
        ),
    ],
}


@pytest.mark.parametrize("change", list(EXPECTED), ids=lambda change: change.__name__)
def test_each_schema_keyword_reads_in_the_card_layer_s_words(
    change: Callable[[Card], None],
) -> None:
    card = example_card()
    change(card)
    found = [
        (p.severity, p.code, p.path, p.message, p.hint, p.at_key)
        for p in validate_value(card).problems
        if p.layer == "card"
    ]
    assert found == EXPECTED[change]
