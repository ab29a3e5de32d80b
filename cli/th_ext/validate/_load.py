"""Reading a card for a command that needs the card, not a report on it.

``dispatch``, ``commands`` and the demo read a card, use it, and stop with a clear error when
the bytes are not a JSON object. They share the validator's document parser, so that every
command agrees on what a card document is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from th_ext._exceptions import CardDocumentError
from th_ext.problems._problem import Problem
from th_ext.sources._source import SourceLimits, read_source
from th_ext.validate._document import parse_document

if TYPE_CHECKING:
    from th_ext.net import HeaderScope

__all__ = ["LoadedCard", "load_card"]


@dataclass(frozen=True, slots=True)
class LoadedCard:
    """A card read and parsed: a JSON object, plus the warnings about reading and parsing it.

    ``problems`` holds the notices of the source and the document problems that did not stop
    the card from being read (a byte-order mark, a duplicate key, ``NaN``), in document order.
    """

    source: str
    location: str
    card: dict[str, Any]
    problems: tuple[Problem, ...] = ()


def load_card(
    source: str, limits: SourceLimits | None = None, *, scope: HeaderScope | None = None
) -> LoadedCard:
    """Read ``source`` and parse it as a card: a JSON object.

    Raises what ``read_source`` raises, and ``CardDocumentError`` when the bytes are not a JSON
    object (empty, not UTF-8, not JSON, nested too deep, or a top-level array or scalar). Its
    ``code`` is the document problem's code (``empty-document``, ``invalid-utf8``,
    ``invalid-json``, ``too-deep``, ``not-an-object``).
    """
    raw = read_source(source, limits, scope=scope)
    document = parse_document(raw.data)
    fatal = next((p for p in document.problems if p.fatal), None)
    if fatal is not None or not isinstance(document.value, dict):
        problem = fatal or document.problems[-1]
        raise CardDocumentError(
            f"{raw.location}: {problem.message}", code=problem.code, path=problem.path
        )
    return LoadedCard(
        source=raw.source,
        location=raw.location,
        card=document.value,
        problems=raw.notices + document.problems,
    )
