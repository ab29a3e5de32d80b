"""The spec pages as a reader sees them, at a desk (1280 px) and on a phone (390 px), in both
colour schemes: a "Check your agent" box that leads to th-ext, field names that never break
inside a word, a requirements table whose requirement column takes most of the width, and
diagrams whose text is drawn at 12 px or more and that open full size."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.conftest import EXTENSIONS_DIR
from tests.support.browser import ACTION_TIMEOUT_MS
from tests.support.extension_folders import ExtensionFolder, extension_folders
from tests.support.site_config import mkdocs_setting

if TYPE_CHECKING:
    from pathlib import Path

    from playwright.sync_api import Browser, Page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

EXTENSIONS = extension_folders(EXTENSIONS_DIR)
WIDTHS = (1280, 390)
SCHEMES = ("light", "dark")
VIEWS = [(width, scheme) for width in WIDTHS for scheme in SCHEMES]
MIN_DIAGRAM_TEXT_PX = 12

_MEASURE = """
() => {
  const lines = (element) => {
    const tops = new Set([...element.getClientRects()].map((r) => Math.round(r.top)));
    return tops.size;
  };
  const fieldNames = [...document.querySelectorAll(".th-fields td:first-child code")]
    .map((code) => [code.textContent, lines(code)]);
  const table = document.querySelector(".th-requirements table");
  const requirement = table && table.querySelector("tbody tr td:nth-child(4)");
  const texts = [...document.querySelectorAll("figure.th-diagram svg text")].map((text) => {
    const svg = text.ownerSVGElement;
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    return parseFloat(getComputedStyle(text).fontSize) * scale;
  });
  return {
    fieldNames,
    tableWidth: table && table.getBoundingClientRect().width,
    requirementWidth: requirement && requirement.getBoundingClientRect().width,
    viewport: document.documentElement.clientWidth,
    diagramText: texts,
    pageWidth: document.documentElement.scrollWidth,
  };
}
"""


@pytest.fixture(scope="module")
def site_url(repo_root: Path) -> str:
    return mkdocs_setting(repo_root, "site_url")


@pytest.fixture
def open_at(browser: Browser, site_base_url: str) -> Iterator[Any]:
    contexts = []

    def open_(path: str, width: int, scheme: Any) -> Page:
        context = browser.new_context(color_scheme=scheme, viewport={"width": width, "height": 900})
        contexts.append(context)
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        page = context.new_page()
        response = page.goto(site_base_url + path, wait_until="load")
        assert response is not None and response.status == 200, path
        return page

    yield open_
    for context in contexts:
        context.close()


def _path(extension: ExtensionFolder, site_url: str) -> str:
    return extension.uri.removeprefix(site_url).rstrip("/") + "/"


@pytest.mark.parametrize("view", VIEWS, ids=[f"{w}-{s}" for w, s in VIEWS])
@pytest.mark.parametrize("extension", EXTENSIONS, ids=[e.key for e in EXTENSIONS])
def test_the_spec_page_reads_well_at_each_width_and_scheme(
    extension: ExtensionFolder, view: tuple[int, str], open_at: Any, site_url: str, tmp_path: Path
) -> None:
    width, scheme = view
    page = open_at(_path(extension, site_url), width, scheme)
    shot = tmp_path / f"{extension.key.replace('/', '-')}-{width}-{scheme}.png"
    page.screenshot(path=shot, full_page=True)
    assert shot.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    measured = page.evaluate(_MEASURE)
    broken = [name for name, lines in measured["fieldNames"] if lines != 1]
    assert measured["fieldNames"] and broken == [], f"field names broken across lines: {broken}"
    assert measured["pageWidth"] <= measured["viewport"], "the page scrolls sideways"
    if measured["tableWidth"] is not None:
        share = measured["requirementWidth"] / measured["tableWidth"]
        # At a desk the requirement's words take most of the table; on a phone, all of it.
        assert share >= (0.55 if width >= 1000 else 0.9), f"requirement column: {share:.0%}"
    too_small = [size for size in measured["diagramText"] if size < MIN_DIAGRAM_TEXT_PX - 0.01]
    assert too_small == [], f"diagram text drawn at {min(too_small, default=0):.1f} px"


@pytest.mark.parametrize("extension", EXTENSIONS, ids=[e.key for e in EXTENSIONS])
def test_the_check_box_gives_the_commands_for_this_uri_and_leads_to_th_ext(
    extension: ExtensionFolder, open_at: Any, site_url: str
) -> None:
    page = open_at(_path(extension, site_url), 1280, "light")
    box = page.locator(".admonition", has_text="Check your agent")
    assert box.count() == 1
    commands = " ".join((box.locator("pre").text_content() or "").replace("\\\n", " ").split())
    assert f"th-ext validate https://your-agent.example --extension {extension.uri}" in commands
    if (extension.folder / "requirements.toml").is_file():
        assert "th-ext conform https://your-agent.example" in commands
    for link in box.locator("a").all():
        href = link.evaluate("(a) => a.href")
        assert httpx.get(href).status_code == 200, href
    hrefs = [link.evaluate("(a) => a.pathname") for link in box.locator("a").all()]
    assert any(href.endswith("/th-ext/validate/") for href in hrefs)


@pytest.mark.parametrize("extension", EXTENSIONS, ids=[e.key for e in EXTENSIONS])
def test_each_diagram_opens_full_size(
    extension: ExtensionFolder, open_at: Any, site_url: str
) -> None:
    page = open_at(_path(extension, site_url), 1280, "light")
    links = page.locator("figure.th-diagram figcaption a")
    if not links.count():
        pytest.skip(f"{extension.key} has no diagram")
    for link in links.all():
        response = httpx.get(link.evaluate("(a) => a.href"))
        assert response.status_code == 200
        assert response.text.startswith("<svg") and "<style>" in response.text
