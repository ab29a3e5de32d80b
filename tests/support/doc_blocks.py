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


@dataclass(frozen=True)
class CodeBlock:
    language: str
    text: str


def code_blocks(path: Path) -> list[CodeBlock]:
    """Every fenced block of the Markdown file at ``path``, in order."""
    text = path.read_text(encoding="utf-8")
    return [CodeBlock(match.group(1), match.group(2)) for match in _FENCE.finditer(text)]


def one_block(path: Path, language: str, wanted: Callable[[str], bool]) -> CodeBlock:
    """The one block of ``language`` in ``path`` whose text ``wanted`` accepts."""
    found = [b for b in code_blocks(path) if b.language == language and wanted(b.text)]
    assert len(found) == 1, f"{path.name}: {len(found)} {language} blocks match, not one"
    return found[0]
