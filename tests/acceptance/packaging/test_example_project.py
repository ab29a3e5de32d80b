"""The example agent (``examples/python-agent/``) installs outside this checkout.

Its ``pyproject.toml`` names th-ext as the README's install section does, by its Git
repository (the package index holds no th-ext yet), so ``pip install -e .`` in a copy of the
folder resolves. Here the repository is a clone of this checkout, reached by its file URL: the
network is used only for the package index, as every install test does.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.slow

EXAMPLE = REPO_ROOT / "examples" / "python-agent"
SOURCE = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["urls"]["Source"]


def _th_ext_requirement(pyproject: Path) -> Requirement:
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    (found,) = [r for r in map(Requirement, project["dependencies"]) if r.name == "th-ext"]
    return found


def test_the_example_names_th_ext_by_its_git_repository() -> None:
    requirement = _th_ext_requirement(EXAMPLE / "pyproject.toml")
    assert requirement.url == f"git+{SOURCE}", requirement


def test_a_copy_of_the_example_resolves_its_dependencies(tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(REPO_ROOT), str(clone)], check=True, timeout=120)
    copy = shutil.copytree(
        EXAMPLE, tmp_path / "agent", ignore=shutil.ignore_patterns("__pycache__")
    )
    pyproject = copy / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    assert f"git+{SOURCE}" in text
    pyproject.write_text(text.replace(f"git+{SOURCE}", f"git+{clone.as_uri()}"), encoding="utf-8")
    resolved = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "-q",
         "--disable-pip-version-check", "--report", str(tmp_path / "report.json"), "-e", str(copy)],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert resolved.returncode == 0, resolved.stdout + resolved.stderr
    report = (tmp_path / "report.json").read_text(encoding="utf-8")
    assert '"name": "th-ext"' in report and clone.as_uri() in report
