"""Compare two builds of the site file by file: what a switch of site generator would change.

``python tools/compare_sites.py build/site build/zensical`` lists the files only one build
has, then, for each page both have, the differences a reader or a link would notice: from
the page's ``<article>`` (the content, not the theme around it) its links, headings, anchors,
admonitions and code blocks, and from its head the title and canonical URL. Every ``.json``
file both have (the schemas, the catalog, the examples) must be the same bytes.
``--ignore PREFIX`` leaves out a folder such as the theme's ``assets/``. Exit 0 when nothing
differs, 1 when something does.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

__all__ = ["PageContent", "compare", "main", "read_page"]

_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
# Elements that never have a closing tag: they neither open nor close a region.
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
         "track", "wbr"}  # fmt: skip


@dataclass
class PageContent:
    """What a reader or a link sees in one page's content."""

    links: Counter[str] = field(default_factory=Counter)
    headings: list[str] = field(default_factory=list)
    anchors: set[str] = field(default_factory=set)
    admonitions: list[str] = field(default_factory=list)
    code_blocks: list[str] = field(default_factory=list)
    head: list[str] = field(default_factory=list)  # the title and the canonical URL


class _Reader(HTMLParser):
    """Collects a page's content from its ``<article>`` (the whole body when it has none)."""

    def __init__(self, scoped: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.page = PageContent()
        self.depth = 0 if scoped else 1  # > 0 while inside the content
        self.heading: tuple[str, str, list[str]] | None = None
        self.admonition: tuple[int, str] | None = None  # (depth it opened at, its kind)
        self.admonition_title: list[str] | None = None
        self.pre: list[str] | None = None
        self.title: list[str] | None = None
        self.permalink = 0  # the depth of the heading's permalink, whose text is not the heading's

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "title":
            self.title = []
        if tag == "link" and values.get("rel") == "canonical":
            self.page.head.append(f"canonical {values.get('href', '')}")
        if tag == "article" and self.depth == 0:
            self.depth = 1
            return
        if self.depth == 0:
            return
        if tag not in _VOID:
            self.depth += 1
        if values.get("id"):
            self.page.anchors.add(values["id"])
        if tag == "a" and "headerlink" in values.get("class", ""):
            self.permalink = self.depth
        elif tag == "a" and "href" in values:
            self.page.links[values["href"]] += 1
        if tag in _HEADINGS:
            self.heading = (tag, values.get("id", ""), [])
        classes = values.get("class", "").split()
        if tag in ("div", "details") and ("admonition" in classes or tag == "details"):
            kinds = [c for c in classes if c not in ("admonition", "is-open")]
            self.admonition = (self.depth, f"{tag}.{'.'.join(kinds)}")
        if "admonition-title" in classes or (tag == "summary" and self.admonition):
            self.admonition_title = []
        if tag == "pre":
            self.pre = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "title" and self.title is not None:
            self.page.head.append(f"title {' '.join(''.join(self.title).split())}")
            self.title = None
        if self.depth == 0 or tag in _VOID:
            return
        if tag in _HEADINGS and self.heading is not None:
            name, anchor, text = self.heading
            self.page.headings.append(f"{name}#{anchor} {' '.join(''.join(text).split())}")
            self.heading = None
        if self.admonition_title is not None and tag in ("p", "summary"):
            kind = self.admonition[1] if self.admonition else "?"
            title = " ".join("".join(self.admonition_title).split())
            self.page.admonitions.append(f"{kind}: {title}")
            self.admonition_title = None
        if tag == "pre" and self.pre is not None:
            self.page.code_blocks.append("".join(self.pre).strip())
            self.pre = None
        if self.permalink == self.depth:
            self.permalink = 0
        if self.admonition and self.admonition[0] == self.depth:
            self.admonition = None
        self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.title is not None:
            self.title.append(data)
        if self.depth == 0 or self.permalink:
            return
        for part in (self.heading[2] if self.heading else None, self.admonition_title, self.pre):
            if part is not None:
                part.append(data)


def read_page(path: Path) -> PageContent:
    """The content of the HTML page at ``path``."""
    text = path.read_text(encoding="utf-8", errors="replace")
    reader = _Reader(scoped="<article" in text)
    reader.feed(text)
    reader.close()
    return reader.page


def _files(root: Path, ignore: tuple[str, ...]) -> set[str]:
    return {
        path.relative_to(root).as_posix()
        for path in root.rglob("*")
        if path.is_file() and not path.relative_to(root).as_posix().startswith(ignore)
    }


def _differ(label: str, left: Counter[str], right: Counter[str]) -> list[str]:
    lines = []
    for side, extra in (("only in the first", left - right), ("only in the second", right - left)):
        for item in sorted(extra):
            shown = item if len(item) <= 120 else item[:117] + "..."
            lines.append(f"  {label} {side}: {shown!r}")
    return lines


def compare(first: Path, second: Path, ignore: tuple[str, ...] = ()) -> list[str]:
    """Every difference between the builds in ``first`` and ``second``, one line each."""
    left, right = _files(first, ignore), _files(second, ignore)
    report = [f"only in {first}: {name}" for name in sorted(left - right)]
    report += [f"only in {second}: {name}" for name in sorted(right - left)]
    for name in sorted(left & right):
        if name.endswith(".json"):
            if (first / name).read_bytes() != (second / name).read_bytes():
                report.append(f"{name}: the bytes differ")
        elif name.endswith(".html"):
            a, b = read_page(first / name), read_page(second / name)
            lines = _differ("head", Counter(a.head), Counter(b.head))
            lines += _differ("link", a.links, b.links)
            lines += _differ("heading", Counter(a.headings), Counter(b.headings))
            lines += _differ("anchor", Counter(a.anchors), Counter(b.anchors))
            lines += _differ("admonition", Counter(a.admonitions), Counter(b.admonitions))
            lines += _differ("code block", Counter(a.code_blocks), Counter(b.code_blocks))
            if lines:
                report.append(f"{name}:")
                report += lines
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path)
    parser.add_argument("--ignore", action="append", default=[], metavar="PREFIX",
                        help="leave out paths that start with PREFIX (repeatable)")  # fmt: skip
    args = parser.parse_args(argv)
    for root in (args.first, args.second):
        if not root.is_dir():
            parser.error(f"{root}: not a folder")
    report = compare(args.first, args.second, tuple(args.ignore))
    sys.stdout.write("".join(f"{line}\n" for line in report) or "the builds match\n")
    return 1 if report else 0


if __name__ == "__main__":
    sys.exit(main())
