"""Reading and writing an MkDocs project's ``mkdocs.yml`` for builds that run no ``th-ext`` plugin.

The file carries ``!!python/name:`` tags (Markdown extension hooks) that only MkDocs resolves;
here they are kept as ``PythonTag`` values and written back unchanged, so that a derived
configuration is the same project, only with the generated pages in its docs folder.
PyYAML comes with the ``site`` extra (MkDocs and Zensical both read YAML with it).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from th_ext._exceptions import SiteBuildError

__all__ = [
    "PLUGIN_NAME",
    "ProjectSettings",
    "PythonTag",
    "dump_config",
    "load_config",
    "plugin_options",
    "without_plugin",
]

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

    def python_tag(loader: Any, suffix: str, node: Any) -> PythonTag:
        return PythonTag(suffix, str(loader.construct_scalar(node)))

    Loader.add_multi_constructor(_PYTHON_TAG, python_tag)
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=Loader)
    except OSError as exc:
        raise SiteBuildError(f"{path}: cannot be read: {exc.strerror}") from None
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

    def python_tag(dumper: Any, tag: PythonTag) -> Any:
        return dumper.represent_scalar(_PYTHON_TAG + tag.kind, tag.value)

    Dumper.add_representer(PythonTag, python_tag)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        yaml.dump(config, Dumper=Dumper, sort_keys=False, allow_unicode=True), encoding="utf-8"
    )
