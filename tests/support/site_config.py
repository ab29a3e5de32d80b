"""What the tests need from ``mkdocs.yml``: the site's name and published address.

Read with a plain pattern rather than a YAML loader, because ``mkdocs.yml`` carries
``!!python/name`` tags that only MkDocs' own loader accepts.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["mkdocs_setting"]


def mkdocs_setting(repo_root: Path, key: str) -> str:
    """The value of a top-level scalar setting of ``mkdocs.yml`` (``site_url``, ``site_name``)."""
    text = (repo_root / "mkdocs.yml").read_text(encoding="utf-8")
    match = re.search(rf"^{re.escape(key)}:[ \t]*(.+?)[ \t]*$", text, re.MULTILINE)
    if match is None:
        raise LookupError(f"mkdocs.yml has no top-level {key}")
    return match.group(1).strip("'\"")
