"""Every install line the project gives works as written on a fresh machine.

Until the first release, th-ext is installed from its Git repository, whose one real path is
``pyproject.toml``'s ``Source`` URL: every file of the repository that names a repository of
the same owner to install from (a ``git+`` URL, a pre-commit ``repo:``, an action's ``uses:``,
a checkout's ``repository:``) must name that path. No line pins a tag (none exists): ``rev:``
and ``@`` take ``<commit-sha>``, which the docs explain, or ``main``. And the README's ``pip``
line, pointed at a clone of this repository, installs a working th-ext into a fresh venv.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.slow

SOURCE = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["urls"]["Source"]
OWNER, NAME = SOURCE.removeprefix("https://github.com/").split("/")
_REFERENCES = (
    re.compile(r"github\.com[/:]([\w.-]+)/([\w.-]+?)(?:\.git)?(?=[/@\"'\s#)\]]|$)"),
    re.compile(r"\buses:\s*([\w.-]+)/([\w.-]+?)(?=[/@\s])"),
    re.compile(r"\brepository:\s*([\w.-]+)/([\w.-]+)"),
)
_SKIPPED = ("package-lock.json", ".webp", ".png", ".svg")
_DOCS = ("README.md", "CONTRIBUTING.md", ".pre-commit-hooks.yaml", "site/", "examples/")
_PIN = re.compile(r"(?:^[\s#]*rev:\s*|th-ext(?:/\.github/actions/[\w-]+)?@)(?P<ref>[^\s\"'#`]+)")
_EXTRAS = r"(?:\[[\w,]+\])?"
_BARE_PIP = re.compile(
    rf"\bpip install (?:th-ext{_EXTRAS}(?=\s|$)|'th-ext{_EXTRAS}'|\"th-ext{_EXTRAS}\")"
)
_SHA = re.compile(r"[0-9a-f]{40}")


def _tracked_text_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO_ROOT, capture_output=True, check=True, timeout=60
    ).stdout.decode()
    files = [REPO_ROOT / name for name in listed.split("\0") if name]
    return [f for f in files if f.is_file() and not f.name.endswith(_SKIPPED)]


def other_paths(text: str) -> list[str]:
    """The repositories of this project's owner named in ``text`` other than its own."""
    found: list[str] = []
    for pattern in _REFERENCES:
        for owner, name in pattern.findall(text):
            if owner == OWNER and name != NAME and not name.endswith(".github.io"):
                found.append(f"{owner}/{name}")
    return found


def test_a_wrong_path_is_found() -> None:
    wrong = f"{OWNER}/tiny-harness"
    assert other_paths(f"  - repo: https://github.com/{wrong}\n") == [wrong]
    assert other_paths(f"      - uses: {wrong}/.github/actions/pages-subtree@main\n") == [wrong]
    assert other_paths(f'pip install "th-ext @ git+https://github.com/{wrong}.git"') == [wrong]
    assert other_paths(f"          repository: {wrong}\n") == [wrong]
    assert other_paths(f"  - repo: {SOURCE}\n    rev: <commit-sha>\n") == []


def test_every_file_names_this_repository_by_its_one_path() -> None:
    found = {
        path.relative_to(REPO_ROOT).as_posix(): other_paths(text)
        for path in _tracked_text_files()
        for text in [path.read_text(encoding="utf-8", errors="replace")]
        if other_paths(text)
    }
    assert found == {}, f"other paths than {OWNER}/{NAME}: {found}"


def _doc_files() -> list[Path]:
    return [
        path
        for path in _tracked_text_files()
        if path.relative_to(REPO_ROOT).as_posix().startswith(_DOCS) and path.suffix != ".py"
    ]


def test_no_install_line_names_a_tag_or_a_release_that_does_not_exist() -> None:
    problems: list[str] = []
    for path in _doc_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            where = f"{path.relative_to(REPO_ROOT)}:{number}: {line.strip()}"
            for match in _PIN.finditer(line):
                ref = match.group("ref")
                if ref not in ("<commit-sha>", "main") and not _SHA.fullmatch(ref):
                    problems.append(where)
            if _BARE_PIP.search(line):
                problems.append(where)
    assert not problems, "install lines that fail today:\n" + "\n".join(problems)
    assert _PIN.search("    rev: v0.1.0") and _BARE_PIP.search("pip install 'th-ext[demo]'")


def test_the_readme_and_the_hook_file_agree() -> None:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("```yaml\nrepos:", 1)[1].split("```")[0]
    config = yaml.safe_load("repos:" + block)
    (entry,) = config["repos"]
    assert entry["repo"] == SOURCE
    assert entry["rev"] == "<commit-sha>"
    assert "`<commit-sha>` stands for the full SHA of a commit of this repository" in readme
    hooks = (REPO_ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    assert [hook["id"] for hook in entry["hooks"]] == [h["id"] for h in yaml.safe_load(hooks)]
    assert f"#     - repo: {SOURCE}\n" in hooks


def test_the_readmes_pip_line_installs_th_ext_from_a_clone(tmp_path: Path) -> None:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("install it from the Git repository:", 1)[1].split("```")[1]
    line = block.splitlines()[1].split("#")[0].strip()
    assert line == f'pip install "th-ext @ git+{SOURCE}"'
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(REPO_ROOT), str(clone)], check=True, timeout=120)
    requirement = line.removeprefix("pip install ").strip('"').replace(SOURCE, clone.as_uri())
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True, timeout=120)
    # The fresh environment has no pip of its own (seeding one takes longer than the install).
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", venv / "bin/python", "install", "-q",
         "--disable-pip-version-check", requirement],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert install.returncode == 0, install.stdout + install.stderr
    schema = subprocess.run(
        [venv / "bin/th-ext", "schema", "commands/v1"],
        cwd=tmp_path, capture_output=True, timeout=60, check=False,
    )  # fmt: skip
    assert schema.returncode == 0, schema.stderr
    assert schema.stdout == (REPO_ROOT / "extensions/commands/v1/schema.json").read_bytes()
