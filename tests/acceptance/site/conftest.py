"""The built site, made once per test session with ``mkdocs build --strict``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.site_build import build_site
from tests.support.static_site import serve_site


@pytest.fixture(scope="session")
def built_site(repo_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    result = build_site(repo_root, tmp_path_factory.mktemp("site") / "site")
    assert result.returncode == 0, result.output
    return result.site_dir


@pytest.fixture(scope="session")
def site_base_url(built_site: Path) -> Iterator[str]:
    """The built site served like GitHub Pages, under ``/tiny-harness/`` on 127.0.0.1."""
    with serve_site(built_site) as base_url:
        yield base_url
