"""The built site, made once per test session: ``mkdocs build --strict`` (the deployed build)
and, for the checks both builds must pass, the Zensical build of the same project."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.host_site import file_hashes, make_host_site
from tests.support.site_build import build_pages_subtree, build_site, build_zensical_site
from tests.support.static_site import serve_site


@pytest.fixture(scope="session")
def mkdocs_site(repo_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    result = build_site(repo_root, tmp_path_factory.mktemp("site") / "site")
    assert result.returncode == 0, result.output
    return result.site_dir


@pytest.fixture(scope="session")
def zensical_site(repo_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``make site-zensical``: the generated files built by Zensical (strict)."""
    result = build_zensical_site(repo_root, tmp_path_factory.mktemp("zensical") / "zensical")
    assert result.returncode == 0, result.output
    return result.site_dir


@pytest.fixture(scope="session")
def built_site(mkdocs_site: Path) -> Path:
    return mkdocs_site


@pytest.fixture(scope="session")
def site_base_url(built_site: Path) -> Iterator[str]:
    """The built site served like GitHub Pages, under ``/tiny-harness/`` on 127.0.0.1."""
    with serve_site(built_site) as base_url:
        yield base_url


@dataclass(frozen=True)
class MergedSite:
    """A stand-in of the host's Pages artifact with the subtree built into it."""

    root: Path
    before: dict[str, str]
    """The sha256 of every host file before the build."""
    output: str


@pytest.fixture(scope="session")
def merged_site(repo_root: Path, tmp_path_factory: pytest.TempPathFactory) -> MergedSite:
    """``make pages-subtree DEST=...`` into a stand-in of the tiny-harness artifact."""
    work = tmp_path_factory.mktemp("subtree")
    host = make_host_site(work / "dist")
    before = file_hashes(host)
    result = build_pages_subtree(repo_root, host, work / "scratch")
    assert result.returncode == 0, result.output
    return MergedSite(host, before, result.output)


@pytest.fixture(scope="session")
def merged_base_url(merged_site: MergedSite) -> Iterator[str]:
    """The merged tree served like GitHub Pages, under ``/tiny-harness/``."""
    with serve_site(merged_site.root) as base_url:
        yield base_url
