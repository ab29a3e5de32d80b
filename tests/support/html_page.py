"""Reading a served HTML page with the standard library: its text, its links and its anchors.

The site checks look at pages the way a crawler does, without a browser: the visible text
(whitespace-normalised, scripts and styles left out), every ``href``/``src`` with the tag it is
on, and every fragment target (``id`` on any element, ``name`` on ``<a>``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

__all__ = ["Link", "ParsedPage", "normalise_space", "parse_html"]

_LINK_ATTRIBUTES = ("href", "src")
_INVISIBLE = {"script", "style", "template"}
# Elements whose edges separate words in the text, as a browser's line breaks do.
_BLOCKS = frozenset(
    {
        "p", "div", "li", "td", "th", "tr", "br", "pre", "table", "ul", "ol",
        "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "header", "footer", "nav",
    }
)  # fmt: skip


@dataclass(frozen=True)
class Link:
    tag: str
    attribute: str
    value: str


@dataclass
class ParsedPage:
    text: str = ""
    title: str = ""
    links: list[Link] = field(default_factory=list)
    anchors: set[str] = field(default_factory=set)


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = ParsedPage()
        self._chunks: list[str] = []
        self._title: list[str] = []
        self._invisible_depth = 0
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._visit(tag, attrs)
        if tag in _INVISIBLE:
            self._invisible_depth += 1
        elif tag == "title":
            self._in_title = True
        if tag in _BLOCKS:
            self._chunks.append(" ")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._visit(tag, attrs)
        if tag in _BLOCKS:
            self._chunks.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _INVISIBLE:
            self._invisible_depth = max(0, self._invisible_depth - 1)
        elif tag == "title":
            self._in_title = False
        if tag in _BLOCKS:
            self._chunks.append(" ")

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self._title.append(data)
        elif not self._invisible_depth:
            self._chunks.append(data)

    def _visit(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name in _LINK_ATTRIBUTES:
                self.page.links.append(Link(tag, name, value))
            elif name == "id" or (name == "name" and tag == "a"):
                self.page.anchors.add(value)

    def finish(self) -> ParsedPage:
        self.close()
        self.page.text = normalise_space("".join(self._chunks))
        self.page.title = normalise_space("".join(self._title))
        return self.page


def normalise_space(text: str) -> str:
    return " ".join(text.split())


def parse_html(html: str) -> ParsedPage:
    """The text, title, links and anchors of one HTML document."""
    parser = _Parser()
    parser.feed(html)
    return parser.finish()
