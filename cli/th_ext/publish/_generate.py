"""The generation step as files on disk, for any site generator to render.

``plan_site`` makes the pages, schemas, examples and catalog in memory; ``write_plan`` puts
them in a folder, the way mkdocstrings-style tools write Markdown for a generator that runs no
plugin (Zensical, or MkDocs without ``th-ext``). ``expand_nav`` gives the navigation entries
that the generated pages need.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from th_ext._exceptions import PublishError
from th_ext.publish._site_plan import NavEntry, SitePlan, plan_site

__all__ = ["expand_nav", "generate", "write_plan"]


def write_plan(plan: SitePlan, out_dir: Path, *, overwrite: bool = True) -> list[Path]:
    """Write every planned file under ``out_dir``; return the paths written, in plan order.

    With ``overwrite=False`` an existing file is an error, raised before anything is written:
    a generated page must not hide a hand-written one.
    """
    if not overwrite:
        for generated in plan.files:
            if (out_dir / generated.path).exists():
                raise PublishError(
                    f"{generated.path} is generated from the extensions; remove it from {out_dir}"
                )
    written: list[Path] = []
    for generated in plan.files:
        target = out_dir / generated.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(generated.content)
        written.append(target)
    return written


def generate(
    site_url: str,
    extensions_dir: Path,
    out_dir: Path,
    *,
    index_dir: str = "a2a/ext",
    check_published: bool = True,
) -> SitePlan:
    """Check the extensions and write their pages, schemas, examples and catalog to ``out_dir``.

    Paths below ``out_dir`` are the paths in the site (``a2a/ext/commands/v1/index.md``).
    """
    plan = plan_site(site_url, extensions_dir, index_dir=index_dir, check_published=check_published)
    write_plan(plan, out_dir)
    return plan


def expand_nav(nav: list[Any], versions: Sequence[NavEntry], index_page: str) -> list[Any]:
    """``nav`` with the entry that points at ``index_page`` grown into the extensions section:
    the index first ("All extensions"), then one entry per version (``SitePlan.nav``)."""

    def expand(entry: Any) -> Any:
        if isinstance(entry, dict) and len(entry) == 1:
            ((title, target),) = entry.items()
            if target == index_page:
                pages: list[Any] = [{"All extensions": index_page}]
                pages += [{item.title: item.path} for item in versions]
                return {title: pages}
            if isinstance(target, list):
                return {title: [expand(child) for child in target]}
        return entry

    return [expand(entry) for entry in nav]
