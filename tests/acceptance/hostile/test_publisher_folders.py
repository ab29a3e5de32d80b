"""The publisher stays in its folders: real folders with real symbolic links and a manifest
that lies. It reads only regular files inside the repository, writes and removes only regular
files inside ``DEST/a2a/ext``, and refuses (exit 2) before its first write."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from th_ext import CatalogError
from th_ext._exceptions import SubtreeConflictError
from th_ext.publish import MANIFEST_NAME, install_subtree, plan_site

REPO = Path(__file__).resolve().parents[3]
SITE_URL = "https://madarauchiha-314.github.io/tiny-harness/"


def _tree(root: Path) -> dict[str, str]:
    """Every entry under ``root``, links shown as links (never followed)."""
    found: dict[str, str] = {}
    for folder, dirs, names in os.walk(root):
        for name in [*dirs, *names]:
            path = Path(folder) / name
            key = path.relative_to(root).as_posix()
            if path.is_symlink():
                found[key] = "-> " + str(path.readlink())
            elif path.is_file():
                found[key] = hashlib.sha256(path.read_bytes()).hexdigest()
            else:
                found[key] = "dir"
    return found


@pytest.fixture
def built(tmp_path: Path) -> Path:
    root = tmp_path / "built"
    for relative in ("index.html", "index.json", "commands/v1/index.html", "assets/site.css"):
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(relative, encoding="utf-8")
    return root


@pytest.fixture
def host(tmp_path: Path) -> Path:
    root = tmp_path / "host"
    (root / "a2a").mkdir(parents=True)
    (root / "index.html").write_text("host home", encoding="utf-8")
    return root


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    root = tmp_path / "outside"
    (root / "deep").mkdir(parents=True)
    (root / "deep/outside.txt").write_text("not the publisher's", encoding="utf-8")
    return root


def _manifest(host: Path, files: dict[str, str]) -> None:
    path = host / "a2a/ext" / MANIFEST_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"generator": "th-ext", "files": files}), encoding="utf-8")


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _refused(built: Path, host: Path, outside: Path, match: str) -> None:
    before, before_outside = _tree(host), _tree(outside)
    with pytest.raises(SubtreeConflictError, match=match) as caught:
        install_subtree(built, host)
    assert "nothing was written" in str(caught.value)
    assert _tree(host) == before
    assert _tree(outside) == before_outside


@pytest.mark.parametrize(
    "entry",
    [
        "a2a/ext/../../../outside/deep/outside.txt",
        "../outside/deep/outside.txt",
        "{outside}/deep/outside.txt",  # absolute
        "index.html",  # the host's own page, outside a2a/ext
        "a2a/ext/./index.json",
        "a2a/ext//index.json",
        "a2a/ext\\..\\..\\index.html",
        f"a2a/ext/{MANIFEST_NAME}",
    ],
)
def test_a_manifest_entry_that_leaves_the_folder_is_refused(
    entry: str, built: Path, host: Path, outside: Path
) -> None:
    entry = entry.format(outside=outside)
    target = outside / "deep/outside.txt" if "outside" in entry else host / "index.html"
    _manifest(host, {entry: _sha(target)})  # the right sha256: only the path can stop it
    _refused(built, host, outside, "not a plain relative path inside a2a/ext")
    assert target.exists()


def test_the_ext_folder_linked_outside_is_refused(built: Path, host: Path, outside: Path) -> None:
    (host / "a2a/ext").symlink_to(outside, target_is_directory=True)
    _refused(built, host, outside, "a symbolic link")
    assert sorted(p.name for p in outside.iterdir()) == ["deep"]


@pytest.mark.parametrize(
    "link",
    [
        "a2a/ext/index.html",  # a file it writes
        f"a2a/ext/{MANIFEST_NAME}",  # its own manifest
        "a2a/ext/commands",  # a folder it writes into
        "a2a/ext/commands/v1",  # deeper
        "a2a/ext/commands/v1.html",  # a clean-URL page it checks
    ],
)
@pytest.mark.parametrize("dangling", [True, False])
def test_a_link_in_the_destination_is_refused_dangling_or_not(
    link: str, dangling: bool, built: Path, host: Path, outside: Path
) -> None:
    (host / link).parent.mkdir(parents=True, exist_ok=True)
    target = outside / ("missing" if dangling else "deep")
    (host / link).symlink_to(target)
    _refused(built, host, outside, "symbolic link")
    assert not (outside / "missing").exists()


def test_an_owned_file_replaced_by_a_link_is_not_removed_through_it(
    built: Path, host: Path, outside: Path
) -> None:
    install_subtree(built, host)
    stale = host / "a2a/ext/old/page.html"
    stale.parent.mkdir()
    stale.symlink_to(outside / "deep/outside.txt")
    manifest = json.loads((host / "a2a/ext" / MANIFEST_NAME).read_text(encoding="utf-8"))
    manifest["files"]["a2a/ext/old/page.html"] = _sha(outside / "deep/outside.txt")
    _manifest(host, manifest["files"])
    _refused(built, host, outside, "symbolic link")


def test_its_own_stale_files_are_still_removed(built: Path, host: Path, outside: Path) -> None:
    install_subtree(built, host)
    (built / "assets/site.css").unlink()
    result = install_subtree(built, host)
    assert result.removed == ("a2a/ext/assets/site.css",)
    assert not (host / "a2a/ext/assets").exists()
    assert (host / "index.html").read_text(encoding="utf-8") == "host home"


def _publish(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    command = [str(Path(sys.executable).parent / "th-ext-publish"), *args]
    return subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, timeout=120, check=False
    )


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy2(REPO / "mkdocs.yml", project / "mkdocs.yml")
    shutil.copytree(REPO / "site", project / "site")
    shutil.copytree(REPO / "extensions", project / "extensions")
    return project


def test_the_command_refuses_a_linked_destination_before_building(
    tmp_path: Path, host: Path, outside: Path
) -> None:
    project = _project(tmp_path)
    (host / "a2a/ext").symlink_to(outside, target_is_directory=True)
    work = tmp_path / "work"
    process = _publish("subtree", "--dest", str(host), "--work-dir", str(work), cwd=project)
    assert process.returncode == 2, process.stderr
    assert process.stdout == ""
    assert len(process.stderr.strip().splitlines()) == 1
    assert "symbolic link" in process.stderr and "Traceback" not in process.stderr
    assert not work.exists(), "a refusal costs no build"
    assert sorted(p.name for p in outside.iterdir()) == ["deep"]


def test_the_command_refuses_a_lying_manifest_with_exit_2(
    tmp_path: Path, host: Path, outside: Path
) -> None:
    project = _project(tmp_path)
    _manifest(host, {"../outside/deep/outside.txt": _sha(outside / "deep/outside.txt")})
    work = str(tmp_path / "w")
    process = _publish("subtree", "--dest", str(host), "--work-dir", work, cwd=project)
    assert process.returncode == 2, process.stderr
    assert "not a plain relative path" in process.stderr
    assert (outside / "deep/outside.txt").exists()


def _link_example(extensions: Path, secret: Path) -> None:
    example = extensions / "commands/v1/examples/card.json"
    example.unlink()
    example.symlink_to(secret)


def _link_version(extensions: Path, secret: Path) -> None:
    version = extensions / "commands/v1"
    moved = secret.parent / "v1-elsewhere"
    shutil.move(version, moved)
    version.symlink_to(moved, target_is_directory=True)


def _link_spec(extensions: Path, secret: Path) -> None:
    spec = extensions / "commands/v1/spec.md"
    spec.unlink()
    spec.symlink_to(secret)


def _link_examples_folder(extensions: Path, secret: Path) -> None:
    folder = extensions / "commands/v1/examples"
    moved = secret.parent / "examples-elsewhere"
    shutil.move(folder, moved)
    folder.symlink_to(moved, target_is_directory=True)


def _link_requirements(extensions: Path, secret: Path) -> None:
    requirements = extensions / "commands/v1/requirements.toml"
    secret.write_text(requirements.read_text(encoding="utf-8"), encoding="utf-8")
    requirements.unlink()
    requirements.symlink_to(secret)


@pytest.mark.parametrize(
    "plant",
    [_link_example, _link_version, _link_spec, _link_examples_folder, _link_requirements],
)
def test_the_build_reads_no_file_through_a_link_in_the_repository(
    plant: object, tmp_path: Path, extensions_dir: Path
) -> None:
    extensions = tmp_path / "extensions"
    shutil.copytree(extensions_dir, extensions)
    secret = tmp_path / "private/id_ed25519"
    secret.parent.mkdir()
    secret.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n", encoding="utf-8")
    plant(extensions, secret)  # type: ignore[operator]
    with pytest.raises(CatalogError, match="symbolic link"):
        plan_site(SITE_URL, extensions)


def test_generate_refuses_a_linked_example_with_one_line_and_exit_2(tmp_path: Path) -> None:
    project = _project(tmp_path)
    secret = tmp_path / "id_ed25519"
    secret.write_text("PRIVATE KEY", encoding="utf-8")
    _link_example(project / "extensions", secret)
    out = tmp_path / "out"
    process = _publish("generate", "--out", str(out), cwd=project)
    assert process.returncode == 2, process.stderr
    assert "symbolic link" in process.stderr and len(process.stderr.strip().splitlines()) == 1
    assert not out.exists() or "PRIVATE KEY" not in "".join(
        p.read_text(encoding="utf-8") for p in out.rglob("*") if p.is_file()
    )


def test_a_link_in_the_site_docs_is_refused(tmp_path: Path, host: Path) -> None:
    project = _project(tmp_path)
    secret = tmp_path / "secret.css"
    secret.write_text("secret", encoding="utf-8")
    (project / "site/linked.css").symlink_to(secret)
    work = str(tmp_path / "w")
    process = _publish("subtree", "--dest", str(host), "--work-dir", work, cwd=project)
    assert process.returncode == 2, process.stderr
    assert "symbolic link" in process.stderr
    assert not (host / "a2a/ext").exists()
