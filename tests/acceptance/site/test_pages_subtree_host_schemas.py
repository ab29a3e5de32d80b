"""The subtree build with the host's own schemas (``make pages-subtree HOST_SCHEMAS=DIR``).

The VitePress test host (``tests/support/vitepress_host.py``) has pages for task v1 and
channel v1 only, as clean-URL pages (``task/v1.html``);
its schema folder (``tests/support/host_schemas.py``) holds one schema per place the data
travels, a copy of the commands v1 schema, a tool descriptor without ``$id`` and a schema
whose ``$id`` lies elsewhere. After the build, served like GitHub Pages, every ``$id`` must
answer with its file byte for byte as ``application/json``, every URI of the family with a
page (the host's own untouched), and a drifted commands schema must stop the build on one
line with nothing written.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin

import httpx
import pytest

from tests.support.host_schemas import PREFIX, URIS, make_host_schemas
from tests.support.host_site import file_hashes
from tests.support.html_page import parse_html
from tests.support.pages_action import (
    PAGES_ACTION,
    ensure_pages_venv,
    run_action_steps,
    turn_in_checkout,
)
from tests.support.site_build import build_pages_subtree
from tests.support.static_site import serve_site
from tests.support.vitepress_host import copy_host_dist
from th_ext import discover

pytestmark = pytest.mark.slow

SITE_ROOT = "https://madarauchiha-314.github.io/tiny-harness/"


@dataclass(frozen=True)
class HostBuild:
    dest: Path
    schemas: Path
    before: dict[str, str]
    output: str


@pytest.fixture(scope="module")
def host_build(repo_root: Path, tmp_path_factory: pytest.TempPathFactory) -> HostBuild:
    work = tmp_path_factory.mktemp("host-schemas")
    dest = copy_host_dist(work / "dist")
    commands = (repo_root / "extensions/commands/v1/schema.json").read_bytes()
    schemas = make_host_schemas(work / "docs/a2a/ext", commands)
    before = file_hashes(dest)
    result = build_pages_subtree(repo_root, dest, work / "scratch", schemas)
    assert result.returncode == 0, result.output
    return HostBuild(dest, schemas, before, result.output)


@pytest.fixture(scope="module")
def base_url(host_build: HostBuild) -> Iterator[str]:
    with serve_site(host_build.dest) as url:
        yield url


def _local(base_url: str, uri: str) -> str:
    return base_url + uri.removeprefix(SITE_ROOT)


def test_every_id_answers_with_its_file_byte_for_byte(host_build: HostBuild, base_url: str) -> None:
    files = {
        json.loads((host_build.schemas / f"{name}.json").read_bytes())["$id"]: name for name in URIS
    }
    assert set(files) == {f"{uri}/schema.json" for uri in URIS.values()}
    with httpx.Client(timeout=10, trust_env=False) as http:
        for schema_id, name in files.items():
            answer = http.get(_local(base_url, schema_id))
            assert answer.status_code == 200, schema_id
            assert answer.headers["content-type"] == "application/json"
            assert answer.content == (host_build.schemas / f"{name}.json").read_bytes(), name


def test_every_uri_of_the_family_answers_with_a_page(host_build: HostBuild, base_url: str) -> None:
    with httpx.Client(timeout=10, trust_env=False, follow_redirects=True) as http:
        for name, uri in URIS.items():
            page = http.get(_local(base_url, uri))
            assert page.status_code == 200, uri
            assert page.headers["content-type"].startswith("text/html")
            if name in ("task", "channel"):
                # The served schema made the URI a folder, which the server answers by
                # redirecting to it: a page there forwards the reader to the host's own.
                assert str(page.url).endswith(f"/{name}/v1/")
                assert '<meta http-equiv="refresh" content="0; url=../v1.html">' in page.text
                page = http.get(urljoin(str(page.url), "../v1.html"))
                assert page.status_code == 200
                assert page.content == (host_build.dest / f"a2a/ext/{name}/v1.html").read_bytes()
            else:
                title = parse_html(page.text).title
                assert title.startswith(f"{name.capitalize()} extension v1"), title
        for name in ("status", "media"):
            text = http.get(_local(base_url, URIS[name])).text
            assert f"docs/a2a/ext/{name}.json" in text
            digest = hashlib.sha256((host_build.schemas / f"{name}.json").read_bytes())
            assert digest.hexdigest() in text


def test_nothing_of_the_host_changed_and_every_file_written_is_in_the_manifest(
    host_build: HostBuild,
) -> None:
    after = file_hashes(host_build.dest)
    assert all(after[path] == digest for path, digest in host_build.before.items())
    added = set(after) - set(host_build.before)
    manifest = json.loads((host_build.dest / "a2a/ext/th-ext-manifest.json").read_bytes())
    assert set(manifest["files"]) == added - {"a2a/ext/th-ext-manifest.json"}
    for name in ("task", "channel", "status", "media"):
        assert f"a2a/ext/{name}/v1/schema.json" in manifest["files"]
    for name in ("task", "channel"):  # the host's pages stay; only a forwarding page is added
        forward = (host_build.dest / f"a2a/ext/{name}/v1/index.html").read_text("utf-8")
        assert 'href="../v1.html"' in forward
        assert len(forward) < 600
    assert (
        f"skipped 2 host files: a2ui.json ($id outside {PREFIX}), attach-tool.json (no $id)"
        in host_build.output.splitlines()
    )


def test_the_catalog_lists_every_served_schema_with_its_sha256(
    host_build: HostBuild, base_url: str
) -> None:
    with httpx.Client(timeout=10, trust_env=False) as http:
        catalog = http.get(base_url + "a2a/ext/index.json").json()
    entries = {entry["uri"]: entry for entry in catalog["extensions"] + catalog["external"]}
    own = {version.uri for version in discover()}  # this project's versions, drafts too
    assert set(URIS.values()) <= set(entries) <= set(URIS.values()) | own
    for name, uri in URIS.items():
        digest = hashlib.sha256((host_build.schemas / f"{name}.json").read_bytes()).hexdigest()
        assert entries[uri]["schema_sha256"] == digest, name
        assert entries[uri]["schema_url"] == f"{uri}/schema.json"
    assert entries[URIS["media"]]["applies_to"] == ["card params"]


def test_a_drifted_schema_stops_the_build_with_nothing_written(
    repo_root: Path, tmp_path: Path
) -> None:
    dest = copy_host_dist(tmp_path / "dist")
    commands = (repo_root / "extensions/commands/v1/schema.json").read_bytes()
    schemas = make_host_schemas(tmp_path / "ext", commands, drifted=True)
    before = file_hashes(dest)
    result = build_pages_subtree(repo_root, dest, tmp_path / "scratch", schemas)
    assert result.returncode == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith(f"th-ext-publish subtree: error: {URIS['commands']}/schema.json:")
    assert hashlib.sha256((schemas / "commands.json").read_bytes()).hexdigest() in lines[0]
    assert hashlib.sha256(commands).hexdigest() in lines[0]
    assert "/$defs/CommandSpec/properties/runsOn" in lines[0]
    assert "new version (commands/v2)" in lines[0]
    assert file_hashes(dest) == before
    assert not (tmp_path / "scratch").exists()


def test_the_composite_action_serves_the_hosts_schemas_from_its_default_folder(
    repo_root: Path, tmp_path: Path
) -> None:
    import yaml

    action = yaml.safe_load(PAGES_ACTION.read_text(encoding="utf-8"))
    assert action["inputs"]["host-schemas"]["default"] == "docs/a2a/ext"
    workspace = tmp_path / "tiny-harness"
    host = copy_host_dist(workspace / "docs/.vitepress/dist")
    commands = (repo_root / "extensions/commands/v1/schema.json").read_bytes()
    schemas = make_host_schemas(workspace / "docs/a2a/ext", commands)
    with turn_in_checkout():
        ensure_pages_venv()
        result = run_action_steps(action, PAGES_ACTION.parent, workspace, {})
    assert result.returncode == 0, result.stdout + result.stderr
    served = host / "a2a/ext/status/v1/schema.json"
    assert served.read_bytes() == (schemas / "status.json").read_bytes()
    assert (host / "a2a/ext/status/v1/index.html").is_file()
