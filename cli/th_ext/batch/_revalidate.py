"""Asking for a card again with the entity tag an earlier run recorded for it (``If-None-Match``),
and that run's verdict carried over when the server answers that the card has not changed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from th_ext.batch._jsonl import exit_code_of
from th_ext.net._caching import (
    MalformedHeaderError,
    entity_tag,
    field_values,
    parse_http_date,
)
from th_ext.sources import SourceBytes

__all__ = ["FETCHED_UNCHANGED", "FETCHED_WHOLE", "Revalidation", "carried_over", "validators"]

FETCHED_WHOLE = "whole"
"""``fetch`` of a line whose card was read and checked."""
FETCHED_UNCHANGED = "unchanged"
"""``fetch`` of a line whose card the server said was unchanged: the earlier line, carried."""


@dataclass(frozen=True, slots=True)
class Revalidation:
    """What an earlier run recorded: ``etag_of(source)``, the entity tag of the card it read
    (``None``: fetch it whole), and ``document_of(source)``, its line of JSON Lines. Only a
    run of the same th-ext with the same options that change verdicts may be carried over."""

    etag_of: Callable[[str], str | None]
    document_of: Callable[[str], dict[str, Any] | None]


def validators(headers: Sequence[tuple[str, str]] | None) -> tuple[str | None, str | None]:
    """The ``ETag`` and ``Last-Modified`` of a card response worth recording: each only when it
    is sent once and well formed (a tag with a control character is never sent back)."""
    if headers is None:
        return None, None
    tags = field_values(headers, "etag")
    dates = field_values(headers, "last-modified")
    tag = date = None
    if len(tags) == 1:
        with suppress(MalformedHeaderError):
            tag = entity_tag(tags[0])
    if len(dates) == 1:
        with suppress(MalformedHeaderError):
            parse_http_date(dates[0])
            date = dates[0].strip(" \t")
    return tag, date


def carried_over(
    earlier: dict[str, Any] | None, raw: SourceBytes, asked: str
) -> dict[str, Any] | None:
    """The earlier line of a card the server answered 304 about (its ``fetch`` set to
    ``unchanged``), or ``None`` when the answer cannot stand for that card: no earlier line of
    ``validate``, another URL than the one the card was read from, or a 304 whose ``ETag`` is
    not the tag ``asked`` with (compared weakly, as ``If-None-Match`` is), or is missing."""
    if earlier is None or exit_code_of(earlier, "validate") is None:
        return None
    if earlier.get("location") != raw.location:
        return None
    tags = field_values(raw.headers or (), "etag")
    if len(tags) != 1 or tags[0].strip(" \t").removeprefix("W/") != asked.removeprefix("W/"):
        return None  # a 304 sends the tag a 200 would (RFC 9110 section 15.4.5)
    return {**earlier, "fetch": FETCHED_UNCHANGED}
