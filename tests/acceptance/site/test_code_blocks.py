"""Code blocks at 1280 px in headless Chromium: a comment stays on its line of code. A line too
long for the block wraps (long JSON and commands do, on purpose); one holding a comment would
put the comment, or the code after it, on a line that reads as one of its own, so the site
writes the comment on the line above instead."""

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
    "th-ext/fleet/",
    "th-ext/dispatch/",
    "th-ext/conform/",
    "th-ext/ci/",
]

#: Each line of each code block: its text, whether it holds a comment, and how many lines it
#: takes on screen.
_LINES = """
() => [...document.querySelectorAll(".md-typeset pre > code")].flatMap((code) => {
  const height = parseFloat(getComputedStyle(code).lineHeight);
  const texts = [];
  const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node);
  const lines = [];
  let line = null;
  const close = (node, offset) => {
    if (line === null) return;
    const range = document.createRange();
    range.setStart(line.node, line.offset);
    range.setEnd(node, offset);
    const rows = new Set([...range.getClientRects()].filter((box) => box.width > 0)
      .map((box) => Math.round(box.top / height)));
    lines.push({ text: line.text, comment: line.comment, rows: rows.size });
    line = null;
  };
  for (const node of texts) {
    const comment = node.parentElement.matches(".c, .c1, .ch, .cm, .sd");
    for (let i = 0; i < node.nodeValue.length; i++) {
      if (node.nodeValue[i] === "\\n") { close(node, i); continue; }
      if (line === null) line = { node, offset: i, text: "", comment: false };
      line.text += node.nodeValue[i];
      line.comment ||= comment;
    }
  }
  const last = texts[texts.length - 1];
  if (last) close(last, last.nodeValue.length);
  return lines;
})
"""

#: The install block as it was: each command with its comment after it.
_OLD_INSTALL_BLOCK = """
(block) => {
  block.querySelector("code").textContent =
    'pip install "th-ext[demo] @ git+https://github.com/madarauchiha-314/th-ext"   ' +
    "# plus the demo agent, on the official A2A SDK\\n";
  block.querySelector("code").innerHTML = block.querySelector("code").innerHTML.replace(
    "# plus", '<span class="c1"># plus') + "</span>";
}
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


def _wrapped_comments(lines: list[dict[str, Any]]) -> list[str]:
    return [line["text"] for line in lines if line["comment"] and line["rows"] > 1]


@pytest.mark.parametrize("path", PAGES)
def test_at_1280_px_no_line_with_a_comment_wraps(open_at: Any, path: str) -> None:
    lines = open_at(path, 1280).evaluate(_LINES)
    assert any(line["comment"] for line in lines), "no comment in the page's code"
    assert _wrapped_comments(lines) == []


def test_the_check_fails_on_the_old_install_block(open_at: Any) -> None:
    page = open_at("th-ext/", 1280)
    page.locator(".md-typeset pre").first.evaluate(_OLD_INSTALL_BLOCK)
    assert _wrapped_comments(page.evaluate(_LINES)) == [
        'pip install "th-ext[demo] @ git+https://github.com/madarauchiha-314/th-ext"   '
        "# plus the demo agent, on the official A2A SDK"
    ]
