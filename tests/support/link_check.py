"""A link checker for a served site: crawl from its root over HTTP and report every broken link.

Every ``href`` and ``src`` on every HTML page is resolved against the page's URL. A link inside
the site (same host, or under the published ``site_url``, which is mapped onto the local
server) is fetched, following redirects as a browser does; it is broken when it does not end
in 200, or when its ``#fragment`` names no element of the HTML page it lands on. HTML pages
reached this way are crawled in turn. Links to other hosts are collected, never fetched.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from urllib.parse import unquote, urldefrag, urljoin, urlsplit

import httpx

from tests.support.html_page import ParsedPage, parse_html

__all__ = ["BrokenLink", "CrawlReport", "crawl_site"]

_SKIPPED_SCHEMES = ("mailto:", "tel:", "javascript:", "data:", "blob:")
_MAX_REDIRECTS = 5


@dataclass(frozen=True)
class BrokenLink:
    page: str
    link: str
    reason: str

    def __str__(self) -> str:
        return f"{self.page}: {self.link} ({self.reason})"


@dataclass
class CrawlReport:
    pages: set[str] = field(default_factory=set)
    """The HTML pages reached, as paths below the site's base URL ("" is the home page)."""
    broken: list[BrokenLink] = field(default_factory=list)
    external: dict[str, set[str]] = field(default_factory=dict)
    """Links to other hosts, each with the pages it is on."""
    links_checked: int = 0


@dataclass(frozen=True)
class _Resource:
    status: int
    url: str
    page: ParsedPage | None


class _Crawler:
    def __init__(self, client: httpx.Client, base_url: str, site_url: str | None) -> None:
        self.client = client
        self.base_url = base_url
        self.site_url = site_url
        self.base_host = urlsplit(base_url).netloc
        self.resources: dict[str, _Resource] = {}
        self.report = CrawlReport()

    def fetch(self, url: str) -> _Resource:
        """The resource at ``url`` (no fragment), after redirects within the server."""
        if url not in self.resources:
            current = url
            response = self.client.get(current)
            for _ in range(_MAX_REDIRECTS):
                if not response.is_redirect:
                    break
                current = urljoin(current, response.headers["location"])
                if urlsplit(current).netloc != self.base_host:
                    break
                response = self.client.get(current)
            content_type = response.headers.get("content-type", "")
            page = parse_html(response.text) if content_type.startswith("text/html") else None
            self.resources[url] = _Resource(response.status_code, current, page)
        return self.resources[url]

    def relative(self, url: str) -> str:
        return url.removeprefix(self.base_url) if url.startswith(self.base_url) else url

    def local(self, url: str) -> str:
        """``url`` with the published site's address replaced by the local server's."""
        if self.site_url and url.startswith(self.site_url):
            return self.base_url + url[len(self.site_url) :]
        return url

    def crawl(self, start_urls: list[str], allowed_statuses: dict[str, int]) -> CrawlReport:
        queue: deque[str] = deque(start_urls)
        seen: set[str] = set(start_urls)
        while queue:
            url = queue.popleft()
            resource = self.fetch(url)
            expected = allowed_statuses.get(url, 200)
            if resource.status != expected:
                self.report.broken.append(
                    BrokenLink("(start)", url, f"HTTP {resource.status}, expected {expected}")
                )
            if resource.page is None:
                continue
            if resource.status == 200:
                self.report.pages.add(self.relative(resource.url))
            for target in self.check_page(resource):
                if target not in seen:
                    seen.add(target)
                    queue.append(target)
        return self.report

    def check_page(self, resource: _Resource) -> list[str]:
        """Check every link on one page; return the in-site HTML pages it leads to."""
        assert resource.page is not None
        on_page = self.relative(resource.url) or "(home)"
        leads_to: list[str] = []
        for link in resource.page.links:
            value = link.value.strip()
            if value.lower().startswith(_SKIPPED_SCHEMES):
                continue
            absolute = self.local(urljoin(resource.url, value))
            if urlsplit(absolute).scheme not in ("http", "https"):
                continue
            if urlsplit(absolute).netloc != self.base_host:
                self.report.external.setdefault(absolute, set()).add(on_page)
                continue
            self.report.links_checked += 1
            target_url, fragment = urldefrag(absolute)
            target = self.fetch(target_url)
            if target.status != 200:
                self.report.broken.append(BrokenLink(on_page, value, f"HTTP {target.status}"))
                continue
            if target.page is None:
                continue
            if fragment and unquote(fragment) not in target.page.anchors:
                self.report.broken.append(
                    BrokenLink(on_page, value, f"no element with id {unquote(fragment)!r}")
                )
            if target.url.startswith(self.base_url):
                leads_to.append(target.url)
        return leads_to


def crawl_site(
    base_url: str,
    *,
    site_url: str | None = None,
    also_visit: dict[str, int] | None = None,
) -> CrawlReport:
    """Crawl the site served at ``base_url`` from its root page.

    ``site_url`` is the address the site is published at: links to it are checked against the
    local server. ``also_visit`` maps further start URLs to the status they must answer (the
    404 page, for instance, whose links must work from any depth).
    """
    extra = also_visit or {}
    with httpx.Client(follow_redirects=False, timeout=10, trust_env=False) as client:
        crawler = _Crawler(client, base_url, site_url)
        return crawler.crawl([base_url, *extra], extra)
