"""Each publishing rule passes on the real extensions and fails on a broken copy."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.publish.conftest import JsonEdit
from th_ext import PublishError, find
from th_ext.publish import check_version, plan_site, relative_path, resolve_pointer

SITE_URL = "https://madarauchiha-314.github.io/tiny-harness/"


def problems_of(extensions: Path) -> list[str]:
    return check_version(find("commands/v1", extensions), SITE_URL)


def test_the_real_extensions_meet_every_rule(extensions_dir: Path) -> None:
    assert problems_of(extensions_dir) == []


@pytest.mark.parametrize(
    ("uri", "site_url", "expected"),
    [
        ("https://h.io/th/a2a/ext/x/v1", "https://h.io/th/", "a2a/ext/x/v1"),
        ("https://h.io/th/a2a/ext/x/v1", "https://h.io/th", "a2a/ext/x/v1"),
        ("https://h.io/other/x/v1", "https://h.io/th/", None),
        ("https://h.io/th/", "https://h.io/th/", None),
        ("https://h.io/th/../x", "https://h.io/th/", None),
        ("https://h.io/thx/v1", "https://h.io/th/", None),
    ],
)
def test_relative_path(uri: str, site_url: str, expected: str | None) -> None:
    assert relative_path(uri, site_url) == expected


def test_uri_outside_the_site_url_is_refused(extensions_copy: Path) -> None:
    assert problems_of(extensions_copy) == []
    problems = check_version(find("commands/v1", extensions_copy), "https://example.org/docs/")
    assert any("is not under the site URL" in p for p in problems)


def test_schema_id_must_be_the_uri_plus_schema_json(
    extensions_copy: Path, edit_json: JsonEdit
) -> None:
    edit_json("commands/v1/schema.json", lambda s: s.update({"$id": "https://x.org/s.json"}))
    assert any("schema $id is 'https://x.org/s.json'" in p for p in problems_of(extensions_copy))


def test_schema_must_be_valid_draft_2020_12(extensions_copy: Path, edit_json: JsonEdit) -> None:
    edit_json("commands/v1/schema.json", lambda s: s.update({"type": 5}))
    assert any("not a valid draft 2020-12 schema" in p for p in problems_of(extensions_copy))


def test_schema_must_declare_draft_2020_12(extensions_copy: Path, edit_json: JsonEdit) -> None:
    edit_json(
        "commands/v1/schema.json",
        lambda s: s.update({"$schema": "http://json-schema.org/draft-07/schema#"}),
    )
    assert any("$schema is" in p for p in problems_of(extensions_copy))


def test_valid_example_that_fails_its_schema_is_refused(
    extensions_copy: Path, edit_json: JsonEdit
) -> None:
    edit_json(
        "commands/v1/examples/card.json",
        lambda card: card["capabilities"]["extensions"][0]["params"]["commands"][0].pop("name"),
    )
    assert any("example card.json fails its schema" in p for p in problems_of(extensions_copy))


def test_invalid_example_that_passes_its_schema_is_refused(
    extensions_copy: Path, edit_json: JsonEdit
) -> None:
    edit_json(
        "commands/v1/examples/params-invalid-unknown-field.json",
        lambda params: params["commands"][0].pop("aliases"),
    )
    assert any(
        "params-invalid-unknown-field.json is marked invalid but passes" in p
        for p in problems_of(extensions_copy)
    )


def test_example_pointer_must_reach_a_value(extensions_copy: Path, edit_json: JsonEdit) -> None:
    edit_json("commands/v1/examples/card.json", lambda card: card.pop("capabilities"))
    assert any("has nothing at" in p for p in problems_of(extensions_copy))


def test_plan_reports_every_problem_at_once(extensions_copy: Path, edit_json: JsonEdit) -> None:
    edit_json("commands/v1/schema.json", lambda s: s.update({"$id": "x", "type": 5}))
    with pytest.raises(PublishError) as caught:
        plan_site(SITE_URL, extensions_copy, check_published=False)
    assert len(caught.value.problems) >= 2


@pytest.mark.parametrize(
    ("pointer", "expected"),
    [("", {"a": [1, {"b/c": 2, "d~e": 3}]}), ("/a/0", 1), ("/a/1/b~1c", 2), ("/a/1/d~0e", 3)],
)
def test_resolve_pointer(pointer: str, expected: object) -> None:
    assert resolve_pointer({"a": [1, {"b/c": 2, "d~e": 3}]}, pointer) == expected


@pytest.mark.parametrize("pointer", ["/a/2", "/x", "a", "/a/01x"])
def test_resolve_pointer_missing(pointer: str) -> None:
    with pytest.raises(KeyError):
        resolve_pointer({"a": [1, 2]}, pointer)
