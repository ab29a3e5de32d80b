"""Code blocks in headless Chromium: a comment stays on its own line of code at 1280 px, and a
line too long for the block wraps with the rest indented under its start, never reading as a
line of its own (on a phone, where long lines must wrap)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from tests.support.browser import ACTION_TIMEOUT_MS

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PAGES = [
    "",
    "th-ext/",
    "th-ext/validate/",
    "th-ext/dispatch/",
    "th-ext/conform/",
    "th-ext/ci/",
    "th-ext/publishing/",
]

#: Each line of each code block: its text, whether it holds a comment, and the left edge of
#: each of its lines on screen (one per line it takes).
_LINES = """
() => [...document.querySelectorAll(".md-typeset pre > code")].flatMap((code) => {
  const lines = [...code.children].filter((child) => child.id.startsWith("__span-"));
  const height = parseFloat(getComputedStyle(code).lineHeight);
  return lines.map((line) => {
    const range = document.createRange();
    range.selectNodeContents(line);
    const boxes = [...range.getClientRects()].filter((box) => box.width > 0);
    const rows = new Map();
    for (const box of boxes) {
      const row = Math.round(box.top / height);
      rows.set(row, Math.min(rows.get(row) ?? Infinity, box.left));
    }
    return {
      text: line.textContent.replace(/\\n$/, ""),
      comment: line.querySelector(".c, .c1, .ch, .cm") !== null,
      lefts: [...rows.entries()].sort((a, b) => a[0] - b[0]).map((entry) => entry[1]),
    };
  });
})
"""

#: The blocks as they were: every line wrapped back to the block's left edge.
_NO_HANGING_INDENT = """
.md-typeset pre > code > span[id^="__span-"] { padding-left: 0 !important;
  text-indent: 0 !important; }
"""


@pytest.fixture
def open_at(browser: Browser, site_base_url: str) -> Iterator[Any]:
    contexts = []

    def open_(path: str, width: int) -> Page:
        context = browser.new_context(viewport={"width": width, "height": 900})
        contexts.append(context)
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        page = context.new_page()
        response = page.goto(site_base_url + path, wait_until="load")
        assert response is not None and response.status == 200, path
        return page

    yield open_
    for context in contexts:
        context.close()


def _wrapped_flush(lines: list[dict[str, Any]]) -> list[str]:
    """The lines whose rest starts at the block's left edge, as a line of its own would."""
    return [
        line["text"]
        for line in lines
        if len(line["lefts"]) > 1 and min(line["lefts"][1:]) <= line["lefts"][0] + 1
    ]


@pytest.mark.parametrize("path", PAGES)
def test_at_1280_px_no_line_with_a_comment_wraps(open_at: Any, path: str) -> None:
    lines = open_at(path, 1280).evaluate(_LINES)
    assert lines, "no code block on the page"
    wrapped = [line["text"] for line in lines if line["comment"] and len(line["lefts"]) > 1]
    assert wrapped == []


@pytest.mark.parametrize("path", PAGES)
def test_on_a_phone_a_wrapped_line_is_indented_under_its_start(open_at: Any, path: str) -> None:
    lines = open_at(path, 390).evaluate(_LINES)
    assert any(len(line["lefts"]) > 1 for line in lines), "nothing wraps at 390 px"
    assert _wrapped_flush(lines) == []


def test_the_indent_check_fails_without_the_hanging_indent(open_at: Any) -> None:
    page = open_at("th-ext/", 390)
    page.add_style_tag(content=_NO_HANGING_INDENT)
    assert _wrapped_flush(page.evaluate(_LINES))
