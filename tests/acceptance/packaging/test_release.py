"""The release checks run here as the release workflow runs them, and the README's install
lines name the project's repository until the first release is on PyPI."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from th_ext._version import __version__


def check_dist(repo_root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(repo_root / ".ci/check-dist"), *args],
        cwd=repo_root,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


@pytest.mark.slow
def test_the_sdist_and_wheel_pass_the_release_checks(repo_root: Path, tmp_path: Path) -> None:
    run = check_dist(repo_root, "--out", str(tmp_path / "dist"), "--tag", f"v{__version__}")
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"built th_ext-{__version__}.tar.gz and th_ext-{__version__}-py3-none-any.whl" in (
        run.stdout
    )
    assert "twine check --strict" in run.stdout
    assert "th-ext schema commands/v1 is the published file" in run.stdout
    assert run.stdout.rstrip().endswith("all checks passed")


def test_a_tag_that_does_not_name_the_version_stops_the_release(
    repo_root: Path, tmp_path: Path
) -> None:
    run = check_dist(repo_root, "--out", str(tmp_path / "dist"), "--tag", "v99.0.0")
    assert run.returncode == 1
    assert f"the tag v99.0.0 does not name this version (v{__version__})" in run.stderr
    assert not (tmp_path / "dist").exists()


def test_the_changelog_has_an_entry_for_this_version(repo_root: Path) -> None:
    changelog = (repo_root / "CHANGELOG.md").read_text()
    assert re.search(rf"^## \[{re.escape(__version__)}\]$", changelog, re.MULTILINE)


def test_the_release_workflow_publishes_tags_with_trusted_publishing(repo_root: Path) -> None:
    workflow = yaml.safe_load((repo_root / ".github/workflows/release.yml").read_text())
    triggers = workflow[True]  # YAML 1.1 reads the key `on` as true
    assert triggers["push"]["tags"] == ["v*"]
    dist_steps = " ".join(str(step.get("run", "")) for step in workflow["jobs"]["dist"]["steps"])
    assert ".ci/check-dist" in dist_steps
    publish = workflow["jobs"]["publish"]
    assert publish["permissions"] == {"id-token": "write"}
    assert publish["needs"] == "dist"
    assert any(
        str(step.get("uses", "")).startswith("pypa/gh-action-pypi-publish@")
        for step in publish["steps"]
    )


def test_the_readme_installs_from_the_project_repository(repo_root: Path) -> None:
    urls = tomllib.loads((repo_root / "pyproject.toml").read_text())["project"]["urls"]
    repository = urls["Source"]
    mkdocs = (repo_root / "mkdocs.yml").read_text()
    assert f"link: {repository}\n" in mkdocs
    readme = (repo_root / "README.md").read_text()
    block = readme.split("install it from the Git repository:", 1)[1].split("```")[1]
    commands = [line.split("#")[0].strip() for line in block.splitlines()[1:] if line.strip()]
    assert commands == [
        f'pip install "th-ext @ git+{repository}"',
        f'pipx install "git+{repository}"',
        f'uv tool install "git+{repository}"',
        f'pip install "th-ext[demo] @ git+{repository}"',
    ]
