"""The fenced code blocks of a Markdown file, so that tests run the lines the docs give.

A reader copies the README's and the site's code blocks as they are; the tests take them from
the same place instead of keeping a copy of their own that could drift.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

__all__ = ["CodeBlock", "code_blocks", "one_block"]

_FENCE = re.compile(r"^```([\w-]*)[^\n]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
#: An HTML comment alone on the line right above a fence (the block's label, if any).
_COMMENT_ABOVE = re.compile(r"<!--(.*?)-->[ \t]*\n\Z", re.DOTALL)


@dataclass(frozen=True)
class CodeBlock:
    language: str
    text: str
    start: int = 0
    """Where ``text`` starts in the file's text (a character offset)."""
    end: int = 0
    """Where ``text`` ends in the file's text."""
    comment: str | None = None
    """The text of the HTML comment on the line right above the fence, stripped."""


def code_blocks(path: Path) -> list[CodeBlock]:
    """Every fenced block of the Markdown file at ``path``, in order."""
    text = path.read_text(encoding="utf-8")
    blocks = []
    for match in _FENCE.finditer(text):
        line_start = text.rfind("\n", 0, max(match.start() - 1, 0)) + 1
        above = _COMMENT_ABOVE.search(text, line_start, match.start())
        comment = above.group(1).strip() if above and above.start() == line_start else None
        blocks.append(
            CodeBlock(match.group(1), match.group(2), match.start(2), match.end(2), comment)
        )
    return blocks


def one_block(path: Path, language: str, wanted: Callable[[str], bool]) -> CodeBlock:
    """The one block of ``language`` in ``path`` whose text ``wanted`` accepts."""
    found = [b for b in code_blocks(path) if b.language == language and wanted(b.text)]
    assert len(found) == 1, f"{path.name}: {len(found)} {language} blocks match, not one"
    return found[0]
