"""Every link of the built site works: a crawl from the home page over HTTP finds no broken link.

The crawl follows each ``href`` and ``src`` inside the site (fragments included, which must
name an element of their page), reaches every page of the build, and also checks the links
of the 404 page as served at an address that does not exist.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.support.link_check import CrawlReport, crawl_site
from tests.support.site_config import mkdocs_setting
from tests.support.static_site import serve_site

pytestmark = pytest.mark.slow

MISSING_PAGE = "no/such/page/"


def _crawl(base_url: str, site_url: str) -> CrawlReport:
    return crawl_site(base_url, site_url=site_url, also_visit={base_url + MISSING_PAGE: 404})


def _file_of(page: str) -> str:
    """The built file that answers a page path ("a2a/ext/" is "a2a/ext/index.html")."""
    return page + "index.html" if page == "" or page.endswith("/") else page


def _html_files(site_dir: Path) -> set[str]:
    return {path.relative_to(site_dir).as_posix() for path in site_dir.rglob("*.html")}


@pytest.fixture(scope="module")
def site_url(repo_root: Path) -> str:
    return mkdocs_setting(repo_root, "site_url")


@pytest.fixture(scope="module")
def crawl(site_base_url: str, site_url: str) -> CrawlReport:
    return _crawl(site_base_url, site_url)


def test_no_link_on_any_page_is_broken(crawl: CrawlReport) -> None:
    assert crawl.links_checked > 0
    assert not crawl.broken, "broken links (page: link):\n" + "\n".join(
        str(broken) for broken in crawl.broken
    )


def test_the_crawl_reaches_every_page_of_the_build(crawl: CrawlReport, built_site: Path) -> None:
    reached = {_file_of(page) for page in crawl.pages}
    orphans = _html_files(built_site) - {"404.html"} - reached
    assert not orphans, f"pages no link leads to: {sorted(orphans)}"
    assert "a2a/ext/commands/v1/index.html" in reached


def test_external_links_are_collected_not_fetched_and_use_https(crawl: CrawlReport) -> None:
    assert crawl.external, "the site links to no other host, not even its source repository"
    insecure = {
        url: sorted(pages)
        for url, pages in crawl.external.items()
        if urlsplit(url).scheme != "https" or not urlsplit(url).netloc
    }
    assert not insecure, f"external links that are not https URLs: {insecure}"


def test_the_link_check_reports_broken_links_and_orphans(
    built_site: Path, site_url: str, tmp_path: Path
) -> None:
    """The checker itself: on a damaged copy of the site it names each fault and its page."""
    damaged = tmp_path / "site"
    shutil.copytree(built_site, damaged)
    spec_page = damaged / "a2a/ext/commands/v1/index.html"
    html = spec_page.read_text(encoding="utf-8")
    injected = (
        '<a href="../../no-such-extension/">gone</a>'
        '<a href="#no-such-section">missing anchor</a>'
        '<a href="../../../../th-ext/#no-such-heading">missing anchor elsewhere</a>'
        '<img src="diagram.png">'
    )
    spec_page.write_text(html.replace("</article>", injected + "</article>", 1), "utf-8")
    (damaged / "unlinked").mkdir()
    (damaged / "unlinked/index.html").write_text("<!doctype html><title>x</title>", "utf-8")

    with serve_site(damaged) as base_url:
        report = _crawl(base_url, site_url)

    found = {(broken.page, broken.link) for broken in report.broken}
    page = "a2a/ext/commands/v1/"
    injected_faults = {
        (page, "../../no-such-extension/"),
        (page, "#no-such-section"),
        (page, "../../../../th-ext/#no-such-heading"),
        (page, "diagram.png"),
    }
    assert injected_faults <= found, f"missed: {injected_faults - found}"
    reached = {_file_of(p) for p in report.pages}
    assert "unlinked/index.html" in _html_files(damaged) - {"404.html"} - reached
