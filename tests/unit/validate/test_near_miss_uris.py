"""A URI that nearly names a published extension is an error that says how it differs."""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.validate.conftest import COMMANDS_URI
from th_ext.validate import validate_value
from th_ext.validate._extensions import near_miss

PUBLISHED = [(COMMANDS_URI, "commands/v1")]
PARENT = COMMANDS_URI.rsplit("/", 1)[0]


@pytest.mark.parametrize(
    ("uri", "difference"),
    [
        (COMMANDS_URI + "/", "a trailing slash"),
        (COMMANDS_URI.replace("https:", "http:"), "the scheme http: instead of https:"),
        (COMMANDS_URI.replace("commands", "Commands"), "letter case"),
        (PARENT, "a missing version segment (/v1)"),
        (PARENT + "/v2", "its version segment ('v2' instead of 'v1')"),
        (PARENT + "/V1", "letter case"),
        (
            COMMANDS_URI.replace("https:", "http:") + "/",
            "a trailing slash and the scheme http: instead of https:",
        ),
        (" " + COMMANDS_URI, "white space around it"),
    ],
)
def test_each_near_miss_names_its_difference(uri: str, difference: str) -> None:
    assert near_miss(uri, PUBLISHED) == [("commands/v1", difference)]


@pytest.mark.parametrize(
    "uri",
    [
        COMMANDS_URI,
        "https://madarauchiha-314.github.io/tiny-harness/a2a/ext/task/v1",
        "https://example.com/ext/commands/v1",
        "urn:example:commands",
        "",
    ],
)
def test_other_uris_are_not_near_misses(uri: str) -> None:
    assert near_miss(uri, PUBLISHED) == []


TWO_VERSIONS = [*PUBLISHED, (PARENT + "/v2", "commands/v2")]


@pytest.mark.parametrize(
    ("uri", "meant"),
    [
        (
            PARENT,
            [
                ("commands/v1", "a missing version segment (/v1)"),
                ("commands/v2", "a missing version segment (/v2)"),
            ],
        ),
        (
            PARENT + "/v3",
            [
                ("commands/v1", "its version segment ('v3' instead of 'v1')"),
                ("commands/v2", "its version segment ('v3' instead of 'v2')"),
            ],
        ),
        # Nearer by how it is written than by a version: only the one it is a spelling of.
        (PARENT + "/V2", [("commands/v2", "letter case")]),
        (PARENT + "/v1/", [("commands/v1", "a trailing slash")]),
    ],
)
def test_a_uri_as_near_to_two_versions_names_both(uri: str, meant: list[tuple[str, str]]) -> None:
    assert near_miss(uri, TWO_VERSIONS) == meant


def test_a_card_uri_near_two_versions_says_both_and_offers_both(card: dict[str, Any]) -> None:
    card["capabilities"]["extensions"][0]["uri"] = PARENT + "/v9"
    report = validate_value(card)
    [problem] = [p for p in report.problems if p.code == "near-miss-extension-uri"]
    assert problem.message == (
        f"extension URI {PARENT}/v9 differs from commands/v1 only by its version segment "
        "('v9' instead of 'v1'), and from commands/v2 in the same way"
    )
    assert problem.hint == (
        f"use the exact URI meant, {PARENT}/v1 or {PARENT}/v2; as it is, its params are not checked"
    )


def test_a_near_miss_on_a_card_is_an_error_not_a_note(card: dict[str, Any]) -> None:
    card["capabilities"]["extensions"][0]["uri"] = COMMANDS_URI + "/"
    report = validate_value(card)
    assert report.exit_code == 1
    problem = next(p for p in report.problems if p.code == "near-miss-extension-uri")
    assert problem.severity == "error"
    assert problem.path == "/capabilities/extensions/0/uri"
    assert problem.message == (
        f"extension URI {COMMANDS_URI}/ differs from commands/v1 only by a trailing slash"
    )
    assert problem.hint == f"use the exact URI {COMMANDS_URI}; as it is, its params are not checked"
    assert "no-known-extension" in {p.code for p in report.problems}
