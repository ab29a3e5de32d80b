"""The built site, made once per test run (not once per xdist worker): ``mkdocs build
--strict`` (the deployed build) and, for the checks both builds must pass, the Zensical build of
the same project; the Pages subtree build; one headless Chromium per worker; and every page of
the built site visited once per colour scheme for the page-by-page browser tests."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.support.browser import launched_chromium
from tests.support.host_site import file_hashes
from tests.support.page_weight import site_pages
from tests.support.run_once import folder_once, shared_results
from tests.support.site_build import build_pages_subtree, build_site, build_zensical_site
from tests.support.site_visits import NOT_FOUND_PATH, PageVisit, visit_dark, visit_light
from tests.support.static_site import serve_site
from tests.support.vitepress_host import copy_host_dist

if TYPE_CHECKING:
    from playwright.sync_api import Browser


@pytest.fixture(scope="session")
def mkdocs_site(repo_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    def make(folder: Path) -> None:
        result = build_site(repo_root, folder / "site")
        assert result.returncode == 0, result.output

    return folder_once(tmp_path_factory, "mkdocs-site", make) / "site"


@pytest.fixture(scope="session")
def zensical_site(repo_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``make site-zensical``: the generated files built by Zensical (strict)."""

    def make(folder: Path) -> None:
        result = build_zensical_site(repo_root, folder / "zensical")
        assert result.returncode == 0, result.output

    return folder_once(tmp_path_factory, "zensical-site", make) / "zensical"


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
    """The VitePress test host's built artifact with the subtree built into it."""

    root: Path
    before: dict[str, str]
    """The sha256 of every host file before the build."""
    output: str


@pytest.fixture(scope="session")
def merged_site(repo_root: Path, tmp_path_factory: pytest.TempPathFactory) -> MergedSite:
    """``make pages-subtree DEST=...`` into the VitePress test host's real ``dist``."""

    def make(work: Path) -> None:
        host = copy_host_dist(work / "dist")
        before = file_hashes(host)
        result = build_pages_subtree(repo_root, host, work / "scratch")
        assert result.returncode == 0, result.output
        record = {"before": before, "output": result.output}
        (work / "build.json").write_text(json.dumps(record), encoding="utf-8")

    work = folder_once(tmp_path_factory, "pages-subtree", make)
    record = json.loads((work / "build.json").read_text(encoding="utf-8"))
    return MergedSite(work / "dist", record["before"], record["output"])


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Chromium for a module's site tests.

    Not for the whole session: while it is open no ``asyncio.run`` can happen in the worker
    (see ``launched_chromium``), and a worker may run other modules' in-process commands next.
    """
    with launched_chromium() as launched:
        yield launched


@pytest.fixture(scope="session")
def merged_base_url(merged_site: MergedSite) -> Iterator[str]:
    """The merged tree served like GitHub Pages, under ``/tiny-harness/``."""
    with serve_site(merged_site.root) as base_url:
        yield base_url


def html_pages(site: Path) -> list[str]:
    """Every HTML file of a built site, a folder's ``index.html`` as the folder."""
    return sorted(
        path.relative_to(site).as_posix().removesuffix("index.html")
        for path in site.rglob("*.html")
    )


@pytest.fixture(scope="session")
def site_visits(
    built_site: Path,
    site_base_url: str,
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[tuple[str, str], PageVisit]:
    """Every HTML page of the built site and an unknown address visited in the light scheme,
    every page and the unknown address in the dark one: once for the whole run, each worker
    that asks at the same time visiting some of them; by ``(scheme, path)``. Its Chromium is
    closed once the visits are made."""
    with launched_chromium() as browser:
        return _visit_site(built_site, site_base_url, browser, tmp_path_factory)


def _visit_site(
    built_site: Path,
    site_base_url: str,
    browser: Browser,
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[tuple[str, str], PageVisit]:
    axe_pages = site_pages(built_site)

    def light(paths: Iterator[str]) -> Iterator[tuple[str, dict[str, object]]]:
        for visit in visit_light(browser, site_base_url, paths, axe_pages):
            yield visit.path, visit.as_json()

    def dark(paths: Iterator[str]) -> Iterator[tuple[str, dict[str, object]]]:
        for visit in visit_dark(browser, site_base_url, paths):
            yield visit.path, visit.as_json()

    found = {}
    for scheme, paths, visit in (
        ("light", [*html_pages(built_site), NOT_FOUND_PATH], light),
        ("dark", [*axe_pages, NOT_FOUND_PATH], dark),
    ):
        made = shared_results(tmp_path_factory, f"site-visits-{scheme}", paths, visit)
        found.update({(scheme, path): PageVisit.from_json(data) for path, data in made.items()})
    return found
