"""The MkDocs plugin ``th-ext``: a thin adapter from MkDocs to the generation step."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import ConfigurationError, PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files
from mkdocs.utils.yaml import yaml_load

from th_ext._exceptions import PublishError, ThExtError
from th_ext.publish._site_plan import SitePlan, expand_nav, plan_site

__all__ = ["ExtensionsPlugin", "ExtensionsPluginConfig"]


# The site URL a project is published at, as its ``mkdocs.yml`` says.
#
# ``mkdocs serve`` replaces ``site_url`` with the development server's address before any plugin
# sees it, yet an extension's URI must sit under the URL the site is *published* at. This reads
# that URL back from the configuration file (with MkDocs' own YAML loader, so ``INHERIT`` and
# ``!ENV`` work as they do for MkDocs).


def configured_site_url(config_file: Path) -> str | None:
    """``site_url`` as written in ``config_file`` (or a file it inherits), None when unset."""
    try:
        with config_file.open("rb") as stream:
            settings = yaml_load(stream)
    except (OSError, ConfigurationError) as exc:
        raise PublishError(f"{config_file}: cannot be read ({exc})") from None
    value = settings.get("site_url")
    return str(value) if value else None


class ExtensionsPluginConfig(Config):
    extensions_dir = config_options.Type(str, default="extensions")
    index_dir = config_options.Type(str, default="a2a/ext")
    check_published = config_options.Type(bool, default=True)
    # Folders of docs_dir that the subtree build publishes beside the extensions.
    subtree_pages = config_options.Type(list, default=[])


class ExtensionsPlugin(BasePlugin[ExtensionsPluginConfig]):
    """Makes the site plan when the configuration is loaded (a broken rule stops the build
    before anything is written) and adds its files and navigation to the build.

    Whatever the site needs from the extensions belongs in the plan, not in a hook here: the
    Zensical and Pages-subtree builds run without this plugin.
    """

    def __init__(self) -> None:
        self.plan: SitePlan | None = None
        self.serving = False

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        self.serving = command == "serve"

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        config_dir = Path(config.config_file_path).parent
        try:
            # `mkdocs serve` has put the dev server's address in site_url by now.
            site_url = (
                configured_site_url(Path(config.config_file_path))
                if self.serving
                else config.site_url
            )
            if not site_url:
                raise PluginError("th-ext: site_url must be set; extension URIs live under it")
            self.plan = plan_site(
                site_url,
                config_dir / self.config.extensions_dir,
                index_dir=self.config.index_dir,
                check_published=self.config.check_published,
            )
        except ThExtError as exc:
            problems = getattr(exc, "problems", [str(exc)])
            raise PluginError(
                "th-ext: the extensions cannot be published:\n"
                + "\n".join(f"  - {problem}" for problem in problems)
            ) from None
        if config.nav is not None:
            config.nav = expand_nav(config.nav, self.plan.nav, f"{self.config.index_dir}/index.md")
        return config

    def on_serve(
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: Any
    ) -> LiveReloadServer:
        """Rebuild the preview when an extension's files change, as for the site's own pages."""
        server.watch(str(Path(config.config_file_path).parent / self.config.extensions_dir))
        return server

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files:
        assert self.plan is not None
        for generated in self.plan.files:
            if files.get_file_from_path(generated.path) is not None:
                raise PluginError(
                    f"th-ext: {generated.path} is generated from the extensions; "
                    f"remove it from {config.docs_dir}"
                )
            files.append(File.generated(config, generated.path, content=generated.content))
        return files
