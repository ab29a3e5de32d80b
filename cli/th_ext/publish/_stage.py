"""A plugin-free copy of the site project for any MkDocs-compatible generator: ``mkdocs.yml``
read and written back, the generated files added, links rebased for the subtree."""

from __future__ import annotations

import os
import posixpath
import re
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from th_ext._exceptions import SiteBuildError, os_reason
from th_ext.catalog._family import EXTERNAL_FILE_NAME, read_external
from th_ext.publish._catalog_page import ServedSchema
from th_ext.publish._host import HostSchemas, forwarding_page, host_page_title, render_host_page
from th_ext.publish._site_plan import NavEntry, SitePlan, expand_nav, plan_site, write_plan
from th_ext.publish._subtree import read_regular, regular_files, write_regular

__all__ = [
    "ProjectSettings",
    "PythonTag",
    "load_config",
    "page_url",
    "rebase_links",
    "stage_project",
    "stage_subtree",
]


# Reading and writing an MkDocs project's ``mkdocs.yml`` for builds that run no ``th-ext`` plugin.
#
# The file carries ``!!python/name:`` tags (Markdown extension hooks) that only MkDocs resolves;
# here they are kept as ``PythonTag`` values and written back unchanged, so that a derived
# configuration is the same project, only with the generated pages in its docs folder.
# PyYAML comes with the ``site`` extra (MkDocs and Zensical both read YAML with it).

PLUGIN_NAME = "th-ext"
_PYTHON_TAG = "tag:yaml.org,2002:python/"


@dataclass(frozen=True)
class PythonTag:
    """A ``!!python/<kind>:<suffix>`` scalar, kept as written."""

    kind: str
    value: str


@dataclass(frozen=True)
class ProjectSettings:
    """What the generation step needs from ``mkdocs.yml`` and its ``th-ext`` plugin entry."""

    root: Path
    site_url: str
    docs_dir: Path
    extensions_dir: Path
    index_dir: str
    check_published: bool
    subtree_pages: tuple[str, ...]

    @classmethod
    def from_config(cls, config_file: Path, config: dict[str, Any]) -> ProjectSettings:
        root = config_file.resolve().parent
        site_url = config.get("site_url")
        if not isinstance(site_url, str) or not site_url:
            raise SiteBuildError(f"{config_file}: site_url must be set; the URIs live under it")
        options = plugin_options(config)
        if options is None:
            raise SiteBuildError(f"{config_file}: the {PLUGIN_NAME} plugin is not configured")
        return cls(
            root=root,
            site_url=site_url if site_url.endswith("/") else site_url + "/",
            docs_dir=root / str(config.get("docs_dir", "docs")),
            extensions_dir=root / str(options.get("extensions_dir", "extensions")),
            index_dir=str(options.get("index_dir", "a2a/ext")).strip("/"),
            check_published=bool(options.get("check_published", True)),
            subtree_pages=tuple(str(page) for page in options.get("subtree_pages", [])),
        )


def plugin_options(config: dict[str, Any]) -> dict[str, Any] | None:
    """The ``th-ext`` entry of ``plugins`` (its options, ``{}`` when it has none), or None."""
    for entry in config.get("plugins") or []:
        if entry == PLUGIN_NAME:
            return {}
        if isinstance(entry, dict) and PLUGIN_NAME in entry:
            return dict(entry[PLUGIN_NAME] or {})
    return None


def without_plugin(plugins: list[Any]) -> list[Any]:
    """``plugins`` less the ``th-ext`` entry: its work is done by the generation step."""
    return [
        entry
        for entry in plugins
        if entry != PLUGIN_NAME and not (isinstance(entry, dict) and PLUGIN_NAME in entry)
    ]


def _yaml() -> Any:
    try:
        import yaml
    except ImportError:
        raise SiteBuildError(
            "mkdocs.yml is read with PyYAML:"
            " pip install 'th-ext[site] @ git+https://github.com/madarauchiha-314/th-ext'"
        ) from None
    return yaml


def load_config(path: Path) -> dict[str, Any]:
    """``mkdocs.yml`` as a dict, its python tags kept as ``PythonTag``."""
    yaml = _yaml()

    class Loader(yaml.SafeLoader):  # type: ignore[misc,name-defined]
        pass

    def construct_python_tag(loader: Any, suffix: str, node: Any) -> PythonTag:
        return PythonTag(suffix, str(loader.construct_scalar(node)))

    Loader.add_multi_constructor(_PYTHON_TAG, construct_python_tag)
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=Loader)
    except OSError as exc:
        raise SiteBuildError(f"{path}: cannot be read: {os_reason(exc)}") from None
    except yaml.YAMLError as exc:
        raise SiteBuildError(f"{path}: not valid YAML: {' '.join(str(exc).split())}") from None
    if not isinstance(data, dict):
        raise SiteBuildError(f"{path}: not an MkDocs configuration (a mapping)")
    return data


def dump_config(config: dict[str, Any], path: Path) -> None:
    """Write ``config`` as YAML that MkDocs and Zensical read like the original."""
    yaml = _yaml()

    class Dumper(yaml.SafeDumper):  # type: ignore[misc,name-defined]
        pass

    def represent_python_tag(dumper: Any, tag: PythonTag) -> Any:
        return dumper.represent_scalar(_PYTHON_TAG + tag.kind, tag.value)

    Dumper.add_representer(PythonTag, represent_python_tag)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        yaml.dump(config, Dumper=Dumper, sort_keys=False, allow_unicode=True), encoding="utf-8"
    )


# Moving a Markdown page to another folder of the site without breaking its links.
#
# The subtree build publishes pages below ``a2a/ext/`` that were written for the site's root.
# Each relative link is resolved where the page used to be; a target that moves with the
# subtree is linked relatively from the page's new place, and any other target becomes an
# absolute URL on the published site, so that no relative link leaves the subtree.

# An inline link or image target: ``](target)`` or ``](target "title")``.
_INLINE = re.compile(r'(?P<open>\]\()(?P<target>[^)\s]+)(?P<close>(?:\s+"[^"]*")?\))')
# A reference definition: ``[id]: target``.
_REFERENCE = re.compile(r"^(?P<open> {0,3}\[[^\]]+\]:\s*)(?P<target>\S+)(?P<close>.*)$", re.M)
_FENCE = re.compile(r"^(?P<fence>```|~~~)")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def page_url(path: str) -> str:
    """The URL path of a docs file under directory URLs: ``x/index.md`` is ``x/``."""
    if path == "index.md":
        return ""
    if path.endswith("/index.md"):
        return path.removesuffix("index.md")
    if path.endswith(".md"):
        return path.removesuffix(".md") + "/"
    return path


def rebase_links(
    markdown: str,
    old_path: str,
    new_path: str,
    moved: Callable[[str], str | None],
    site_url: str,
) -> str:
    """``markdown`` (once at ``old_path`` in docs) with its links fixed for ``new_path``.

    ``moved`` maps an old docs path to its new one, or None when the target stays behind;
    such a target is linked as ``site_url`` plus its URL path.
    """

    def rebase_link(match: re.Match[str]) -> str:
        target = match["target"]
        if target.startswith(("#", "/")) or _SCHEME.match(target):
            return match.group(0)
        path, hash_mark, fragment = target.partition("#")
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(old_path), path))
        new_target = moved(resolved)
        if new_target is None:
            fixed = site_url + page_url(resolved)
        else:
            fixed = posixpath.relpath(new_target, posixpath.dirname(new_path) or ".")
        return match["open"] + fixed + hash_mark + fragment + match["close"]

    parts: list[str] = []
    fenced: str | None = None
    for line in markdown.splitlines(keepends=True):
        opening = _FENCE.match(line.lstrip())
        if fenced is not None:
            if opening and opening["fence"] == fenced:
                fenced = None
            parts.append(line)
        elif opening:
            fenced = opening["fence"]
            parts.append(line)
        else:
            parts.append(_REFERENCE.sub(rebase_link, _INLINE.sub(rebase_link, line)))
    return "".join(parts)


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

    def moved_path(path: str) -> str | None:
        if path.startswith(index_dir + "/"):
            return path[len(index_dir) + 1 :]
        if path.split("/", 1)[0] in settings.subtree_pages:
            return path
        return None

    def stage_file(old: str, new: str, content: bytes) -> None:
        target = docs / new
        if target.exists():
            raise SiteBuildError(f"{old} is generated from the extensions; remove it from docs")
        target.parent.mkdir(parents=True, exist_ok=True)
        if new.endswith(".md"):
            text = rebase_links(content.decode("utf-8"), old, new, moved_path, site_url)
            content = text.encode("utf-8")
        target.write_bytes(content)

    for generated in plan.files:
        stage_file(f"{index_dir}/{generated.path}", generated.path, generated.content)
    for path, content in host_files:
        target = docs / path
        if target.exists():
            raise SiteBuildError(f"the host schema for {index_dir}/{path} clashes with a page here")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
    for relative in regular_files(settings.docs_dir):  # a link in the docs is refused
        new = moved_path(relative)
        # Pages go only where they move to; other files (stylesheets, scripts) come along.
        if new is not None or not relative.endswith(".md"):
            stage_file(relative, new or relative, read_regular(settings.docs_dir, relative))
    nav = config.get("nav")
    sub_nav = None
    if nav:
        versions = [
            NavEntry(title=e.title, path=f"{index_dir}/{e.path}") for e in [*plan.nav, *host_nav]
        ]
        sub_nav = _subtree_nav(expand_nav(nav, versions, f"{index_dir}/index.md"), moved_path)
    staged = _derived_config(config, settings, root=root, docs=docs, site_dir=site_dir, nav=sub_nav)
    staged["site_url"] = sub_url
    dump_config(staged, config_out)
    return plan
