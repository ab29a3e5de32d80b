"""Every kind of extension entry a card can hold, reported whole: each problem with its words
and hint, and the summary of each entry, as ``--format json`` gives them."""

from __future__ import annotations

from typing import Any

from tests.support.host_schemas import URIS
from tests.unit.validate.conftest import COMMANDS_URI, example_card
from th_ext.validate import ValidateOptions, validate_value
from th_ext.validate._extensions import check_extensions

V2 = COMMANDS_URI.removesuffix("v1") + "v2"
ABSENT = "https://example.com/ext/absent/v1"
OTHER = "https://example.com/ext/other/v1"
NEAR = "HTTP://madarauchiha-314.github.io/tiny-harness/a2a/ext/commands/v1/"
PLACES = (
    '`Task.metadata["io.github.madarauchiha-314.tiny-harness/status"]` and '
    '`TaskStatusUpdateEvent.metadata["io.github.madarauchiha-314.tiny-harness/status"]`'
)


def _problems(card: dict[str, Any], **options: Any) -> list[tuple[str, ...]]:
    document = validate_value(card, options=ValidateOptions(**options)).to_dict()
    return [
        (p["severity"], p["code"], p["path"], p["message"], p["hint"])
        for p in document["problems"]
        if p["layer"] == "extension"
    ]


def _mixed_card() -> dict[str, Any]:
    card = example_card()
    first = card["capabilities"]["extensions"][0]
    first["required"] = True
    card["capabilities"]["extensions"] = [
        first,
        {"uri": COMMANDS_URI, "params": {}},
        {"uri": OTHER},
        {"uri": V2, "params": {"commands": [{"name": "Bad", "description": "d"}]}},
        {"uri": NEAR},
        {"uri": URIS["media"]},
        {"uri": URIS["status"]},
    ]
    return card


def test_each_entry_gets_its_own_problem_in_card_order() -> None:
    assert _problems(_mixed_card(), extensions=("commands/v1", ABSENT)) == [
        (
            "warning",
            "required-extension",
            "/capabilities/extensions/0/required",
            "the commands extension is marked required: true",
            "set required: false (or leave it out): a client that does not know the extension "
            "must still be able to talk to the agent",
        ),
        (
            "error",
            "duplicate-extension",
            "/capabilities/extensions/1/uri",
            f"extension {COMMANDS_URI} is already declared at index 0",
            "declare each extension once, with all its params in that entry",
        ),
        (
            "info",
            "extension-not-checked",
            "/capabilities/extensions/2/uri",
            f"extension {OTHER} is not one th-ext publishes; its params were not checked",
            "nothing to do if the extension is meant; otherwise check the URI",
        ),
        # A draft's warning comes first among its entry's problems.
        (
            "warning",
            "extension-draft",
            "/capabilities/extensions/3/uri",
            "extension commands/v2 is a draft; it may change before it is published",
            "declare a published version on a production card",
        ),
        (
            "error",
            "schema-violation",
            "/capabilities/extensions/3/params/commands/0/name",
            "'Bad' does not match '^[a-z][a-z0-9-]*$'",
            f"use a value that matches ^[a-z][a-z0-9-]*$, as {V2}/schema.json requires",
        ),
        (
            "error",
            "command-name-pattern",
            "/capabilities/extensions/3/params/commands/0/name",
            "command name 'Bad' does not match ^[a-z][a-z0-9-]*$",
            "use lower-case letters, digits and '-', starting with a letter; did you mean 'bad'?",
        ),
        (
            "error",
            "near-miss-extension-uri",
            "/capabilities/extensions/4/uri",
            f"extension URI {NEAR} differs from commands/v1 only by a trailing slash and the "
            "scheme HTTP: instead of https:",
            f"use the exact URI {COMMANDS_URI}; as it is, its params are not checked",
        ),
        (
            "info",
            "extension-schema-unknown",
            "/capabilities/extensions/5/uri",
            f"extension {URIS['media']} is tiny-harness's; its schema is not known here, so "
            "its params were not checked",
            "give tiny-harness's docs/a2a/ext folder with --schemas DIR (it holds media.json), "
            f"or fetch {URIS['media']}/schema.json with --fetch-schemas",
        ),
        (
            "info",
            "extension-not-on-card",
            "/capabilities/extensions/6/uri",
            f"extension {URIS['status']} is tiny-harness's; its schema applies to {PLACES}, "
            "not to the card",
            "th-ext conform checks that data on a live agent, given the schema",
        ),
        (
            "error",
            "missing-extension",
            "/capabilities/extensions",
            f"the card does not declare the extension {ABSENT}",
            "add it to capabilities.extensions, or drop --extension",
        ),
    ]


def test_each_entry_is_summarised_once() -> None:
    report = validate_value(_mixed_card())
    assert report.extensions == [
        {
            "uri": COMMANDS_URI,
            "extension": "commands/v1",
            "path": "/capabilities/extensions/0",
            "checked": True,
            "valid": True,
            "required": True,
            "commands": ["model", "help", "review"],
        },
        {"uri": OTHER, "path": "/capabilities/extensions/2", "checked": False},
        {
            "uri": V2,
            "extension": "commands/v2",
            "path": "/capabilities/extensions/3",
            "checked": True,
            "valid": False,
            "required": False,
            "commands": ["Bad"],
        },
        {"uri": NEAR, "path": "/capabilities/extensions/4", "checked": False},
        {"uri": URIS["media"], "path": "/capabilities/extensions/5", "checked": False},
        {"uri": URIS["status"], "path": "/capabilities/extensions/6", "checked": False},
    ]


def test_only_http_and_https_are_a_scheme_slip() -> None:
    card = example_card()
    ftp = COMMANDS_URI.replace("https:", "ftp:")
    other_version = COMMANDS_URI.removesuffix("v1") + "vX/"
    card["capabilities"]["extensions"] = [{"uri": ftp}, {"uri": other_version}]
    assert _problems(card) == [
        (
            "info",
            "extension-not-checked",
            "/capabilities/extensions/0/uri",
            f"extension {ftp} is not one th-ext publishes; its params were not checked",
            "nothing to do if the extension is meant; otherwise check the URI",
        ),
        (
            "error",
            "near-miss-extension-uri",
            "/capabilities/extensions/1/uri",
            f"extension URI {other_version} differs from commands/v1 only by a trailing slash "
            "and its version segment ('vX' instead of 'v1'), and from commands/v2 in the same way",
            f"use the exact URI meant, {COMMANDS_URI} or {V2}; as it is, its params are not "
            "checked",
        ),
        (
            "info",
            "no-known-extension",
            "/capabilities/extensions",
            "the card declares none of the extensions th-ext checks: only the A2A layers were "
            "checked",
            "to require one, name it with --extension (published: commands/v1, commands/v2)",
        ),
    ]


def test_with_nothing_published_the_note_says_none() -> None:
    problems, _ = check_extensions({"capabilities": {"extensions": [{"uri": "x:y"}]}}, {})
    assert problems[-1].code == "no-known-extension"
    assert problems[-1].hint == "to require one, name it with --extension (published: none)"


def test_a_separator_second_in_a_name_is_made_a_hyphen() -> None:
    card = example_card()
    card["capabilities"]["extensions"][0]["params"]["commands"][0]["name"] = "a_b"
    hints = [p.hint for p in validate_value(card).problems if p.code == "command-name-pattern"]
    assert hints == [
        "use lower-case letters, digits and '-', starting with a letter; did you mean 'a-b'?"
    ]


def test_an_entry_that_is_not_an_object_is_passed_over_and_the_rest_are_checked() -> None:
    card = example_card()
    entry = card["capabilities"]["extensions"][0]
    card["capabilities"]["extensions"] = ["commands", {"uri": 5}, entry]
    report = validate_value(card)
    assert [(e["path"], e["checked"]) for e in report.extensions] == [
        ("/capabilities/extensions/2", True)
    ]
