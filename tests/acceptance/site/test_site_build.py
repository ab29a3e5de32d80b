"""``mkdocs build --strict``: what the build publishes, and every rule that stops it."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

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


def test_catalog_lists_every_schema_with_its_sha256(built_site: Path) -> None:
    catalog = json.loads((built_site / "a2a/ext/index.json").read_bytes())
    [entry] = catalog["extensions"]
    served = (built_site / V1 / "schema.json").read_bytes()
    assert entry["uri"] == SITE_URL + str(V1)
    assert entry["schema_url"] == SITE_URL + str(V1) + "/schema.json"
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
    assert "Page not found" in (built_site / "404.html").read_text(encoding="utf-8")


def test_adding_a_version_is_adding_a_folder(repo_root: Path, tmp_path: Path) -> None:
    project = copy_project_for_build(repo_root, tmp_path / "project")
    v2 = project / "extensions" / "commands" / "v2"
    shutil.copytree(project / "extensions" / "commands" / "v1", v2)
    meta = (v2 / "extension.toml").read_text()
    meta = meta.replace('version = "v1"', 'version = "v2"').replace("/commands/v1", "/commands/v2")
    meta = meta.replace('status = "stable"', 'status = "draft"').replace(
        'title = "Commands extension v1"', 'title = "Commands extension v2"'
    )
    meta = meta.replace('schema_source = "th_ext.commands:commands_v1_schema"\n', "")
    (v2 / "extension.toml").write_text(meta)
    schema = json.loads((v2 / "schema.json").read_bytes())
    schema["$id"] = SITE_URL + "a2a/ext/commands/v2/schema.json"
    (v2 / "schema.json").write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n")
    for example in (v2 / "examples").iterdir():
        example.write_text(example.read_text().replace("/commands/v1", "/commands/v2"))

    result = build_site(project, tmp_path / "out")
    assert result.returncode == 0, result.output
    site = result.site_dir
    assert (site / "a2a/ext/commands/v2/index.html").is_file()
    assert json.loads((site / "a2a/ext/commands/v2/schema.json").read_bytes())["$id"].endswith(
        "/commands/v2/schema.json"
    )
    catalog = json.loads((site / "a2a/ext/index.json").read_bytes())
    assert [e["version"] for e in catalog["extensions"]] == ["v1", "v2"]
    assert 'href="../v2/"' in (site / "a2a/ext/commands/v1/index.html").read_text()
    assert 'href="a2a/ext/commands/v2/"' in (site / "index.html").read_text()


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
        lambda p: _edit(p, "mkdocs.yml", "site_url: https://madarauchiha-314.github.io/tiny-harness/",
                        "site_url: https://example.org/elsewhere/"),
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
        lambda p: _edit(p, "extensions/commands/v1/examples/card.json",
                        '"description": "Show or choose', '"descr": "Show or choose'),
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
        lambda p: _edit(p, "extensions/commands/v1/spec.md", "## Overview",
                        "## Overview\n\nSee [the guide](../nowhere.md)."),
        "nowhere.md",
    ),
    "published-schema-changed": (
        lambda p: _edit(p, "extensions/commands/v1/schema.json", '"title": "Commands"',
                        '"title": "Command list"'),
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
