"""The site URL a project is published at, as its ``mkdocs.yml`` says.

``mkdocs serve`` replaces ``site_url`` with the development server's address before any plugin
sees it, yet an extension's URI must sit under the URL the site is *published* at. This reads
that URL back from the configuration file (with MkDocs' own YAML loader, so ``INHERIT`` and
``!ENV`` work as they do for MkDocs).
"""

from __future__ import annotations

from pathlib import Path

from th_ext._exceptions import PublishError

__all__ = ["configured_site_url"]


def configured_site_url(config_file: Path) -> str | None:
    """``site_url`` as written in ``config_file`` (or a file it inherits), None when unset."""
    from mkdocs.exceptions import ConfigurationError
    from mkdocs.utils.yaml import yaml_load

    try:
        with config_file.open("rb") as stream:
            settings = yaml_load(stream)
    except (OSError, ConfigurationError) as exc:
        raise PublishError(f"{config_file}: cannot be read ({exc})") from None
    value = settings.get("site_url")
    return str(value) if value else None
