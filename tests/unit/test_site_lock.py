"""requirements/site.txt, the hash-pinned packages of the site build, is current and complete.

``make pages-subtree`` (and so the pages-subtree action) installs only from this file, with
``--require-hashes``. It must be made again (``make lock-deps``) whenever pyproject.toml's
dependencies, ``site`` extra or build requirements change: its recorded inputs digest says
whether it was, every direct requirement must be pinned to a version it allows, and every pin
must carry hashes. Whether the pins install together is checked by the action's simulated run.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "requirements" / "site.txt"
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s\\;]+)", re.MULTILINE)


def _inputs_digest(pyproject: Path) -> str:
    process = subprocess.run(
        [sys.executable, str(ROOT / "scripts/lock_deps.py"), "--inputs", "--pyproject", pyproject],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return process.stdout.strip()


def _recorded_digest() -> str:
    match = re.search(r"^# inputs sha256: ([0-9a-f]{64})$", LOCK.read_text(), re.MULTILINE)
    assert match is not None, "requirements/site.txt records no inputs digest"
    return match.group(1)


def _pins() -> dict[str, str]:
    return {canonicalize_name(name): version for name, version in _PIN.findall(LOCK.read_text())}


def test_the_lock_was_made_from_the_current_requirements() -> None:
    assert _recorded_digest() == _inputs_digest(ROOT / "pyproject.toml"), (
        "pyproject.toml's requirements changed: run `make lock-deps` and commit"
        " requirements/site.txt"
    )


def test_a_changed_requirement_changes_the_inputs_digest(tmp_path: Path) -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    changed = text.replace('"mkdocs-material>=9.5,<10"', '"mkdocs-material>=9.6,<10"')
    assert changed != text
    (tmp_path / "pyproject.toml").write_text(changed, encoding="utf-8")
    assert _inputs_digest(tmp_path / "pyproject.toml") != _recorded_digest()


def _direct_requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    lines = [
        *project["project"]["dependencies"],
        *project["project"]["optional-dependencies"]["site"],
        *project["build-system"]["requires"],
    ]
    return [Requirement(line) for line in lines]


@pytest.mark.parametrize("requirement", _direct_requirements(), ids=str)
def test_every_direct_requirement_is_pinned_to_a_version_it_allows(
    requirement: Requirement,
) -> None:
    pins = _pins()
    name = canonicalize_name(requirement.name)
    assert name in pins, f"{requirement.name} is not pinned in requirements/site.txt"
    assert requirement.specifier.contains(pins[name], prereleases=True), (
        f"{requirement.name}=={pins[name]} does not satisfy {requirement}"
    )


def test_every_pin_is_exact_and_carries_its_hashes() -> None:
    blocks = re.split(r"\n(?=[A-Za-z0-9])", LOCK.read_text().split("\n", 4)[-1])
    entries = [block for block in blocks if block.strip() and not block.startswith("#")]
    assert len(entries) == len(_pins()) >= 20
    for entry in entries:
        first = entry.splitlines()[0]
        assert _PIN.match(first), f"not an exact pin: {first}"
        assert re.search(r"--hash=sha256:[0-9a-f]{64}", entry), f"no hash: {first}"
    assert "index-url" not in LOCK.read_text()
    assert "find-links" not in LOCK.read_text()
