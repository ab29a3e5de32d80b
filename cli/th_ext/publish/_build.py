"""Whole builds on top of the generation step: the Zensical site and the Pages subtree.

Each stages a plugin-free project (``_stage``), runs the generator on it in a subprocess, as
a user would, and, for the subtree, installs the result into the destination. The generators
are optional dependencies: ``th-ext[site]`` for MkDocs, ``th-ext[zensical]`` for Zensical.
A build dates its pages (the sitemap's ``lastmod``, the gzip header) by the project's last
commit, through ``SOURCE_DATE_EPOCH``, so that two builds of one commit are the same bytes.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from th_ext._exceptions import PublishError, SiteBuildError
from th_ext.publish._host_fonts import write_host_fonts
from th_ext.publish._host_schemas import read_host_schemas
from th_ext.publish._stage import stage_project, stage_subtree
from th_ext.publish._subtree import (
    SubtreeResult,
    check_destination,
    host_page_at,
    install_subtree,
)
from th_ext.publish._versions import build_versions

__all__ = ["build_subtree", "build_zensical", "run_generator"]

_EXTRA = {"mkdocs": "site", "zensical": "zensical"}


def source_date_epoch(project: Path) -> str | None:
    """``SOURCE_DATE_EPOCH`` when set, else the time of the last commit of the Git checkout
    that holds ``project``, else None (no Git: the build is dated by the clock)."""
    if os.environ.get("SOURCE_DATE_EPOCH"):
        return os.environ["SOURCE_DATE_EPOCH"]
    git = shutil.which("git")
    if git is None:
        return None
    try:
        process = subprocess.run(
            [git, "-C", str(project), "log", "-1", "--format=%ct"],
            capture_output=True, text=True, timeout=30, check=False,
        )  # fmt: skip
    except OSError:
        return None
    stamp = process.stdout.strip()
    return stamp if process.returncode == 0 and stamp.isdigit() else None


def run_generator(generator: str, config: Path, date_from: Path | None = None) -> str:
    """Run ``generator`` (``mkdocs`` or ``zensical``) ``build --strict`` on ``config``.

    Returns what it printed; a failed build raises ``PublishError`` with its last lines.
    ``date_from`` is the project whose last commit dates the build.
    """
    if importlib.util.find_spec(generator) is None:
        extra = _EXTRA[generator]
        raise SiteBuildError(
            f"{generator} is not installed:"
            f" pip install 'th-ext[{extra}] @ git+https://github.com/madarauchiha-314/th-ext'"
        )
    command = [sys.executable, "-m", generator, "build", "--strict", "-f", str(config)]
    if generator == "mkdocs":
        command.append("--quiet")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "NO_COLOR": "1"}
    epoch = source_date_epoch(date_from) if date_from is not None else None
    if epoch is not None:
        env["SOURCE_DATE_EPOCH"] = epoch
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


def build_subtree(
    config_file: Path, dest: Path, work_dir: Path, host_schemas: Path | None = None
) -> SubtreeResult:
    """Build the extensions' subtree with MkDocs in ``work_dir``, then install it into
    ``dest`` (under ``a2a/ext/``, or the plugin's ``index_dir``).

    ``host_schemas`` is the host's schema folder (``docs/a2a/ext``): each schema whose
    ``$id`` lies under the prefix is served at its ``$id``, and gets a page generated from it
    when ``dest`` has none at its URI. Every check runs before anything is written.
    """
    from th_ext.catalog._reader import discover
    from th_ext.publish._project import ProjectSettings, load_config

    settings = ProjectSettings.from_config(config_file, load_config(config_file))
    check_destination(dest, settings.index_dir)  # a refusal costs no build
    host = None
    pages: dict[str, str | None] = {}
    forwards: set[str] = set()
    if host_schemas is not None:
        prefix_url = settings.site_url + settings.index_dir + "/"
        host = read_host_schemas(host_schemas, prefix_url, discover(settings.extensions_dir))
        for schema in host.serve:
            page = host_page_at(dest, schema.folder, settings.index_dir)
            if page is None:
                pages[schema.folder] = None  # a page generated from the schema
            elif page.endswith(f"/{schema.folder}.html"):  # the folder would hide it
                pages[schema.folder] = page.removeprefix(settings.index_dir + "/")
                forwards.add(f"{settings.index_dir}/{schema.folder}/index.html")
    work_dir.mkdir(parents=True, exist_ok=True)
    config = work_dir / "subtree.yml"
    site_dir = work_dir / "subtree"
    stage_subtree(config_file, config, site_dir, host, pages)
    run_generator("mkdocs", config, date_from=config_file.resolve().parent)
    write_host_fonts(dest, site_dir)
    result = install_subtree(
        site_dir, dest, settings.index_dir, frozenset(forwards), versions=build_versions()
    )
    return replace(result, skipped=host.skipped) if host is not None else result
