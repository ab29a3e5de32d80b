"""Building the site for tests, in a subprocess as a user runs it: ``mkdocs build --strict``,
the Zensical build and the Pages subtree build (both through ``th-ext-publish``, as ``make``
runs them)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

__all__ = [
    "BuildResult",
    "build_pages_subtree",
    "build_site",
    "build_zensical_site",
    "copy_project_for_build",
]


class BuildResult:
    def __init__(self, process: subprocess.CompletedProcess[str], site_dir: Path) -> None:
        self.returncode = process.returncode
        self.output = process.stdout + process.stderr
        self.site_dir = site_dir


def build_site(project_dir: Path, site_dir: Path, *, strict: bool = True) -> BuildResult:
    """Run ``mkdocs build`` for the project in ``project_dir`` into ``site_dir``."""
    command = [sys.executable, "-m", "mkdocs", "build", "--site-dir", str(site_dir)]
    if strict:
        command.append("--strict")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    process = subprocess.run(
        command, cwd=project_dir, capture_output=True, text=True, env=env, timeout=300, check=False
    )
    return BuildResult(process, site_dir)


def _publish(project_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [str(Path(sys.executable).parent / "th-ext-publish"), *args],
        cwd=project_dir,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


def build_zensical_site(project_dir: Path, site_dir: Path) -> BuildResult:
    """``make site-zensical`` for the project in ``project_dir``, into ``site_dir``."""
    return BuildResult(_publish(project_dir, "zensical", "--site-dir", str(site_dir)), site_dir)


def build_pages_subtree(
    project_dir: Path, dest: Path, work_dir: Path, host_schemas: Path | None = None
) -> BuildResult:
    """``make pages-subtree DEST=dest [HOST_SCHEMAS=host_schemas]`` for the project in
    ``project_dir``."""
    extra = ["--host-schemas", str(host_schemas)] if host_schemas is not None else []
    process = _publish(
        project_dir, "subtree", "--dest", str(dest), "--work-dir", str(work_dir), *extra
    )
    return BuildResult(process, dest)


def copy_project_for_build(repo_root: Path, destination: Path) -> Path:
    """A copy of what the site build reads (mkdocs.yml, site/, extensions/), to break safely."""
    destination.mkdir(parents=True, exist_ok=True)
    shutil.copy2(repo_root / "mkdocs.yml", destination / "mkdocs.yml")
    shutil.copytree(repo_root / "site", destination / "site")
    shutil.copytree(repo_root / "extensions", destination / "extensions")
    return destination
