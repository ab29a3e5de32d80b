"""Security schemes, requirements and signatures, checked field by field from the proto."""

from __future__ import annotations

from typing import Any

from th_ext.validate import validate_value


def _problems(card: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    return [
        (p.severity, p.code, p.path, p.message)
        for p in validate_value(card).problems
        if p.layer == "card"
    ]


def test_a_0_3_security_scheme_is_an_error_showing_the_1_0_shape(card: dict[str, Any]) -> None:
    card["securitySchemes"] = {"bearer": {"type": "http", "scheme": "bearer"}}
    report = validate_value(card)
    problem = next(p for p in report.problems if p.code == "a2a-0.3-security-scheme")
    assert (problem.severity, problem.path) == ("error", "/securitySchemes/bearer")
    assert problem.message == 'this security scheme has the A2A 0.3 shape ("type": "http")'
    assert problem.hint == 'in A2A 1.0 it is {"httpAuthSecurityScheme": {"scheme": "bearer"}}'


def test_a_0_3_requirement_is_an_error_showing_the_1_0_shape(card: dict[str, Any]) -> None:
    card["securityRequirements"] = [{"bearer": []}]
    report = validate_value(card)
    problem = next(p for p in report.problems if p.code == "a2a-0.3-security-requirement")
    assert problem.path == "/securityRequirements/0"
    assert problem.hint == 'A2A 1.0 nests them under schemes: {"schemes": {"bearer": {"list": []}}}'


def test_bare_array_scopes_are_an_error(card: dict[str, Any]) -> None:
    card["skills"][0]["securityRequirements"] = [{"schemes": {"oauth": ["read"]}}]
    report = validate_value(card)
    problem = next(p for p in report.problems if p.code == "a2a-0.3-scopes")
    assert problem.path == "/skills/0/securityRequirements/0/schemes/oauth"
    assert problem.hint == 'A2A 1.0 wraps them in a StringList: {"list": ["read"]}'


def test_every_scheme_kind_and_its_required_fields(card: dict[str, Any]) -> None:
    card["securitySchemes"] = {
        "key": {"apiKeySecurityScheme": {"name": "X-Key"}},
        "two": {
            "httpAuthSecurityScheme": {"scheme": "Bearer"},
            "mtlsSecurityScheme": {},
        },
        "none": {},
        "oauth": {
            "oauth2SecurityScheme": {
                "flows": {"authorizationCode": {"tokenUrl": "https://a/t", "scopes": {}}}
            }
        },
    }
    found = {(code, path) for _, code, path, _ in _problems(card)}
    flow = "/securitySchemes/oauth/oauth2SecurityScheme/flows/authorizationCode"
    assert found == {
        ("missing-field", "/securitySchemes/key/apiKeySecurityScheme/location"),
        ("oneof-conflict", "/securitySchemes/two"),
        ("empty-oneof", "/securitySchemes/none"),
        ("missing-field", f"{flow}/authorizationUrl"),
        ("empty-field", f"{flow}/scopes"),
    }


def test_an_object_with_no_known_field_says_nothing(card: dict[str, Any]) -> None:
    card["capabilities"] = {"stateTransitionHistory": True}
    codes = {code for _, code, _, _ in _problems(card)}
    assert "no-known-field" in codes


def test_signatures_need_protected_and_signature(card: dict[str, Any]) -> None:
    card["signatures"] = [{"protected": "x"}, "sig"]
    found = {(code, path) for _, code, path, _ in _problems(card)}
    assert found == {
        ("missing-field", "/signatures/0/signature"),
        ("wrong-type", "/signatures/1"),
    }


def test_the_sdk_dual_shape_is_a_note_and_its_1_0_member_is_checked(card: dict[str, Any]) -> None:
    card["securitySchemes"] = {
        "bearer": {
            "httpAuthSecurityScheme": {"scheme": "bearer", "bearerFormat": "JWT"},
            "type": "http",
            "scheme": "bearer",
            "bearerFormat": "JWT",
        },
        "key": {"apiKeySecurityScheme": {"name": "X-Key"}, "type": "apiKey", "in": "header"},
    }
    found = [(s, code, path) for s, code, path, _ in _problems(card) if "securitySchemes" in path]
    assert found == [
        ("info", "a2a-0.3-compat-scheme", "/securitySchemes/bearer"),
        ("info", "a2a-0.3-compat-scheme", "/securitySchemes/key"),
        ("error", "missing-field", "/securitySchemes/key/apiKeySecurityScheme/location"),
    ]
    note = next(p for p in validate_value(card).problems if p.code == "a2a-0.3-compat-scheme")
    assert note.message == (
        "this security scheme holds the A2A 1.0 member 'httpAuthSecurityScheme' and, beside "
        "it, the A2A 0.3 keys bearerFormat, scheme, type, as the official SDK serves it for 0.3 "
        "clients"
    )
