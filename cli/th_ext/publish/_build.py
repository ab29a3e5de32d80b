"""Whole builds on top of the generation step: the Zensical site and the Pages subtree."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from dataclasses import replace
from importlib import metadata
from pathlib import Path

from th_ext._exceptions import PublishError, SiteBuildError
from th_ext.catalog._reader import discover
from th_ext.publish._host import read_host_schemas
from th_ext.publish._stage import ProjectSettings, load_config, stage_project, stage_subtree
from th_ext.publish._subtree import (
    SubtreeResult,
    check_destination,
    host_page_at,
    install_subtree,
)

__all__ = [
    "HOST_FONTS_CSS",
    "build_subtree",
    "build_zensical",
    "host_font_rules",
    "run_generator",
    "write_host_fonts",
]


# The versions of the packages a site build ran with, recorded in the subtree's manifest.
#
# A deployed subtree should say what made it: th-ext and every distribution its ``site`` extra
# pulls in (MkDocs, Material, Markdown, Pygments...), so that a page that changed between two
# deployments of one commit can be traced to the package that changed. The list is walked from
# th-ext's installed metadata, so it holds exactly what the build could import.


def _canonical(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def build_versions() -> dict[str, str]:
    """``{distribution: version}`` for th-ext with its ``site`` extra and all they require,
    as installed; distributions that are not installed (another platform's) are left out."""
    # packaging comes with the site extra (MkDocs requires it), not with th-ext itself
    from packaging.requirements import Requirement

    found: dict[str, str] = {}
    pending: list[tuple[str, tuple[str, ...]]] = [("th-ext", ("site",))]
    while pending:
        name, wanted = pending.pop()
        key = _canonical(name)
        if key in found:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        found[key] = dist.version
        for line in dist.requires or []:
            requirement = Requirement(line)
            marker = requirement.marker
            if marker is not None and not any(
                marker.evaluate({"extra": extra}) for extra in (*wanted, "")
            ):
                continue
            pending.append((requirement.name, tuple(requirement.extras)))
    return dict(sorted(found.items()))


# The host's own web font for the subtree's pages, so that both sides of the site read alike.
#
# The extension pages ask for the VitePress default theme's font stack, whose first family,
# Inter, VitePress ships inside the host's build (``assets/inter-*.woff2``, declared by
# ``@font-face`` rules in the host's ``assets/*.css``). A reader without Inter installed would
# see it on the host's pages and a system font on ours. The subtree build copies those
# ``@font-face`` rules, as they are, into the subtree's ``host-fonts.css``: the fonts are then
# the host's own files, on the same origin. Only rules for ``Inter`` whose every ``url()`` is a
# path on the same site are taken; nothing from another origin is ever loaded.

HOST_FONTS_CSS = "assets/stylesheets/host-fonts.css"
"""The subtree's stylesheet for the host's fonts (an empty rule set when the host has none)."""
_FAMILY = "Inter"
_RULE = re.compile(r"@font-face\s*\{[^{}]*\}")
_URL = re.compile(r"url\(\s*([^)]*)\)")
_SAFE_PATH = re.compile(r"/[A-Za-z0-9._~-][A-Za-z0-9._~/-]*\.woff2?")  # not //host/...
_MAX_CSS_BYTES = 4 * 1024 * 1024


def _is_inter(rule: str) -> bool:
    match = re.search(r"font-family\s*:\s*([^;}]*)", rule)
    return match is not None and match.group(1).strip().strip("'\"") == _FAMILY


def host_font_rules(css: str) -> list[str]:
    """The ``@font-face`` rules for Inter in ``css`` whose fonts are root-relative paths."""
    rules: list[str] = []
    for rule in _RULE.findall(css):
        if not _is_inter(rule):
            continue
        urls = [url.strip().strip("'\"") for url in _URL.findall(rule)]
        if urls and all(_SAFE_PATH.fullmatch(url) for url in urls):
            rules.append(rule)
    return rules


def write_host_fonts(dest: Path, built: Path) -> int:
    """Write the Inter ``@font-face`` rules of the host's stylesheets (``dest/assets/*.css``,
    regular files only) into ``built``'s host-fonts stylesheet; return how many."""
    rules: dict[str, None] = {}  # each rule once, in the order found
    assets = dest / "assets"
    if assets.is_dir() and not assets.is_symlink():
        for css in sorted(assets.glob("*.css")):
            if css.is_symlink() or not css.is_file() or css.stat().st_size > _MAX_CSS_BYTES:
                continue
            css_text = css.read_text(encoding="utf-8", errors="replace")
            rules.update(dict.fromkeys(host_font_rules(css_text)))
    target = built / HOST_FONTS_CSS
    target.parent.mkdir(parents=True, exist_ok=True)
    header = "/* The host's Inter, from its own build (th-ext-publish subtree). */\n"
    target.write_text(header + "".join(rule + "\n" for rule in rules), encoding="utf-8")
    return len(rules)


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

    It runs in a subprocess, as a user would run it. Returns what it printed; a failed build
    raises ``PublishError`` with its last lines. ``date_from`` is the project whose last commit
    dates the build (sitemap ``lastmod``, gzip header), so two builds of one commit are the
    same bytes.
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
