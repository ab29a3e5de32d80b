"""The card layer: an agent card against A2A 1.0."""

from __future__ import annotations

from typing import Any

import pytest

from th_ext.validate import ValidateOptions, validate_value


def codes(card: dict[str, Any]) -> list[tuple[str, str, str]]:
    """The card layer's problems, in a stable order (a report orders them by position)."""
    return sorted(
        (p.severity, p.code, p.path) for p in validate_value(card).problems if p.layer == "card"
    )


def test_example_card_is_valid(card: dict[str, Any]) -> None:
    assert codes(card) == []


def test_defaults_left_out_are_normal(card: dict[str, Any]) -> None:
    entry = card["capabilities"]["extensions"][0]
    del entry["required"], entry["params"], entry["description"]
    del card["capabilities"]["streaming"]
    assert codes(card) == []


@pytest.mark.parametrize(
    "field",
    [
        "name",
        "description",
        "version",
        "supportedInterfaces",
        "capabilities",
        "defaultInputModes",
        "defaultOutputModes",
        "skills",
    ],
)
def test_every_required_field(card: dict[str, Any], field: str) -> None:
    del card[field]
    assert codes(card) == [("error", "missing-field", f"/{field}")]


def test_wrong_types_empty_values_and_empty_arrays(card: dict[str, Any]) -> None:
    card["name"] = 7
    card["description"] = ""
    card["skills"] = []
    card["defaultInputModes"] = ["text/plain", 3]
    card["capabilities"]["streaming"] = "yes"
    card["supportedInterfaces"][0]["protocolVersion"] = None
    assert codes(card) == sorted(
        [
            ("error", "wrong-type", "/supportedInterfaces/0/protocolVersion"),
            ("error", "wrong-type", "/name"),
            ("error", "empty-field", "/description"),
            ("error", "wrong-type", "/defaultInputModes/1"),
            ("error", "wrong-type", "/capabilities/streaming"),
            ("error", "empty-array", "/skills"),
        ]
    )


def test_interfaces(card: dict[str, Any]) -> None:
    card["supportedInterfaces"] = [
        {"url": "not a url", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
        {"url": "grpc.example:443", "protocolBinding": "GRPC", "protocolVersion": "1.0"},
        {"url": "https://x.example", "protocolBinding": "jsonrpc", "protocolVersion": "1.0"},
        {"url": "https://x.example", "transport": "JSONRPC", "protocolVersion": "0.3"},
        "https://x.example",
    ]
    assert codes(card) == sorted(
        [
            ("error", "invalid-url", "/supportedInterfaces/0/url"),
            ("warning", "unknown-protocol-binding", "/supportedInterfaces/2/protocolBinding"),
            ("error", "missing-field", "/supportedInterfaces/3/protocolBinding"),
            ("warning", "a2a-0.3-field", "/supportedInterfaces/3/transport"),
            ("error", "wrong-type", "/supportedInterfaces/4"),
        ]
    )


def test_no_interface_speaks_1_0(card: dict[str, Any]) -> None:
    card["supportedInterfaces"][0]["protocolVersion"] = "0.3"
    assert codes(card) == [("warning", "no-1.0-interface", "/supportedInterfaces")]


def test_empty_interfaces(card: dict[str, Any]) -> None:
    card["supportedInterfaces"] = []
    assert codes(card) == [("error", "empty-array", "/supportedInterfaces")]


def test_a_0_3_card_gets_one_explanation(card: dict[str, Any]) -> None:
    del card["supportedInterfaces"]
    card["url"] = "https://agent.example/a2a"
    card["preferredTransport"] = "JSONRPC"
    card["protocolVersion"] = "0.3.0"
    found = codes(card)
    assert found == [("error", "a2a-0.3-card", "")]  # one finding, said once
    problem = validate_value(card).problems[0]
    assert problem.message.startswith("this is an A2A 0.3.0 card (a top-level url and no ")


def test_the_version_a_card_states_is_the_one_named(card: dict[str, Any]) -> None:
    del card["supportedInterfaces"]
    card["url"] = "https://agent.example/a2a"
    card["protocolVersion"] = "0.2.9"
    problem = validate_value(card).problems[0]
    assert problem.message == (
        "this is an A2A 0.2.9 card (a top-level url and no supportedInterfaces), "
        "not an A2A 1.0 card"
    )


def test_a_grpc_interface_is_host_and_port_or_a_url(card: dict[str, Any]) -> None:
    for url in ("localhost:41242", "grpc.example.com:443", "[::1]:50051", "grpc://h.example:1"):
        card["supportedInterfaces"] = [
            {"url": url, "protocolBinding": "GRPC", "protocolVersion": "1.0"}
        ]
        assert codes(card) == [], url
    card["supportedInterfaces"][0]["url"] = "just a host"
    assert codes(card) == [("warning", "invalid-url", "/supportedInterfaces/0/url")]


def test_a_dual_card_may_carry_the_0_3_fields_as_notes(card: dict[str, Any]) -> None:
    card["supportedInterfaces"].append(
        {"url": "http://127.0.0.1:8000/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"}
    )
    card["url"] = "http://127.0.0.1:8000/a2a"
    card["preferredTransport"] = "JSONRPC"
    card["protocolVersion"] = "0.3.0"
    assert codes(card) == sorted(
        [
            ("info", "a2a-0.3-compat-field", "/url"),
            ("info", "a2a-0.3-compat-field", "/preferredTransport"),
            ("info", "a2a-0.3-compat-field", "/protocolVersion"),
        ]
    )
    assert validate_value(card, options=ValidateOptions(strict=True)).exit_code == 0


def test_unknown_fields_are_warnings(card: dict[str, Any]) -> None:
    card["colour"] = "blue"
    card["skills"][0]["security"] = []
    card["capabilities"]["extensions"][0]["aliases"] = []
    card["capabilities"]["stateTransitionHistory"] = True
    assert codes(card) == sorted(
        [
            ("warning", "unknown-field", "/capabilities/extensions/0/aliases"),
            ("warning", "a2a-0.3-field", "/capabilities/stateTransitionHistory"),
            ("warning", "a2a-0.3-field", "/skills/0/security"),
            ("warning", "unknown-field", "/colour"),
        ]
    )


def test_skills(card: dict[str, Any]) -> None:
    card["skills"].append({"id": "chat", "name": "Again", "description": "d", "tags": []})
    card["skills"].append(
        {"id": "x", "name": "X", "description": "d", "tags": ["t"], "examples": "e"}
    )
    assert codes(card) == sorted(
        [
            ("warning", "duplicate-skill-id", "/skills/1/id"),
            ("error", "empty-array", "/skills/1/tags"),
            ("error", "wrong-type", "/skills/2/examples"),
        ]
    )


def test_extension_entries(card: dict[str, Any]) -> None:
    card["capabilities"]["extensions"] = [
        {"uri": ""},
        {"uri": "urn:x", "required": "no", "params": []},
        "urn:y",
    ]
    assert codes(card) == sorted(
        [
            ("error", "empty-field", "/capabilities/extensions/0/uri"),
            ("error", "wrong-type", "/capabilities/extensions/1/required"),
            ("error", "wrong-type", "/capabilities/extensions/1/params"),
            ("error", "wrong-type", "/capabilities/extensions/2"),
        ]
    )


def test_optional_fields(card: dict[str, Any]) -> None:
    card["provider"] = {"organization": "Org"}
    card["documentationUrl"] = "docs"
    card["securitySchemes"] = {"bearer": "token"}
    card["signatures"] = [{"protected": "p"}]
    card["securityRequirements"] = ["bearer"]
    assert codes(card) == sorted(
        [
            ("error", "missing-field", "/provider/url"),
            ("warning", "invalid-url", "/documentationUrl"),
            ("error", "wrong-type", "/securitySchemes/bearer"),
            ("error", "wrong-type", "/securityRequirements/0"),
            ("error", "missing-field", "/signatures/0/signature"),
        ]
    )


def test_an_interface_url_whose_host_has_white_space_is_one_no_client_can_use(
    card: dict[str, Any],
) -> None:
    card["supportedInterfaces"][0]["url"] = "http://exa mple.com/a2a"
    (problem,) = validate_value(card).problems
    assert (problem.severity, problem.code, problem.path) == (
        "warning",
        "invalid-url",
        "/supportedInterfaces/0/url",
    )
    assert problem.message.endswith("the host has white space in it")
