"""Whole builds on top of the generation step: the Zensical site and the Pages subtree.

Each stages a plugin-free project (``_stage``), runs the generator on it in a subprocess, as
a user would, and, for the subtree, installs the result into the destination. The generators
are optional dependencies: ``th-ext[site]`` for MkDocs, ``th-ext[zensical]`` for Zensical.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

from th_ext._exceptions import PublishError, SiteBuildError
from th_ext.publish._stage import stage_project, stage_subtree
from th_ext.publish._subtree import SubtreeResult, check_destination, install_subtree

__all__ = ["build_subtree", "build_zensical", "run_generator"]

_EXTRA = {"mkdocs": "site", "zensical": "zensical"}


def run_generator(generator: str, config: Path) -> str:
    """Run ``generator`` (``mkdocs`` or ``zensical``) ``build --strict`` on ``config``.

    Returns what it printed; a failed build raises ``PublishError`` with its last lines.
    """
    if importlib.util.find_spec(generator) is None:
        extra = _EXTRA[generator]
        raise SiteBuildError(f"{generator} is not installed: pip install 'th-ext[{extra}]'")
    command = [sys.executable, "-m", generator, "build", "--strict", "-f", str(config)]
    if generator == "mkdocs":
        command.append("--quiet")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "NO_COLOR": "1"}
    process = subprocess.run(
        command, capture_output=True, text=True, env=env, timeout=600, check=False
    )
    output = process.stdout + process.stderr
    if process.returncode != 0:
        tail = " | ".join(line.strip() for line in output.strip().splitlines()[-5:])
        raise PublishError(f"{generator} build failed (exit {process.returncode}): {tail}")
    return output


def build_zensical(config_file: Path, site_dir: Path) -> Path:
    """Build the whole site with Zensical into ``site_dir``; return the staged config.

    The staged project (``zensical.yml`` and ``zensical-docs/``) is written in the folder
    that holds ``site_dir``, since Zensical keeps its output inside the project.
    """
    config = site_dir.resolve().parent / "zensical.yml"
    stage_project(config_file, config, site_dir)
    if site_dir.is_dir():  # as MkDocs does: no page of an earlier build survives
        shutil.rmtree(site_dir)
    run_generator("zensical", config)
    return config


def build_subtree(config_file: Path, dest: Path, work_dir: Path) -> SubtreeResult:
    """Build the extensions' subtree with MkDocs in ``work_dir``, then install it into
    ``dest`` (under ``a2a/ext/``, or the plugin's ``index_dir``)."""
    from th_ext.publish._project import ProjectSettings, load_config

    settings = ProjectSettings.from_config(config_file, load_config(config_file))
    check_destination(dest, settings.index_dir)  # a refusal costs no build
    work_dir.mkdir(parents=True, exist_ok=True)
    config = work_dir / "subtree.yml"
    site_dir = work_dir / "subtree"
    stage_subtree(config_file, config, site_dir)
    run_generator("mkdocs", config)
    return install_subtree(site_dir, dest, settings.index_dir)
