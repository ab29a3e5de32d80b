"""The spec page keeps the extension's normative sentences word for word."""

from __future__ import annotations

import re

from tests.support.seed import seed_text
from th_ext import find


def normative_sentences() -> list[str]:
    text = seed_text()
    prose = text.split("URI:", 1)[1].split("\n", 1)[1].split("\n{\n", 1)[0]
    sentences = re.split(r"(?<=[.:])\s+(?=[A-Z])", " ".join(prose.split()))
    return [sentence for sentence in sentences if sentence]


def plain(markdown: str) -> str:
    return " ".join(markdown.replace("`", "").split())


def test_every_normative_sentence_stands_in_the_specification_section() -> None:
    spec = find("commands/v1").spec_text()
    section = spec.split("## Specification", 1)[1].split("\n## ", 1)[0]
    sentences = normative_sentences()
    assert len(sentences) == 5
    for sentence in sentences:
        assert sentence in plain(section), sentence
