"""The normative text of a spec page: the sentences a published version may not change silently.

A version's normative text is every block (paragraph, or list item) of ``spec.md`` that the
``## Specification`` section holds, that uses an RFC 2119 keyword in capitals, or that holds a
passage a requirement annotates. Code blocks, HTML comments and example directives are left
out, and whitespace is normalised, so re-wrapping a paragraph is not a change. Each block has
a short digest, which the lock records; the whole text has one too.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

__all__ = ["NormativeBlock", "block_digest", "normative_blocks", "text_digest"]

_KEYWORDS = re.compile(r"\b(?:MUST|SHALL|SHOULD|MAY|REQUIRED|RECOMMENDED|OPTIONAL)\b")
_ITEM = re.compile(r"(?:[-*+]|[0-9]{1,3}[.)]) ")


@dataclass(frozen=True, slots=True)
class NormativeBlock:
    """One normative block, its words joined by single spaces, and its first line in spec.md."""

    text: str
    line: int


def _blocks(spec: str) -> list[tuple[str, int, str]]:
    """``(text, line, section)`` for every paragraph and list item outside code fences."""
    found: list[tuple[str, int, str]] = []
    section, fence = "", False
    current: list[str] = []
    start = 0

    def close() -> None:
        text = " ".join(" ".join(current).split())
        if text and not text.startswith("<!--"):
            found.append((text, start, section))
        current.clear()

    for number, line in enumerate(spec.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("```"):
            close()
            fence = not fence
            continue
        if fence:
            continue
        if stripped.startswith("#"):
            close()
            section = stripped.lstrip("#").strip()
            continue
        if not stripped or _ITEM.match(stripped) is not None:
            close()
        if stripped:
            if not current:
                start = number
            current.append(stripped)
    close()
    return found


def normative_blocks(spec: str, passages: list[str]) -> list[NormativeBlock]:
    """The normative blocks of ``spec``, in order; ``passages`` are the annotated passages."""
    wanted = [" ".join(passage.split()) for passage in passages if passage.strip()]
    return [
        NormativeBlock(text, line)
        for text, line, section in _blocks(spec)
        if section == "Specification"
        or _KEYWORDS.search(text) is not None
        or any(passage in text for passage in wanted)
    ]


def block_digest(block: NormativeBlock) -> str:
    """The first 16 hex digits of the sha256 of the block's text."""
    return hashlib.sha256(block.text.encode("utf-8")).hexdigest()[:16]


def text_digest(blocks: list[NormativeBlock]) -> str:
    """The sha256 of the whole normative text, one block per line."""
    return hashlib.sha256("\n".join(b.text for b in blocks).encode("utf-8")).hexdigest()
