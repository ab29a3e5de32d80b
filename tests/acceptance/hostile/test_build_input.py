"""The site build does only what the README says: it fetches no ``$ref`` (a real loopback
server counts the requests), takes no name, version or URI with a trailing newline, and links
an example too big to show instead of inlining it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.acceptance.hostile.conftest import Origin
from th_ext import CatalogError, PublishError
from th_ext.catalog._reader import load_version
from th_ext.publish import plan_site
from th_ext.publish._site_plan import check_examples
from th_ext.publish._spec_page import INLINE_LIMIT, render_spec_page

SITE_URL = "https://madarauchiha-314.github.io/tiny-harness/"


@pytest.fixture
def extensions(tmp_path: Path, extensions_dir: Path) -> Path:
    target = tmp_path / "extensions"
    shutil.copytree(extensions_dir, target)
    return target


def _remote_ref(extensions: Path, url: str) -> None:
    path = extensions / "commands/v1/schema.json"
    schema = json.loads(path.read_bytes())
    schema["properties"]["commands"] = {"$ref": url}
    path.write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def test_a_remote_ref_is_never_fetched(extensions: Path, origin_a: Origin) -> None:
    url = origin_a.serve_json("/remote.json", {"type": "array"})
    _remote_ref(extensions, url)
    problems = check_examples(load_version(extensions / "commands/v1"))
    assert problems and url in problems[0] and "fetches nothing" in problems[0]
    with pytest.raises(PublishError) as caught:
        plan_site(SITE_URL, extensions, check_published=False)
    assert any("fetches nothing" in problem for problem in caught.value.problems)
    assert origin_a.received == []


def test_a_local_ref_still_resolves(extensions: Path) -> None:
    path = extensions / "commands/v1/schema.json"
    schema = json.loads(path.read_bytes())
    schema["$defs"]["Anything"] = {}
    original = schema["properties"]["commands"]
    anything = [{"$ref": "#/$defs/Anything"}, {"$ref": schema["$id"] + "#/$defs/Anything"}]
    schema["properties"]["commands"] = {"allOf": [original, *anything]}
    path.write_text(json.dumps(schema), encoding="utf-8")
    assert check_examples(load_version(extensions / "commands/v1")) == []


def _toml_edit(extensions: Path, old: str, new: str) -> None:
    path = extensions / "commands/v1/extension.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('version = "v1"', 'version = "v1\\n"'),
        ('name = "commands"', 'name = "commands\\n"'),
        ('/a2a/ext/commands/v1"', '/a2a/ext/commands/v1\\n"'),
        ('/a2a/ext/commands/v1"', '/a2a/ext/commands/v1\\t"'),
        ('file = "card.json"', 'file = "card.json\\n"'),
    ],
)
def test_a_trailing_newline_passes_no_pattern(extensions: Path, old: str, new: str) -> None:
    _toml_edit(extensions, old, new)
    with pytest.raises(CatalogError, match="does not match"):
        load_version(extensions / "commands/v1")


def test_a_version_folder_named_with_a_newline_is_refused(extensions: Path) -> None:
    _toml_edit(extensions, 'version = "v1"', 'version = "v1\\n"')
    (extensions / "commands/v1").rename(extensions / "commands/v1\n")
    with pytest.raises(CatalogError, match="does not match"):
        plan_site(SITE_URL, extensions, check_published=False)


def test_a_big_example_is_linked_not_inlined(extensions: Path) -> None:
    folder = extensions / "commands/v1"
    card = json.loads((folder / "examples/card.json").read_bytes())
    card["description"] = "x" * (INLINE_LIMIT + 10)
    (folder / "examples/card.json").write_text(json.dumps(card), encoding="utf-8")
    version = load_version(folder)
    page = render_spec_page(version, [version])
    assert "x" * 1000 not in page
    assert "too big to show on this page: [download it](examples/card.json)" in page
    assert len(page) < 200_000
    plan = plan_site(SITE_URL, extensions, check_published=False)
    published = {item.path: item.content for item in plan.files}
    assert (
        published["a2a/ext/commands/v1/examples/card.json"]
        == (folder / "examples/card.json").read_bytes()
    ), "the file itself is still published whole"
