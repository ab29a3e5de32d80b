"""The header on a phone and the navigation's draft mark, in headless Chromium.

At 390 px the header holds the menu, the link to the tiny-harness docs, the site's title and
two buttons: the link and the title read as one path by their short names ("tiny-harness / A2A
extensions"), both whole; on any phone the title stays readable (several letters, an ellipsis
where it is cut) and nothing may be pushed past the right edge. In the navigation, every
extension version whose ``extension.toml`` says ``status = "draft"`` is marked "draft" beside
its title, and no other is: the mark comes from the version's own files, with no code per
extension.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from tests.conftest import EXTENSIONS_DIR
from tests.support.browser import ACTION_TIMEOUT_MS
from tests.support.extension_folders import extension_folders
from tests.support.site_config import mkdocs_setting

if TYPE_CHECKING:
    from pathlib import Path

    from playwright.sync_api import Browser, Page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PHONE = 390
#: The fewest letters of the title a phone shows (about 4rem of the header's title font).
MIN_TITLE_PX = 60

_HEADER = """
() => {
  const title = document.querySelector(".md-header__topic .md-ellipsis");
  const style = getComputedStyle(title);
  const shown = [...document.querySelector(".md-header__inner").children]
    .filter((element) => getComputedStyle(element).display !== "none")
    .map((element) => element.getBoundingClientRect())
    .filter((box) => box.width > 0);
  return {
    text: title.textContent.trim(),
    width: title.getBoundingClientRect().width,
    cut: title.scrollWidth > title.clientWidth + 1,
    ellipsis: style.textOverflow === "ellipsis" && style.overflow === "hidden",
    rightmost: Math.max(...shown.map((box) => box.right)),
    viewport: document.documentElement.clientWidth,
  };
}
"""

#: The layout the header had before: the link kept its width and squeezed the title.
_SQUEEZED = """
@media screen and (max-width: 44.9375em) {
  .th-host-link { flex-shrink: 0 !important; font-size: 0.9rem !important; }
  [dir] .md-header__title { min-width: 0 !important; margin-left: 1rem !important;
    font-size: 0.9rem !important; }
}
"""

#: The header before it had short names: the link and the title by their long names on a phone.
_LONG_NAMES = """
.th-long-name { display: inline !important; }
.th-short-name { display: none !important; }
"""

_NAV_LINKS = """
() => [...document.querySelectorAll("nav.md-nav--primary a.md-nav__link")].map((link) => {
  const mark = link.querySelector(".md-status--draft");
  return {
    href: link.href,
    mark: mark ? getComputedStyle(mark, "::after").content : null,
    title: mark ? mark.title : null,
    visible: mark ? mark.getBoundingClientRect().width > 0 : false,
  };
})
"""


@pytest.fixture
def open_at(browser: Browser, site_base_url: str) -> Iterator[Any]:
    contexts = []

    def open_(path: str, width: int) -> Page:
        context = browser.new_context(viewport={"width": width, "height": 800})
        contexts.append(context)
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        page = context.new_page()
        response = page.goto(site_base_url + path, wait_until="load")
        assert response is not None and response.status == 200, path
        return page

    yield open_
    for context in contexts:
        context.close()


def _header_problems(header: dict[str, Any]) -> list[str]:
    problems = []
    if header["width"] < MIN_TITLE_PX:
        problems.append(f"the title is {header['width']:.0f} px wide: {header['text']!r} is cut")
    if header["cut"] and not header["ellipsis"]:
        problems.append("the title is cut without an ellipsis")
    if header["rightmost"] > header["viewport"] + 0.5:
        problems.append(f"the header runs {header['rightmost'] - header['viewport']:.0f} px off")
    return problems


@pytest.mark.parametrize("path", ["", "a2a/ext/commands/v1/", "th-ext/validate/"])
def test_on_a_phone_the_header_title_stays_readable(open_at: Any, path: str) -> None:
    page = open_at(path, PHONE)
    header = page.evaluate(_HEADER)
    assert header["text"], "the header has no title"
    assert not _header_problems(header), header


def test_the_header_check_fails_on_the_squeezed_title(open_at: Any) -> None:
    page = open_at("", PHONE)
    page.add_style_tag(content=_SQUEEZED + _LONG_NAMES)
    problems = _header_problems(page.evaluate(_HEADER))
    assert any("is cut" in problem for problem in problems), problems


_PATH = """
() => {
  const shown = (element) => [...element.querySelectorAll("span")]
    .filter((span) => getComputedStyle(span).display !== "none" && !span.querySelector("span"))
    .map((span) => span.textContent.trim()).join("");
  const cut = (element) => element.scrollWidth > element.clientWidth + 1;
  const link = document.querySelector(".th-host-link");
  const title = document.querySelector(".md-header__topic .md-ellipsis");
  return { link: shown(link), title: shown(title), cut: [cut(link), cut(title)] };
}
"""


@pytest.mark.parametrize("path", ["", "a2a/ext/commands/v1/", "th-ext/validate/"])
def test_on_a_phone_the_link_and_the_title_read_whole_as_one_path(open_at: Any, path: str) -> None:
    page = open_at(path, PHONE)
    assert page.evaluate(_PATH) == {
        "link": "tiny-harness",
        "title": "A2A extensions",
        "cut": [False, False],
    }
    assert not _header_problems(page.evaluate(_HEADER))


def test_on_a_wide_screen_they_keep_their_long_names(open_at: Any) -> None:
    page = open_at("", 1280)
    assert page.evaluate(_PATH) == {
        "link": "tiny-harness docs",
        "title": "tiny-harness A2A extensions",
        "cut": [False, False],
    }


def test_the_path_check_fails_on_the_long_names_at_a_phone_width(open_at: Any) -> None:
    page = open_at("", PHONE)
    page.add_style_tag(content=_LONG_NAMES)
    assert True in page.evaluate(_PATH)["cut"]


def test_the_navigation_marks_the_drafts_and_only_them(open_at: Any, repo_root: Path) -> None:
    site_url = mkdocs_setting(repo_root, "site_url")
    status = {}
    for folder in extension_folders(EXTENSIONS_DIR):
        meta = tomllib.loads((folder.folder / "extension.toml").read_text(encoding="utf-8"))
        status[meta["uri"].removeprefix(site_url).strip("/") + "/"] = meta["status"]
    assert "draft" in status.values() and "stable" in status.values(), status

    page = open_at("", 1280)
    links = {link["href"]: link for link in page.evaluate(_NAV_LINKS)}
    base = page.url
    for path, state in status.items():
        link = links[base + path]
        if state == "draft":
            assert link["mark"] == '"draft"' and link["visible"], (path, link)
            assert link["title"].startswith("Draft"), link
        else:
            assert link["mark"] is None, (path, link)
    marked = [href for href, link in links.items() if link["mark"] is not None]
    assert len(marked) == list(status.values()).count("draft"), marked
