"""The built site in a real browser: headless Chromium opens each page over HTTP.

A reader of a spec page sees its title, one field-table row per schema property, a schema
download that saves the committed file, copy buttons on code, a Mermaid diagram drawn as SVG
and a working light/dark toggle. What every page showed when visited (console errors, failed
requests, code running off the edge) is in ``test_site_visits``, which opens a browser of its own.
Without Chromium or Playwright these tests skip, except under CI, where they fail.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.conftest import EXTENSIONS_DIR
from tests.support.browser import ACTION_TIMEOUT_MS
from tests.support.extension_folders import ExtensionFolder, extension_folders
from tests.support.html_page import normalise_space
from tests.support.page_weight import ColorScheme
from tests.support.site_config import mkdocs_setting
from tests.support.site_visits import Problems

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

EXTENSIONS = extension_folders(EXTENSIONS_DIR)
_IDS = [extension.key for extension in EXTENSIONS]

# Material draws diagrams into a closed shadow root; opening it lets the test look inside.
_OPEN_SHADOW_ROOTS = """
(() => {
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    return attach.call(this, { ...init, mode: "open" });
  };
})();
"""

# Each field table with the definition it documents: the first code span of the nearest
# <h3> before it (the theme wraps tables, so headings are not their siblings).
_FIELD_TABLES = """
() => {
  const tables = {};
  let definition = null;
  for (const element of document.querySelectorAll("article h3, article table")) {
    if (element.tagName === "H3") {
      const code = element.querySelector("code");
      definition = (code || element).textContent.trim();
    } else if (definition !== null) {
      const header = [...element.querySelectorAll("thead th")].map((th) => th.innerText.trim());
      const rows = [...element.querySelectorAll("tbody tr")].map(
        (tr) => [...tr.cells].map((td) => td.innerText));
      (tables[definition] = tables[definition] || []).push({ header, rows });
    }
  }
  return tables;
}
"""

_TEXT_WITHOUT_PERMALINK = """
(element) => [...element.childNodes]
  .filter((node) => !(node.classList && node.classList.contains("headerlink")))
  .map((node) => node.textContent)
  .join("")
"""

_FIELD_HEADER = ["Field", "Type", "Required", "Default", "Description"]
_NO_DEFAULT = "—"


OpenPage = Callable[..., tuple["Page", Problems]]


def _opener(browser: Browser, site_base_url: str, contexts: list[BrowserContext]) -> OpenPage:
    def open_(
        path: str,
        *,
        allowed_document_status: int = 200,
        settle: bool = False,
        color_scheme: ColorScheme = "light",
        wait: bool = True,
    ) -> tuple[Page, Problems]:
        context = browser.new_context(
            color_scheme=color_scheme,
            accept_downloads=True,
            viewport={"width": 1280, "height": 900},
        )
        contexts.append(context)
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        context.add_init_script(_OPEN_SHADOW_ROOTS)
        context.grant_permissions(["clipboard-read", "clipboard-write"])
        page = context.new_page()
        problems = Problems(site_base_url + path, allowed_document_status)
        problems.watch(page)
        response = page.goto(
            site_base_url + path,
            wait_until=("networkidle" if settle else "load") if wait else "commit",
        )
        assert response is not None
        assert response.status == allowed_document_status, f"{path}: HTTP {response.status}"
        return page, problems

    return open_


@pytest.fixture
def open_page(browser: Browser, site_base_url: str) -> Iterator[OpenPage]:
    """Open a site path in a fresh browser context (light unless told), watching for problems.

    ``settle`` waits until the network is idle, so that late requests (the search index, the
    diagram library) have answered before the problems are read. ``wait=False`` returns as soon
    as the document has arrived, for a test that waits for the page itself later.
    """
    contexts: list[BrowserContext] = []
    yield _opener(browser, site_base_url, contexts)
    for context in contexts:
        context.close()


@pytest.fixture(scope="module")
def spec_page(browser: Browser, site_base_url: str) -> Iterator[OpenPage]:
    """Like ``open_page``, but each path opened once per scheme for the module: for the tests
    that read a spec page, or click what neither navigates nor changes what the others read (a
    copy button, the schema download). Its problems are those of all their visits."""
    contexts: list[BrowserContext] = []
    opened: dict[str, tuple[Page, Problems]] = {}
    open_ = _opener(browser, site_base_url, contexts)

    def get(
        path: str, *, settle: bool = False, color_scheme: ColorScheme = "light"
    ) -> tuple[Page, Problems]:
        key = f"{color_scheme} {path}"
        if key not in opened:
            opened[key] = open_(path, color_scheme=color_scheme)
        page, problems = opened[key]
        if settle:
            page.wait_for_load_state("networkidle")
        return page, problems

    yield get
    for context in contexts:
        context.close()


@pytest.fixture(scope="module")
def site_url(repo_root: Path) -> str:
    return mkdocs_setting(repo_root, "site_url")


def _spec_path(extension: ExtensionFolder, site_url: str) -> str:
    assert extension.uri.startswith(site_url)
    return extension.uri.removeprefix(site_url).rstrip("/") + "/"


def _schema(extension: ExtensionFolder) -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(extension.schema_path.read_text(encoding="utf-8"))
    return schema


def _type_name(prop: dict[str, Any]) -> str:
    if "$ref" in prop:
        return str(prop["$ref"]).rsplit("/", 1)[-1]
    if "anyOf" in prop:
        return " or ".join(_type_name(option) for option in prop["anyOf"])
    if "enum" in prop:
        return "one of " + ", ".join(json.dumps(value) for value in prop["enum"])
    kind = prop.get("type")
    if kind == "array" and isinstance(prop.get("items"), dict):
        return f"array of {_type_name(prop['items'])}"
    if isinstance(kind, list):
        return " or ".join(kind)
    assert isinstance(kind, str), f"no expected type name for {prop}"
    return kind


def _expected_rows(definition: dict[str, Any], words: dict[str, str]) -> dict[str, list[str]]:
    """Field, type, required, default and description of every property of a definition.

    The description is the page's own words from ``fields.toml``, else the schema's
    ``description`` (never the ``title``, which only repeats the name). Code spans show as text.
    """
    required = list(definition.get("required", []))
    order = required + [name for name in definition.get("properties", {}) if name not in required]
    rows = {}
    for name in order:
        prop = definition["properties"][name]
        description = str(words.get(name) or prop.get("description", "")).replace("`", "")
        rows[name] = [
            name,
            _type_name(prop),
            "yes" if name in required else "no",
            json.dumps(prop["default"]) if "default" in prop else _NO_DEFAULT,
            normalise_space(re.sub(r"``(.+?)``", r"\1", description)),
        ]
    return rows


def _definitions(schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    definitions = {str(schema["title"]): schema}
    definitions.update(schema.get("$defs", {}))
    return {name: d for name, d in definitions.items() if "properties" in d}


@pytest.mark.parametrize("extension", EXTENSIONS, ids=_IDS)
def test_the_spec_page_has_the_extension_title(
    extension: ExtensionFolder, spec_page: OpenPage, site_url: str, repo_root: Path
) -> None:
    page, problems = spec_page(_spec_path(extension, site_url))
    site_name = mkdocs_setting(repo_root, "site_name")
    assert page.title() == f"{extension.title} - {site_name}"
    heading = page.locator("article h1").evaluate(_TEXT_WITHOUT_PERMALINK)
    assert normalise_space(heading) == extension.title
    assert not problems.found, problems.found


@pytest.mark.parametrize("extension", EXTENSIONS, ids=_IDS)
def test_the_field_tables_have_a_row_for_every_schema_property(
    extension: ExtensionFolder, spec_page: OpenPage, site_url: str
) -> None:
    page, _ = spec_page(_spec_path(extension, site_url))
    tables = page.evaluate(_FIELD_TABLES)
    definitions = _definitions(_schema(extension))
    fields_file = extension.folder / "fields.toml"
    words: dict[str, dict[str, str]] = (
        tomllib.loads(fields_file.read_text(encoding="utf-8")) if fields_file.is_file() else {}
    )
    assert definitions, "the schema defines no properties"
    for name, definition in definitions.items():
        field_tables = [t for t in tables.get(name, []) if t["header"] == _FIELD_HEADER]
        assert len(field_tables) == 1, f"expected one field table for {name}, found {tables}"
        shown = {row[0]: [normalise_space(cell) for cell in row] for row in field_tables[0]["rows"]}
        expected = _expected_rows(definition, words.get(name, {}))
        assert shown == expected, f"field table of {name}"
        assert list(shown) == list(expected), f"rows of {name}: required first, schema order"


@pytest.mark.parametrize("extension", EXTENSIONS, ids=_IDS)
def test_the_schema_download_saves_the_committed_file(
    extension: ExtensionFolder, spec_page: OpenPage, site_url: str, tmp_path: Path
) -> None:
    page, problems = spec_page(_spec_path(extension, site_url))
    with page.expect_download() as download_info:
        page.locator("#download-schema").click()
    download = download_info.value
    assert download.suggested_filename == "schema.json"
    saved = tmp_path / "downloaded-schema.json"
    download.save_as(saved)
    assert saved.read_bytes() == extension.schema_path.read_bytes()
    assert not problems.found, problems.found


@pytest.mark.parametrize("extension", EXTENSIONS, ids=_IDS)
def test_code_blocks_have_copy_buttons_that_copy_the_schema(
    extension: ExtensionFolder, spec_page: OpenPage, site_url: str
) -> None:
    page, _ = spec_page(_spec_path(extension, site_url))
    code_blocks = page.locator("article div.highlight pre > code").count()
    assert code_blocks > 0
    assert page.locator("article button[data-md-type=copy]").count() == code_blocks
    schema_block = page.locator(
        "article div.highlight", has=page.get_by_text("schema.json", exact=True)
    ).first
    schema_block.hover()
    schema_block.locator("button[data-md-type=copy]").click()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert json.loads(copied) == _schema(extension)


_DIAGRAM_COLOURS = """
(svg) => {
  const colour = (element, property) => getComputedStyle(element)[property];
  let background = null;
  for (let node = svg; node && !background; node = node.parentElement) {
    const value = getComputedStyle(node).backgroundColor;
    if (value && value !== "rgba(0, 0, 0, 0)" && value !== "transparent") background = value;
  }
  return {
    background: background || "rgb(255, 255, 255)",
    arrowhead: colour(svg.querySelector("marker#arrowhead path"), "fill"),
    line: colour(svg.querySelector(".messageLine0"), "stroke"),
    text: colour(svg.querySelector("text.messageText"), "fill"),
  };
}
"""


def _luminance(css_colour: str) -> float:
    red, green, blue = (int(part) for part in re.findall(r"\d+", css_colour)[:3])

    def channel(value: int) -> float:
        scaled = value / 255
        return scaled / 12.92 if scaled <= 0.03928 else ((scaled + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)


def _contrast(one: str, other: str) -> float:
    light, dark = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("extension", EXTENSIONS, ids=_IDS)
def test_the_sequence_diagram_is_an_accessible_svg_in_both_schemes(
    extension: ExtensionFolder, spec_page: OpenPage, site_url: str, scheme: ColorScheme
) -> None:
    spec = extension.spec_path.read_text(encoding="utf-8")
    diagrams = re.findall(r"^```mermaid\n(.*?)^```", spec, re.M | re.S)
    if not diagrams:
        pytest.skip(f"{extension.key} has no diagram")
    page, problems = spec_page(_spec_path(extension, site_url), settle=True, color_scheme=scheme)
    svgs = page.locator("article figure.th-diagram > svg[role=img]")
    assert svgs.count() == len(diagrams)
    for svg, source in zip(svgs.all(), diagrams, strict=True):
        box = svg.bounding_box()
        assert box is not None and box["width"] > 100 and box["height"] > 100
        title = re.search(r"^\s*accTitle:\s*(.+?)\s*$", source, re.M)
        assert title is not None, "the diagram source has no accTitle"
        labelled_by = svg.get_attribute("aria-labelledby")
        assert svg.locator(f"title#{labelled_by}").text_content() == title[1]
        described_by = svg.get_attribute("aria-describedby")
        assert (svg.locator(f"desc#{described_by}").text_content() or "").strip()
        drawn = svg.text_content() or ""
        for participant in re.findall(r"^\s*participant \S+ as (.+?)\s*$", source, re.M):
            assert participant in drawn, f"participant {participant!r} not drawn"
        colours = svg.evaluate(_DIAGRAM_COLOURS)
        for part in ("arrowhead", "line", "text"):  # WCAG 1.4.11: 3:1 for graphics
            ratio = _contrast(colours[part], colours["background"])
            assert ratio >= 4.5 if part == "text" else ratio >= 3, (scheme, part, colours)
    scripts = [
        url
        for url in page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
        if "mermaid" in url.lower()
    ]
    assert scripts == [], "a page loaded a diagram script"
    assert not problems.found, problems.found


@pytest.mark.parametrize("extension", EXTENSIONS, ids=_IDS)
def test_the_light_dark_toggle_switches_the_scheme(
    extension: ExtensionFolder, open_page: OpenPage, site_url: str, tmp_path: Path
) -> None:
    page, problems = open_page(_spec_path(extension, site_url))
    body = page.locator("body")
    toggle = page.locator("form[data-md-component=palette] label:visible")

    def state() -> tuple[str | None, str]:
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        return body.get_attribute("data-md-color-scheme"), str(background)

    light = state()
    assert light[0] == "default"
    toggle.click()
    dark = state()
    assert dark[0] == "slate"
    assert dark[1] != light[1], "the scheme changed but the page looks the same"
    toggle.click()
    assert state() == light
    screenshot = tmp_path / "spec-page.png"
    page.screenshot(path=screenshot, full_page=True)
    assert screenshot.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert not problems.found, problems.found
