"""What the caching header fields of a card response tell its author (A2A 1.0 section 8.6):
``caching_problems``, warnings with a code each and a hint that shows the field to send."""

from __future__ import annotations

from collections.abc import Sequence

from th_ext.net._caching import (
    DELTA_SECONDS_CAP,
    MalformedHeaderError,
    entity_tag,
    field_values,
    parse_cache_control,
    parse_http_date,
)
from th_ext.problems import Problem, escape_unsafe

__all__ = ["CACHING_CODES", "MAX_AGE_LIMIT", "caching_problems", "source_warning"]

MAX_AGE_LIMIT = 365 * 24 * 3600
"""The longest ``max-age`` taken as meant: a client keeps a card of a longer one for over a year
after it changes (HTTP/1.1 long asked servers not to send an ``Expires`` more than a year
ahead, for the same reason)."""

SECTION = "A2A 1.0 section 8.6.1"
_ASKS_CACHE_CONTROL = (
    f"{SECTION}: card endpoints SHOULD include a Cache-Control response header with a max-age "
    "directive appropriate for the agent's expected update frequency"
)
_SEND_CACHE_CONTROL = "send for example 'Cache-Control: public, max-age=3600'"
_ASKS_ETAG = (
    f"{SECTION}: card endpoints SHOULD include an ETag response header derived from the card's "
    "version field or a hash of the card content"
)

CACHING_CODES = (
    "card-cache-control-missing",
    "card-cache-forbidden",
    "card-cache-max-age-missing",
    "card-cache-max-age-too-long",
    "card-cache-control-malformed",
    "card-etag-missing",
    "card-etag-malformed",
    "card-last-modified-malformed",
    "card-expires-malformed",
)
"""Every code ``caching_problems`` reports, in the order the site lists them."""


def caching_problems(headers: Sequence[tuple[str, str]] | None) -> list[Problem]:
    """The warnings on the caching fields of a card response, whose header fields are
    ``headers`` (lower-case names, in order); none for ``None`` (a card read from a file)."""
    if headers is None:
        return []
    return [
        *_cache_control(field_values(headers, "cache-control")),
        *_etag(field_values(headers, "etag")),
        *_date("last-modified", "Last-Modified", field_values(headers, "last-modified")),
        *_date("expires", "Expires", field_values(headers, "expires")),
    ]


def source_warning(code: str, message: str, hint: str) -> Problem:
    """A warning about how the source was read or served."""
    return Problem("warning", code, "", message, hint, "source")


def _shown(value: str) -> str:
    """A field value as a message quotes it: on one line, control characters made visible,
    at most 80 characters."""
    cut = value if len(value) <= 80 else value[:79]  # cut first: a value may be 100 KB
    text = escape_unsafe(cut).replace("\n", "\\n").replace("\t", "\\t")
    return f"'{text}'" if cut is value else f"'{text}…'"


def _cache_control(values: list[str]) -> list[Problem]:
    if not values:
        return [
            source_warning(
                "card-cache-control-missing",
                "the card response has no Cache-Control header: a client cannot tell how long "
                "it may keep the card",
                f"{_ASKS_CACHE_CONTROL}; {_SEND_CACHE_CONTROL}",
            )
        ]
    text = ", ".join(values)
    try:
        found = parse_cache_control(text)
    except MalformedHeaderError as exc:
        return [
            source_warning(
                "card-cache-control-malformed",
                f"the card response's Cache-Control {_shown(text)} is malformed: {exc}",
                "RFC 9111 section 5.2: directives separated by commas, each a name with an "
                f"optional =value, each once; {_SEND_CACHE_CONTROL} ({SECTION})",
            )
        ]
    forbidding = found.forbids_caching()
    if forbidding is not None and "private" not in found:
        return [
            source_warning(
                "card-cache-forbidden",
                f"the card response forbids caching (Cache-Control: {found}) without saying why: "
                "every client must fetch the card again each time it needs it",
                f"{_ASKS_CACHE_CONTROL}; {_SEND_CACHE_CONTROL}, or, for a card that differs for "
                "each caller, say so with 'Cache-Control: private, no-cache'",
            )
        ]
    max_age = found.seconds("max-age")
    if max_age is None and forbidding is None:
        return [
            source_warning(
                "card-cache-max-age-missing",
                f"the card response's Cache-Control ({found}) gives no max-age: a client cannot "
                "tell how long it may keep the card",
                f"{_ASKS_CACHE_CONTROL}; {_SEND_CACHE_CONTROL}",
            )
        ]
    if max_age is not None and max_age > MAX_AGE_LIMIT:
        capped = " (RFC 9111 caps it at 2^31 seconds)" if max_age >= DELTA_SECONDS_CAP else ""
        return [
            source_warning(
                "card-cache-max-age-too-long",
                f"the card response's max-age of {max_age} seconds is over a year{capped}: "
                "clients would keep the card that long after it changes",
                f"{_ASKS_CACHE_CONTROL}; {_SEND_CACHE_CONTROL} (a day is 86400)",
            )
        ]
    return []


def _etag(values: list[str]) -> list[Problem]:
    if not values:
        return [
            source_warning(
                "card-etag-missing",
                "the card response has no ETag: a client cannot ask whether the card changed "
                "without fetching it whole",
                f"{_ASKS_ETAG}; send for example 'ETag: \"<sha-256 of the card>\"' and answer a "
                "request whose If-None-Match holds it with 304 Not Modified",
            )
        ]
    if len(values) > 1:
        reason = f"it is sent {len(values)} times"
    else:
        try:
            entity_tag(values[0])
            return []
        except MalformedHeaderError as exc:
            reason = str(exc)
    return [
        source_warning(
            "card-etag-malformed",
            f"the card response's ETag {_shown(', '.join(values))} is malformed: {reason}",
            f"RFC 9110 section 8.8.3: one quoted entity tag, such as 'ETag: \"v1\"' or "
            f"'ETag: W/\"v1\"' ({SECTION})",
        )
    ]


def _date(field: str, name: str, values: list[str]) -> list[Problem]:
    if not values:
        return []
    if len(values) > 1:
        reason = f"it is sent {len(values)} times"
    else:
        try:
            parse_http_date(values[0])
            return []
        except MalformedHeaderError as exc:
            reason = str(exc)
    expired = " (a client takes it as already expired)" if field == "expires" else ""
    return [
        source_warning(
            f"card-{field}-malformed",
            f"the card response's {name} {_shown(', '.join(values))} is malformed: "
            f"{reason}{expired}",
            f"RFC 9110 section 5.6.7: one date in the IMF-fixdate form, such as "
            f"'{name}: Sun, 06 Nov 1994 08:49:37 GMT'",
        )
    ]
