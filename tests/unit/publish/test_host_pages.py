"""The pages generated for the host's extensions, the catalog's view of them, and the family
list that says where each schema's data travels."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from tests.support.host_schemas import PREFIX, URIS, make_host_schemas
from th_ext.catalog._family import read_external
from th_ext.catalog._reader import discover
from th_ext.publish import plan_site
from th_ext.publish._catalog_page import ServedSchema
from th_ext.publish._host import HostSchema, host_page_title, read_host_schemas, render_host_page
from th_ext.publish._subtree import MANIFEST_NAME, host_page_at

SITE_URL = "https://madarauchiha-314.github.io/tiny-harness/"


@pytest.fixture
def host(tmp_path: Path, extensions_dir: Path) -> dict[str, HostSchema]:
    commands = (extensions_dir / "commands/v1/schema.json").read_bytes()
    folder = make_host_schemas(tmp_path / "ext", commands)
    schemas = read_host_schemas(folder, PREFIX, discover(extensions_dir))
    return {schema.folder.split("/")[0]: schema for schema in schemas.serve}


def test_the_family_list_says_where_every_host_schema_applies(extensions_dir: Path) -> None:
    family = {entry.uri: entry for entry in read_external(extensions_dir / "external.toml")}
    assert set(family) == {URIS[name] for name in ("task", "channel", "status", "media")}
    expected = {
        "task": ("Task.metadata key",),
        "channel": ("data part media type",),
        "status": ("Task.metadata key", "status update metadata key"),
        "media": ("card params",),
    }
    for name, applies_to in expected.items():
        entry = family[URIS[name]]
        assert entry.applies_to == applies_to
        assert entry.host_path == f"docs/a2a/ext/{name}.json"
    assert family[URIS["status"]].metadata_key == "io.github.madarauchiha-314.tiny-harness/status"
    assert family[URIS["channel"]].media_type == "application/vnd.tiny-harness.channel+json"


def test_a_status_page_is_made_from_the_schema_and_says_so(
    host: dict[str, HostSchema], extensions_dir: Path
) -> None:
    family = {entry.uri: entry for entry in read_external(extensions_dir / "external.toml")}
    status = host["status"]
    page = render_host_page(status, family[status.uri], "tiny-harness", "docs/a2a/ext")
    assert host_page_title(status) == "Status extension v1"
    assert "# Status extension v1" in page
    assert "Generated from tiny-harness's `docs/a2a/ext/status.json`" in page
    assert f"- **URI:** `{URIS['status']}`" in page
    assert f"[`{URIS['status']}/schema.json`](schema.json)" in page
    assert f"`{hashlib.sha256(status.file.content).hexdigest()}`" in page
    key = "io.github.madarauchiha-314.tiny-harness/status"
    assert f'- `Task.metadata["{key}"]`' in page
    assert f'- `TaskStatusUpdateEvent.metadata["{key}"]`' in page
    assert "| `sub_state` | string | yes | — | What the agent waits for:" in page


def test_a_page_links_its_definitions_and_says_when_the_data_place_is_unknown(
    host: dict[str, HostSchema],
) -> None:
    page = render_host_page(host["task"], None, "tiny-harness", "docs/a2a/ext")
    assert "does not record where this extension's data travels" in page
    assert "| `plan` | array of [`PlanStep`](#schema-planstep) | no | — |" in page
    assert "### `PlanStep` (definition) { #schema-planstep }" in page
    assert "| `step` | string | yes | — | What the step does. |" in page


def test_the_catalog_links_and_hashes_only_the_schemas_the_build_served(
    host: dict[str, HostSchema], extensions_dir: Path
) -> None:
    status, media = host["status"], host["media"]
    served = {
        status.uri: ServedSchema(
            uri=status.uri, folder="a2a/ext/status/v1", sha256=status.file.sha256,
            page_generated=True,
        ),
        media.uri: ServedSchema(
            uri=media.uri, folder="a2a/ext/media/v1", sha256=media.file.sha256,
            page_generated=False,
        ),
    }  # fmt: skip
    plan = plan_site(SITE_URL, extensions_dir, served=served)
    catalog = json.loads(plan.file("a2a/ext/index.json").content)
    by_uri = {entry["uri"]: entry for entry in catalog["external"]}
    assert by_uri[status.uri]["schema_sha256"] == status.file.sha256
    assert by_uri[status.uri]["schema_url"] == f"{status.uri}/schema.json"
    assert by_uri[URIS["task"]]["schema_url"] is None
    assert by_uri[URIS["task"]]["schema_sha256"] is None
    assert catalog["extensions"][0]["owner"] == "th-ext"
    assert by_uri[status.uri]["owner"] == "tiny-harness"
    page = plan.file("a2a/ext/index.md").content.decode()
    assert (
        f"| `{status.uri}` | [reference](status/v1/index.md) | [schema.json](status/v1/schema.json)"
        in page
    )
    assert (
        f"| `{media.uri}` | [at its URI]({media.uri}) | [schema.json](media/v1/schema.json)" in page
    )
    assert f"| `{URIS['task']}` | not built here | not served here | — |" in page


def test_a_host_page_at_the_uri_is_found_and_one_of_the_builds_own_is_not(tmp_path: Path) -> None:
    dest = tmp_path / "dist"
    (dest / "a2a/ext/task").mkdir(parents=True)
    (dest / "a2a/ext/task/v1.html").write_text("host", encoding="utf-8")
    (dest / "a2a/ext/channel/v1").mkdir(parents=True)
    (dest / "a2a/ext/channel/v1/index.html").write_text("host", encoding="utf-8")
    assert host_page_at(dest, "task/v1") == "a2a/ext/task/v1.html"
    assert host_page_at(dest, "channel/v1") == "a2a/ext/channel/v1/index.html"
    assert host_page_at(dest, "status/v1") is None
    ours = dest / "a2a/ext/status/v1/index.html"
    ours.parent.mkdir(parents=True)
    ours.write_text("ours", encoding="utf-8")
    manifest = {"files": {"a2a/ext/status/v1/index.html": hashlib.sha256(b"ours").hexdigest()}}
    (dest / "a2a/ext" / MANIFEST_NAME).write_text(json.dumps(manifest), encoding="utf-8")
    assert host_page_at(dest, "status/v1") is None
    ours.write_text("edited by the host", encoding="utf-8")
    assert host_page_at(dest, "status/v1") == "a2a/ext/status/v1/index.html"
