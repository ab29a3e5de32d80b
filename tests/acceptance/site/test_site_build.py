"""``mkdocs build --strict``: what the build publishes, and every rule that stops it."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.extension_folders import extension_folders
from tests.support.new_version import copy_as_draft
from tests.support.site_build import build_site, copy_project_for_build

SITE_URL = "https://madarauchiha-314.github.io/tiny-harness/"
V1 = Path("a2a/ext/commands/v1")


def test_spec_page_and_schema_are_at_the_uri_path(built_site: Path, extensions_dir: Path) -> None:
    page = (built_site / V1 / "index.html").read_text(encoding="utf-8")
    assert "<title>Commands extension v1" in page
    assert (built_site / V1 / "schema.json").read_bytes() == (
        extensions_dir / "commands" / "v1" / "schema.json"
    ).read_bytes()
    for example in (extensions_dir / "commands" / "v1" / "examples").iterdir():
        assert (built_site / V1 / "examples" / example.name).read_bytes() == example.read_bytes()


def test_catalog_lists_every_schema_with_its_sha256(built_site: Path, extensions_dir: Path) -> None:
    catalog = json.loads((built_site / "a2a/ext/index.json").read_bytes())
    folders = extension_folders(extensions_dir)
    assert [f"{e['name']}/{e['version']}" for e in catalog["extensions"]] == [
        folder.key for folder in folders
    ]
    for entry, folder in zip(catalog["extensions"], folders, strict=True):
        served = (built_site / "a2a/ext" / folder.key / "schema.json").read_bytes()
        assert entry["uri"] == folder.uri == SITE_URL + "a2a/ext/" + folder.key
        assert entry["schema_url"] == folder.uri + "/schema.json"
        assert entry["schema_sha256"] == hashlib.sha256(served).hexdigest()


def test_index_page_and_navigation_list_the_extension(built_site: Path) -> None:
    index = (built_site / "a2a/ext/index.html").read_text(encoding="utf-8")
    assert "Commands extension v1" in index
    assert 'href="commands/v1/schema.json"' in index
    home = (built_site / "index.html").read_text(encoding="utf-8")
    assert 'href="a2a/ext/commands/v1/"' in home  # the generated navigation


def test_search_index_and_404_page_are_built(built_site: Path) -> None:
    search = json.loads((built_site / "search/search_index.json").read_bytes())
    assert any(doc["location"].startswith("a2a/ext/commands/v1/") for doc in search["docs"])
    # A draft's words are not final: the search leads to published versions only.
    assert not any(doc["location"].startswith("a2a/ext/commands/v2/") for doc in search["docs"])
    assert "Page not found" in (built_site / "404.html").read_text(encoding="utf-8")


def _next_version(extensions: Path, name: str) -> str:
    numbers = [int(folder.name[1:]) for folder in (extensions / name).glob("v[0-9]*")]
    return f"v{max(numbers) + 1}"


def test_adding_a_version_is_adding_a_folder(repo_root: Path, tmp_path: Path) -> None:
    """Copy v1, change its URI and $id, mark it draft: the copied schema_source stays."""
    project = copy_project_for_build(repo_root, tmp_path / "project")
    extensions = project / "extensions"
    new = _next_version(extensions, "commands")
    folder = copy_as_draft(extensions, "commands/v1", new)
    assert "schema_source" in (folder / "extension.toml").read_text()

    result = build_site(project, tmp_path / "out")
    assert result.returncode == 0, result.output
    site = result.site_dir
    page = (site / f"a2a/ext/commands/{new}/index.html").read_text()
    assert f"Commands extension {new}" in page
    assert "Draft: not published yet" in page and "Published:" not in page
    assert "Published:" in (site / "a2a/ext/commands/v1/index.html").read_text()
    assert json.loads((site / f"a2a/ext/commands/{new}/schema.json").read_bytes())["$id"] == (
        f"{SITE_URL}a2a/ext/commands/{new}/schema.json"
    )
    catalog = json.loads((site / "a2a/ext/index.json").read_bytes())
    assert new in [e["version"] for e in catalog["extensions"]]
    assert f'href="../{new}/"' in (site / "a2a/ext/commands/v1/index.html").read_text()
    assert f'href="a2a/ext/commands/{new}/"' in (site / "index.html").read_text()


def test_a_draft_whose_examples_name_another_version_fails(repo_root: Path, tmp_path: Path) -> None:
    project = copy_project_for_build(repo_root, tmp_path / "project")
    extensions = project / "extensions"
    new = _next_version(extensions, "commands")
    copy_as_draft(extensions, "commands/v1", new, retarget_examples=False)
    result = build_site(project, tmp_path / "out")
    assert result.returncode != 0
    assert (
        f"commands/{new}: example card-extension-entry.json still names {SITE_URL}a2a/ext/"
        "commands/v1; a draft's examples must use its own URI"
    ) in result.output


def _break_schema(project: Path, **changes: object) -> None:
    path = project / "extensions/commands/v1/schema.json"
    schema = json.loads(path.read_bytes())
    schema.update(changes)
    path.write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n")


def _edit(project: Path, relative: str, old: str, new: str) -> None:
    path = project / relative
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


BREAKAGES: dict[str, tuple[Callable[[Path], object], str]] = {
    "uri-outside-site": (
        lambda p: _edit(
            p,
            "mkdocs.yml",
            "site_url: https://madarauchiha-314.github.io/tiny-harness/",
            "site_url: https://example.org/elsewhere/",
        ),
        "is not under the site URL",
    ),
    "schema-id": (
        lambda p: _break_schema(p, **{"$id": SITE_URL + "a2a/ext/commands/v1"}),
        "schema $id is",
    ),
    "invalid-schema": (
        lambda p: _break_schema(p, type="objekt"),
        "not a valid draft 2020-12 schema",
    ),
    "valid-example-fails": (
        lambda p: _edit(
            p,
            "extensions/commands/v1/examples/card.json",
            '"description": "Show or choose',
            '"descr": "Show or choose',
        ),
        "example card.json fails its schema",
    ),
    "invalid-example-passes": (
        lambda p: _edit(
            p,
            "extensions/commands/v1/examples/params-invalid-missing-description.json",
            '"argument_hint"',
            '"description"',
        ),
        "is marked invalid but passes",
    ),
    "broken-link": (
        lambda p: _edit(
            p,
            "extensions/commands/v1/spec.md",
            "## Overview",
            "## Overview\n\nSee [the guide](../nowhere.md).",
        ),
        "nowhere.md",
    ),
    "field-without-description": (
        lambda p: _edit(
            p, "extensions/commands/v1/fields.toml", 'argument_hint = "', 'argument_hint_old = "'
        ),
        "field CommandSpec.argument_hint has no description; add it to fields.toml",
    ),
    "stale-diagram": (
        lambda p: _edit(
            p, "extensions/commands/v1/spec.md", "participant M as Model", "participant M as LLM"
        ),
        "has no drawing diagrams/",
    ),
    "published-schema-changed": (
        lambda p: _edit(
            p,
            "extensions/commands/v1/schema.json",
            '"title": "Commands"',
            '"title": "Command list"',
        ),
        "changed after publication",
    ),
}


@pytest.mark.parametrize("breakage", sorted(BREAKAGES))
def test_strict_build_fails_when_a_rule_is_broken(
    breakage: str, repo_root: Path, tmp_path: Path
) -> None:
    project = copy_project_for_build(repo_root, tmp_path / "project")
    damage, expected = BREAKAGES[breakage]
    damage(project)
    result = build_site(project, tmp_path / "out")
    assert result.returncode != 0
    assert expected in result.output
