"""The files a newcomer reads first say true things: the README's sample card exists and
validates, ``make test`` announces the apt-get step, and the licence is the one pyproject names."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

from th_ext.validate import validate_value


def test_readme_points_at_a_sample_card_that_validates(repo_root: Path) -> None:
    readme = (repo_root / "README.md").read_text(encoding="utf-8")
    cards = re.findall(r"th-ext validate (extensions/\S+\.json)", readme)
    assert cards, "the README names no sample card"
    for card in cards:
        document = json.loads((repo_root / card).read_bytes())
        assert validate_value(document).exit_code == 0


def test_make_test_prints_a_line_before_apt_get(repo_root: Path) -> None:
    makefile = (repo_root / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\nbrowser:", 1)[1].split("\n\n", 1)[0]
    assert recipe.index("echo") < recipe.index(".ci/install-chromium")
    assert "apt-get" in recipe.split("echo", 1)[1].split(";", 1)[0]
    assert "apt-get" in (repo_root / "README.md").read_text(encoding="utf-8")


def test_licence_contributing_and_changelog_are_present(repo_root: Path) -> None:
    project = tomllib.loads((repo_root / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["license"] == "Apache-2.0"
    licence = (repo_root / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in licence and "Version 2.0, January 2004" in licence
    assert "END OF TERMS AND CONDITIONS" in licence
    changelog = (repo_root / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in changelog
    contributing = (repo_root / "CONTRIBUTING.md").read_text(encoding="utf-8")
    for topic in ("th-ext lock add", 'status = "draft"', "make test", "ruff"):
        assert topic in contributing
