"""The Zensical build of the generated files, beyond the smoke checks both builds share.

Zensical runs no MkDocs plugin, so the extension pages exist in its build only because the
generation step wrote them: a crawl from the home page must reach every page of the build,
extension pages included, through links that all work.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.link_check import crawl_site
from tests.support.site_config import mkdocs_setting
from tests.support.static_site import serve_site

pytestmark = pytest.mark.slow


def test_every_page_of_the_zensical_build_is_reached_by_working_links(
    zensical_site: Path, mkdocs_site: Path, repo_root: Path
) -> None:
    with serve_site(zensical_site) as base_url:
        report = crawl_site(base_url, site_url=mkdocs_setting(repo_root, "site_url"))
    assert report.links_checked > 0
    assert not report.broken, "\n".join(str(broken) for broken in report.broken)
    reached = {page + "index.html" if page == "" or page.endswith("/") else page
               for page in report.pages}  # fmt: skip
    built = {p.relative_to(zensical_site).as_posix() for p in zensical_site.rglob("*.html")}
    assert built - {"404.html"} == reached
    deployed = {p.relative_to(mkdocs_site).as_posix() for p in mkdocs_site.rglob("*.html")}
    assert built == deployed, "the two builds publish different pages"
