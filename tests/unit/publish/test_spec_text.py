"""The spec page keeps the extension's normative sentences word for word."""

from __future__ import annotations

from tests.support.seed import normative_sentences
from th_ext import find
from th_ext.catalog._reader import spec_text


def plain(markdown: str) -> str:
    return " ".join(markdown.replace("`", "").split())


def missing_sentences(spec: str) -> list[str]:
    """The normative sentences that the spec's Specification section does not quote exactly."""
    section = plain(spec.split("## Specification", 1)[1].split("\n## ", 1)[0])
    return [sentence for sentence in normative_sentences() if sentence not in section]


def test_every_normative_sentence_stands_in_the_specification_section() -> None:
    assert len(normative_sentences()) == 5
    assert missing_sentences(spec_text(find("commands/v1"))) == []


def test_a_reworded_sentence_is_caught() -> None:
    spec = spec_text(find("commands/v1")).replace("does not change", "never changes", 1)
    assert missing_sentences(spec) == ["The task's state does not change."]
