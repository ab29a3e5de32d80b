"""The subtree build merged into the real build of a VitePress site shaped like tiny-harness's.

``th-ext-publish subtree`` (what ``make pages-subtree`` runs) builds into the ``dist`` of the
VitePress test host (``tests/hosts/vitepress``, ``tests/support/vitepress_host.py``): nothing
of the host may change, the commands extension must be served at its URI and its schema at its
``$id``, every link of the merged tree must work (the host's nav entry into the extensions and
the header's link back), the subtree's links must stay inside it or be absolute, a file the
build did not write must stop it, and the composite action must run the same build.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import httpx
import pytest

from tests.acceptance.site.conftest import MergedSite
from tests.support.host_site import file_hashes
from tests.support.html_page import parse_html
from tests.support.link_check import crawl_site
from tests.support.pages_action import (
    PAGES_ACTION,
    ensure_pages_venv,
    run_action_steps,
    turn_in_checkout,
)
from tests.support.site_build import build_pages_subtree, copy_project_for_build
from tests.support.site_config import mkdocs_setting
from tests.support.vitepress_host import copy_host_dist

pytestmark = pytest.mark.slow

SUBTREE = "a2a/ext/"
MANIFEST = SUBTREE + "th-ext-manifest.json"
COMMANDS = "a2a/ext/commands/v1"


@pytest.fixture(scope="module")
def site_url(repo_root: Path) -> str:
    return mkdocs_setting(repo_root, "site_url")


def test_nothing_of_the_host_site_changed(merged_site: MergedSite) -> None:
    after = file_hashes(merged_site.root)
    changed = {path for path, digest in merged_site.before.items() if after.get(path) != digest}
    assert not changed, f"host files changed or removed: {sorted(changed)}"
    added = set(after) - set(merged_site.before)
    outside = sorted(path for path in added if not path.startswith(SUBTREE))
    assert not outside, f"written outside {SUBTREE}: {outside}"
    manifest = json.loads((merged_site.root / MANIFEST).read_bytes())
    assert set(manifest["files"]) == added - {MANIFEST}
    assert all(after[path] == digest for path, digest in manifest["files"].items())
    for expected in (
        f"{COMMANDS}/index.html",
        f"{COMMANDS}/schema.json",
        "a2a/ext/index.json",
        "a2a/ext/search/search_index.json",
        "a2a/ext/th-ext/index.html",
    ):
        assert expected in added, expected
    assert "wrote" in merged_site.output


def test_the_commands_page_and_schema_are_served_at_their_uri_and_id(
    merged_base_url: str, site_url: str, repo_root: Path
) -> None:
    schema_bytes = (repo_root / "extensions/commands/v1/schema.json").read_bytes()
    schema_id = json.loads(schema_bytes)["$id"]
    local = merged_base_url + COMMANDS
    assert site_url + COMMANDS + "/schema.json" == schema_id
    with httpx.Client(timeout=10, trust_env=False) as http:
        redirect = http.get(local)
        assert redirect.status_code == 301
        assert urljoin(local, redirect.headers["location"]) == local + "/"
        page = http.get(local + "/")
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/html")
        assert parse_html(page.text).title.startswith("Commands extension v1")
        schema = http.get(merged_base_url + schema_id.removeprefix(site_url))
        assert schema.status_code == 200
        assert schema.headers["content-type"] == "application/json"
        assert schema.content == schema_bytes
        catalog = http.get(merged_base_url + "a2a/ext/index.json").json()
        assert site_url + COMMANDS in {entry["uri"] for entry in catalog["extensions"]}
        host_page = http.get(merged_base_url + "a2a/ext/task/v1")
        assert host_page.status_code == 200
        assert parse_html(host_page.text).title == "Task extension v1 | tiny-harness"


def test_every_link_of_the_merged_tree_works(merged_base_url: str, site_url: str) -> None:
    report = crawl_site(
        merged_base_url,
        site_url=site_url,
        also_visit={merged_base_url + SUBTREE: 200, merged_base_url + "no/such/page/": 404},
    )
    assert report.links_checked > 0
    assert not report.broken, "\n".join(str(broken) for broken in report.broken)
    for page in ("", "a2a/ext/", "a2a/ext/commands/v1/", "a2a/ext/th-ext/", "a2a/ext/task/v1"):
        assert page in report.pages, f"the crawl did not reach {page!r}"


def test_links_stay_inside_the_subtree_or_are_absolute(
    merged_site: MergedSite, repo_root: Path
) -> None:
    """Every relative link of a page the build wrote resolves inside ``a2a/ext/``, except the
    header's link to the host's home, which every page has."""
    import yaml

    config = yaml.safe_load((repo_root / "mkdocs.yml").read_text(encoding="utf-8"))
    host_home = config["extra"]["host_docs"]["href"]
    assert host_home == "/tiny-harness/"
    written = json.loads((merged_site.root / MANIFEST).read_bytes())["files"]
    pages = sorted(path for path in written if path.endswith(".html"))
    assert len(pages) >= 5, pages
    leaving: list[str] = []
    for path in pages:
        page_path = "/tiny-harness/" + path
        html = (merged_site.root / path).read_text(encoding="utf-8")
        assert f'<a href="{host_home}" class="th-host-link" target="_self">' in html, path
        for link in parse_html(html).links:
            if urlsplit(link.value).scheme or link.value.startswith(("#", "data:")):
                continue
            if link.value == host_home:
                continue
            resolved = urlsplit(urljoin("https://host" + page_path, link.value)).path
            if link.value.startswith("/") or not resolved.startswith("/tiny-harness/" + SUBTREE):
                leaving.append(f"{page_path}: {link.value}")
    assert not leaving, "relative links that leave the subtree:\n" + "\n".join(leaving)
    dispatch = (merged_site.root / SUBTREE / "th-ext/dispatch/index.html").read_text("utf-8")
    assert 'href="../../commands/v1/' in dispatch


@pytest.mark.parametrize(
    ("foreign", "why"),
    [
        ("a2a/ext/index.json", "a file the build writes"),
        ("a2a/ext/commands/v1.html", "a clean-URL page at the commands URI"),
    ],
)
def test_a_file_it_did_not_write_stops_the_build_before_anything_is_written(
    foreign: str, why: str, repo_root: Path, tmp_path: Path
) -> None:
    host = copy_host_dist(tmp_path / "dist")
    (host / foreign).parent.mkdir(parents=True, exist_ok=True)
    (host / foreign).write_text(f"the host's own: {why}\n", encoding="utf-8")
    before = file_hashes(host)
    result = build_pages_subtree(repo_root, host, tmp_path / "scratch")
    assert result.returncode == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert str(host / foreign) in lines[0]
    assert "Traceback" not in result.output
    assert file_hashes(host) == before


def test_an_extension_the_host_already_publishes_is_refused_by_name(
    repo_root: Path, tmp_path: Path, site_url: str
) -> None:
    """A ``task/v1`` of this project would shadow the host's own ``a2a/ext/task/v1.html``."""
    project = copy_project_for_build(repo_root, tmp_path / "project")
    task = project / "extensions/task/v1"
    shutil.copytree(project / "extensions/commands/v1", task)
    meta = (task / "extension.toml").read_text(encoding="utf-8")
    meta = meta.replace('name = "commands"', 'name = "task"').replace("/commands/v1", "/task/v1")
    meta = meta.replace('status = "stable"', 'status = "draft"')
    meta = meta.replace('schema_source = "th_ext.commands:commands_v1_schema"\n', "")
    (task / "extension.toml").write_text(meta, encoding="utf-8")
    schema = json.loads((task / "schema.json").read_bytes())
    schema["$id"] = site_url + "a2a/ext/task/v1/schema.json"
    (task / "schema.json").write_text(json.dumps(schema, indent=2) + "\n", encoding="utf-8")
    for example in (task / "examples").iterdir():
        text = example.read_text(encoding="utf-8").replace("/commands/v1", "/task/v1")
        example.write_text(text, encoding="utf-8")
    external = project / "extensions/external.toml"
    listed = external.read_text(encoding="utf-8")
    task_entry = f'[[extension]]\nuri = "{site_url}a2a/ext/task/v1"\n'
    assert task_entry in listed
    start = listed.index(task_entry)
    end = listed.index("[[extension]]", start + len(task_entry))
    external.write_text(listed[:start] + listed[end:], encoding="utf-8")

    host = copy_host_dist(tmp_path / "dist")
    before = file_hashes(host)
    result = build_pages_subtree(project, host, tmp_path / "scratch")
    assert result.returncode == 2, result.output
    assert result.output.strip().splitlines() == [
        f"th-ext-publish subtree: error: {host / 'a2a/ext/task/v1.html'} is in the way:"
        " this build did not write it and will not replace or shadow it; nothing was written"
    ]
    assert file_hashes(host) == before


def test_a_rerun_replaces_its_own_files_and_no_others(
    merged_site: MergedSite, repo_root: Path, tmp_path: Path
) -> None:
    host = tmp_path / "dist"
    shutil.copytree(merged_site.root, host)
    stale = host / "a2a/ext/commands/v0/index.html"
    stale.parent.mkdir(parents=True)
    stale.write_text("from an earlier build\n", encoding="utf-8")
    manifest = json.loads((host / MANIFEST).read_bytes())
    manifest["files"]["a2a/ext/commands/v0/index.html"] = hashlib.sha256(
        stale.read_bytes()
    ).hexdigest()
    (host / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")

    again = build_pages_subtree(repo_root, host, tmp_path / "scratch")
    assert again.returncode == 0, again.output
    assert not stale.exists(), "a file of an earlier run that this build lacks stays behind"
    assert file_hashes(host) == file_hashes(merged_site.root)

    ours = host / COMMANDS / "index.html"
    ours.write_text("edited by hand after the build\n", encoding="utf-8")
    refused = build_pages_subtree(repo_root, host, tmp_path / "scratch")
    assert refused.returncode == 2
    assert str(ours) in refused.output
    assert ours.read_text(encoding="utf-8") == "edited by hand after the build\n"


def test_the_composite_action_builds_into_the_callers_artifact(
    repo_root: Path, tmp_path: Path
) -> None:
    """The action's own steps, run as the runner runs them, with the default ``dest``."""
    import yaml

    action = yaml.safe_load(PAGES_ACTION.read_text(encoding="utf-8"))
    assert action["runs"]["using"] == "composite"
    assert action["inputs"]["dest"]["default"] == "docs/.vitepress/dist"
    workspace = tmp_path / "tiny-harness"
    host = copy_host_dist(workspace / "docs/.vitepress/dist")
    before = file_hashes(host)
    with turn_in_checkout():
        ensure_pages_venv()
        result = run_action_steps(action, PAGES_ACTION.parent, workspace, {})
    assert result.returncode == 0, result.stdout + result.stderr
    after = file_hashes(host)
    assert all(after[path] == digest for path, digest in before.items())
    assert f"{COMMANDS}/index.html" in after
    assert f"{COMMANDS}/schema.json" in after

    missing = run_action_steps(action, PAGES_ACTION.parent, tmp_path, {})
    assert missing.returncode == 2
    assert "is not a folder; build the site first" in missing.stderr
