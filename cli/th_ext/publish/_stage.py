"""A plugin-free copy of the site project, ready for any MkDocs-compatible generator.

``stage_project`` copies the docs folder, writes the generated pages, schemas, examples and
catalog into it, and writes a configuration without the ``th-ext`` plugin and with the
navigation already expanded: Zensical (which runs no MkDocs plugin) builds it as it is.
``stage_subtree`` stages only what is published under the extensions' folder (``a2a/ext/``),
rooted there, for a build that goes into another site's Pages artifact.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from th_ext._exceptions import SiteBuildError
from th_ext.catalog._family import EXTERNAL_FILE_NAME, read_external
from th_ext.publish._catalog_page import ServedSchema
from th_ext.publish._generate import expand_nav, write_plan
from th_ext.publish._host_page import forwarding_page, host_page_title, render_host_page
from th_ext.publish._host_schemas import HostSchemas
from th_ext.publish._links import rebase_links
from th_ext.publish._project import (
    ProjectSettings,
    dump_config,
    load_config,
    without_plugin,
)
from th_ext.publish._safe_tree import read_regular, regular_files, write_regular
from th_ext.publish._site_plan import NavEntry, SitePlan, plan_site

__all__ = ["stage_project", "stage_subtree"]


def _fresh_docs(config_out: Path, site_dir: Path) -> tuple[Path, Path]:
    """The staged docs folder beside ``config_out`` (emptied), and the project root."""
    root = config_out.resolve().parent
    if not site_dir.resolve().is_relative_to(root):
        raise SiteBuildError(f"the site folder {site_dir} must be inside {root}")
    docs = root / f"{config_out.stem}-docs"
    if docs.exists():
        shutil.rmtree(docs)
    docs.mkdir(parents=True)
    return docs, root


def _derived_config(
    config: dict[str, Any],
    settings: ProjectSettings,
    *,
    root: Path,
    docs: Path,
    site_dir: Path,
    nav: list[Any] | None,
) -> dict[str, Any]:
    staged = dict(config)
    staged["docs_dir"] = os.path.relpath(docs, root)
    staged["site_dir"] = os.path.relpath(site_dir.resolve(), root)
    staged["plugins"] = without_plugin(list(config.get("plugins") or []))
    theme = config.get("theme")
    if isinstance(theme, dict) and theme.get("custom_dir"):
        custom = settings.root / str(theme["custom_dir"])
        staged["theme"] = {**theme, "custom_dir": os.path.relpath(custom, root)}
    if nav is not None:
        staged["nav"] = nav
    return staged


def stage_project(config_file: Path, config_out: Path, site_dir: Path) -> SitePlan:
    """Write ``config_out`` and its docs folder (``<stem>-docs`` beside it) for a build into
    ``site_dir``: the whole site, generated pages included, with no plugin to run."""
    config = load_config(config_file)
    settings = ProjectSettings.from_config(config_file, config)
    plan = plan_site(
        settings.site_url,
        settings.extensions_dir,
        index_dir=settings.index_dir,
        check_published=settings.check_published,
    )
    docs, root = _fresh_docs(config_out, site_dir)
    for relative in regular_files(settings.docs_dir):  # a link in the docs is refused
        write_regular(docs, relative, read_regular(settings.docs_dir, relative))
    write_plan(plan, docs, overwrite=False)
    nav = config.get("nav")
    expanded = expand_nav(nav, plan.nav, f"{settings.index_dir}/index.md") if nav else None
    dump_config(
        _derived_config(config, settings, root=root, docs=docs, site_dir=site_dir, nav=expanded),
        config_out,
    )
    return plan


def _subtree_nav(nav: list[Any], moved: Any) -> list[Any]:
    """``nav`` with the pages that move into the subtree, at their new paths; others dropped."""
    kept: list[Any] = []
    for entry in nav:
        title, target = next(iter(entry.items())) if isinstance(entry, dict) else (None, entry)
        if isinstance(target, list):
            children = _subtree_nav(target, moved)
            if children:
                kept.append({title: children})
            continue
        new = moved(str(target))
        if new is not None:
            kept.append({title: new} if title is not None else new)
    return kept


def _host_files(
    settings: ProjectSettings, host: HostSchemas, pages: Mapping[str, str | None]
) -> tuple[list[tuple[str, bytes]], list[NavEntry], dict[str, ServedSchema]]:
    """The host schemas to serve and the pages to generate or forward for them, as staged
    files (path in the subtree, content), their navigation entries and the catalog's view."""
    external = read_external(settings.extensions_dir / EXTERNAL_FILE_NAME)
    owner = external[0].publisher if external else "the host"
    folder = external[0].schemas_folder if external else "docs/a2a/ext"
    by_uri = {entry.uri: entry for entry in external}
    files: list[tuple[str, bytes]] = []
    nav: list[NavEntry] = []
    served: dict[str, ServedSchema] = {}
    for schema in host.serve:
        files.append((schema.path, schema.file.content))
        generated = schema.folder in pages and pages[schema.folder] is None
        host_page = pages.get(schema.folder)
        if host_page is not None:
            forward = forwarding_page(host_page_title(schema), schema.folder, host_page)
            files.append((f"{schema.folder}/index.html", forward))
        if generated:
            page = render_host_page(schema, by_uri.get(schema.uri), owner, folder)
            files.append((f"{schema.folder}/index.md", page.encode("utf-8")))
            nav.append(NavEntry(title=host_page_title(schema), path=f"{schema.folder}/index.md"))
        served[schema.uri] = ServedSchema(
            uri=schema.uri,
            folder=schema.folder,
            sha256=schema.file.sha256,
            page_generated=generated,
        )
    return files, nav, served


def stage_subtree(
    config_file: Path,
    config_out: Path,
    site_dir: Path,
    host: HostSchemas | None = None,
    host_pages: Mapping[str, str | None] | None = None,
) -> SitePlan:
    """Stage the extensions' folder of the site as a site of its own, rooted at its URL.

    It holds the extension pages, schemas, examples and catalog, the docs folders named by
    the plugin's ``subtree_pages`` (the th-ext reference), and the docs' non-page files
    (stylesheets, scripts). Links are rebased for the new root; a link to a page left out
    becomes absolute. ``host`` are the host's schemas to serve at their ``$id``;
    ``host_pages`` maps a schema's folder (``status/v1``) to None for a page generated from
    its schema, or to the host's clean-URL page (``task/v1.html``) that a forwarding page in
    the folder leads to.
    """
    config = load_config(config_file)
    settings = ProjectSettings.from_config(config_file, config)
    index_dir, site_url = settings.index_dir, settings.site_url
    if not index_dir:
        raise SiteBuildError(f"{config_file}: the extensions' index_dir is the whole site")
    sub_url = site_url + index_dir + "/"
    host_files, host_nav, served = (
        _host_files(settings, host, host_pages or {}) if host is not None else ([], [], {})
    )
    plan = plan_site(
        sub_url,
        settings.extensions_dir,
        index_dir="",
        check_published=settings.check_published,
        served=served,
    )
    docs, root = _fresh_docs(config_out, site_dir)

    def moved(path: str) -> str | None:
        if path.startswith(index_dir + "/"):
            return path[len(index_dir) + 1 :]
        if path.split("/", 1)[0] in settings.subtree_pages:
            return path
        return None

    def put(old: str, new: str, content: bytes) -> None:
        target = docs / new
        if target.exists():
            raise SiteBuildError(f"{old} is generated from the extensions; remove it from docs")
        target.parent.mkdir(parents=True, exist_ok=True)
        if new.endswith(".md"):
            text = rebase_links(content.decode("utf-8"), old, new, moved, site_url)
            content = text.encode("utf-8")
        target.write_bytes(content)

    for generated in plan.files:
        put(f"{index_dir}/{generated.path}", generated.path, generated.content)
    for path, content in host_files:
        target = docs / path
        if target.exists():
            raise SiteBuildError(f"the host schema for {index_dir}/{path} clashes with a page here")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
    for relative in regular_files(settings.docs_dir):  # a link in the docs is refused
        new = moved(relative)
        # Pages go only where they move to; other files (stylesheets, scripts) come along.
        if new is not None or not relative.endswith(".md"):
            put(relative, new or relative, read_regular(settings.docs_dir, relative))
    nav = config.get("nav")
    sub_nav = None
    if nav:
        versions = [
            NavEntry(title=e.title, path=f"{index_dir}/{e.path}") for e in [*plan.nav, *host_nav]
        ]
        sub_nav = _subtree_nav(expand_nav(nav, versions, f"{index_dir}/index.md"), moved)
    staged = _derived_config(config, settings, root=root, docs=docs, site_dir=site_dir, nav=sub_nav)
    staged["site_url"] = sub_url
    dump_config(staged, config_out)
    return plan
