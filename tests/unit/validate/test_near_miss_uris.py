"""A URI that nearly names a published extension is an error that says how it differs."""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.validate.conftest import COMMANDS_URI
from th_ext import find
from th_ext.catalog._reader import schema_document
from th_ext.validate import validate_value
from th_ext.validate._extensions import KnownExtension, check_extensions, near_miss
from th_ext.validate._schema import ParamsSchema

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


def test_a_long_version_segment_is_cut_in_the_message() -> None:
    segment = "v" + "9" * 40
    [(_, difference)] = near_miss(f"{PARENT}/{segment}", PUBLISHED)
    assert difference == f"its version segment ('{segment[:21]}…' instead of 'v1')"


def _three_versions() -> dict[str, KnownExtension]:
    version = find("commands/v1")
    schema = ParamsSchema(schema_document(version), version.schema_url, version.schema_url)
    uris = [f"{PARENT}/v{n}" for n in (1, 2, 3)]
    return {
        uri: KnownExtension(uri, f"commands/v{n}", schema, None)
        for n, uri in enumerate(uris, start=1)
    }


def test_a_uri_near_three_versions_names_each_in_one_sentence() -> None:
    card: dict[str, Any] = {"capabilities": {"extensions": [{"uri": PARENT + "/v9"}]}}
    problems, _ = check_extensions(card, _three_versions())
    [problem] = [p for p in problems if p.code == "near-miss-extension-uri"]
    assert problem.message == (
        f"extension URI {PARENT}/v9 differs from commands/v1 only by its version segment "
        "('v9' instead of 'v1'), and from commands/v2 in the same way, and from commands/v3 in "
        "the same way"
    )
    assert problem.hint == (
        f"use the exact URI meant, {PARENT}/v1 or {PARENT}/v2 or {PARENT}/v3; as it is, its "
        "params are not checked"
    )
