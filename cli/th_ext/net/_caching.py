"""The HTTP caching header fields of a response, read strictly: ``Cache-Control`` (RFC 9111
section 5.2), HTTP dates (RFC 9110 section 5.6.7) and entity tags (RFC 9110 section 8.8.3)."""

from __future__ import annotations

import email.utils
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

__all__ = [
    "DELTA_SECONDS_CAP",
    "MAX_FIELD_CHARS",
    "CacheControl",
    "MalformedHeaderError",
    "entity_tag",
    "field_values",
    "format_http_date",
    "parse_cache_control",
    "parse_http_date",
    "read_http_date",
]

MAX_FIELD_CHARS = 8192
"""The longest caching header value read (all its field lines together): a card needs a few
directives, and a longer value is refused before any of it is parsed."""

DELTA_SECONDS_CAP = 2**31
"""RFC 9111 section 1.2.2: a delta-seconds greater than a cache can hold counts as 2^31."""

_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_DIGITS = re.compile(r"[0-9]+")
_QDTEXT_RUN = re.compile(r'[^"\\]*')
_NOT_QDTEXT = re.compile(r"[^\t\x20-\x7e\x80-\xff]")
_ENTITY_TAG = re.compile(r'(?:W/)?"[\x21\x23-\x7e\x80-\xff]*"')
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")

_DELTA_DIRECTIVES = frozenset({"max-age", "s-maxage", "stale-while-revalidate", "stale-if-error"})
"""Response directives whose argument is a number of seconds (RFC 9111, RFC 5861)."""
_BARE_DIRECTIVES = frozenset(
    {
        "no-store",
        "no-transform",
        "must-revalidate",
        "proxy-revalidate",
        "must-understand",
        "public",
        "immutable",
    }
)
"""Response directives that take no argument (RFC 9111 section 5.2.2, RFC 8246)."""


class MalformedHeaderError(ValueError):
    """A header field value breaks its grammar; the message says how, in one line."""


@dataclass(frozen=True, slots=True)
class CacheControl:
    """A parsed ``Cache-Control``: its directives in order, names in lower case, each with
    its argument (unquoted) or ``None``. Every name appears once."""

    directives: tuple[tuple[str, str | None], ...]

    def __contains__(self, name: object) -> bool:
        return any(name == directive for directive, _ in self.directives)

    def argument(self, name: str) -> str | None:
        return next((value for directive, value in self.directives if directive == name), None)

    def seconds(self, name: str) -> int | None:
        """The delta-seconds of ``name`` (``max-age``...), at most ``DELTA_SECONDS_CAP``;
        ``None`` when the directive is absent."""
        value = self.argument(name)
        if value is None:
            return None
        return DELTA_SECONDS_CAP if len(value) > 10 else min(int(value), DELTA_SECONDS_CAP)

    def forbids_caching(self) -> str | None:
        """The directive that keeps a client from reusing the response without asking again
        (``no-store``, ``no-cache``, ``max-age=0``), or ``None``."""
        if "no-store" in self:
            return "no-store"
        if "no-cache" in self and self.argument("no-cache") is None:
            return "no-cache"  # a no-cache that names fields forbids only those fields
        if self.seconds("max-age") == 0:
            return "max-age=0"
        return None

    def __str__(self) -> str:
        return ", ".join(
            name if value is None else f"{name}={value}" for name, value in self.directives
        )


def field_values(headers: Sequence[tuple[str, str]], name: str) -> list[str]:
    """The values of every field line named ``name`` (lower case), in order."""
    return [value for field, value in headers if field == name]


def parse_cache_control(text: str) -> CacheControl:
    """``text`` (the field lines joined with ``", "``) as ``CacheControl``, or a
    ``MalformedHeaderError``: a value longer than ``MAX_FIELD_CHARS``, a character out of
    place, a directive given twice, a number of seconds that is not digits (``max-age=-1``),
    an argument to a directive that takes none (``no-store=1``)."""
    if len(text) > MAX_FIELD_CHARS:
        raise MalformedHeaderError(
            f"it is {len(text)} characters long, over the {MAX_FIELD_CHARS} th-ext reads"
        )
    directives: list[tuple[str, str | None]] = []
    seen: set[str] = set()
    end = len(text)
    at = 0
    while True:
        while at < end and text[at] in " \t,":  # empty list elements are allowed
            at += 1
        if at >= end:
            break
        name_match = _TOKEN.match(text, at)
        if name_match is None:
            raise MalformedHeaderError(f"{text[at]!r} at character {at + 1} starts no directive")
        name = name_match.group().lower()
        at = name_match.end()
        argument: str | None = None
        if at < end and text[at] == "=":
            at += 1
            token = _TOKEN.match(text, at)
            if token is not None:
                argument, at = token.group(), token.end()
            else:
                argument, at = _quoted_string(text, at, name)
        while at < end and text[at] in " \t":
            at += 1
        if at < end and text[at] != ",":
            raise MalformedHeaderError(
                f"{text[at]!r} at character {at + 1}, after {name}, where a comma should be"
            )
        if name in seen:
            raise MalformedHeaderError(f"{name} is given more than once")
        seen.add(name)
        _check_argument(name, argument)
        directives.append((name, argument))
    if not directives:
        raise MalformedHeaderError("it holds no directive")
    return CacheControl(tuple(directives))


def _quoted_string(text: str, at: int, name: str) -> tuple[str, int]:
    """The quoted-string at ``text[at]`` unquoted, and where it ends (RFC 9110 section 5.6.4:
    qdtext and quoted-pairs, each a tab, a space, a visible or an obs-text character)."""
    if at >= len(text) or text[at] != '"':
        raise MalformedHeaderError(f"{name}= has no value a directive may take")
    kept: list[str] = []
    at += 1
    while True:
        run = _QDTEXT_RUN.match(text, at)
        assert run is not None  # the pattern matches the empty string
        bad = _NOT_QDTEXT.search(run.group())
        if bad is not None:
            raise MalformedHeaderError(f"{name}= holds {bad.group()!r} in its quoted value")
        kept.append(run.group())
        at = run.end()
        if at >= len(text) or (text[at] == "\\" and at + 1 >= len(text)):
            raise MalformedHeaderError(f"{name}= has a quoted value that never ends")
        if text[at] == '"':
            return "".join(kept), at + 1
        escaped = text[at + 1]  # a quoted-pair: the backslash and the character it quotes
        if _NOT_QDTEXT.match(escaped):
            raise MalformedHeaderError(f"{name}= holds {escaped!r} in its quoted value")
        kept.append(escaped)
        at += 2


def _check_argument(name: str, argument: str | None) -> None:
    if name in _DELTA_DIRECTIVES:
        if argument is None:
            raise MalformedHeaderError(f"{name} has no number of seconds")
        if not _DIGITS.fullmatch(argument):
            shown = argument if len(argument) <= 20 else argument[:19] + "…"
            raise MalformedHeaderError(
                f"{name}={shown} is not a number of seconds (digits only, 0 or more)"
            )
    elif name in _BARE_DIRECTIVES and argument is not None:
        raise MalformedHeaderError(f"{name} takes no value")


def parse_http_date(text: str) -> datetime:
    """An HTTP date in the IMF-fixdate form (``Sun, 06 Nov 1994 08:49:37 GMT``) as an aware
    UTC ``datetime``, or a ``MalformedHeaderError`` that says whether it is no date at all or
    a date in another form (RFC 9110 section 5.6.7: a sender MUST generate IMF-fixdate)."""
    text = text.strip(" \t")
    if len(text) > 64:
        raise MalformedHeaderError(f"it is {len(text)} characters long: no HTTP date is")
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        raise MalformedHeaderError("it is not an HTTP date") from None
    if when.tzinfo is not None and when.utcoffset() != UTC.utcoffset(None):
        raise MalformedHeaderError("it is not in GMT, as an HTTP date must be")
    written = email.utils.format_datetime(when, usegmt=True) if when.tzinfo else ""
    if written[3:] == text[3:] and written[:3].lower() != text[:3].lower():  # another weekday
        raise MalformedHeaderError(
            f"its day of the week is {text[:3]}, but {written[5:16]} is a {written[:3]}"
        )
    if when.tzinfo is None or written != text:
        raise MalformedHeaderError(
            "it is not in the IMF-fixdate form an HTTP date is sent in "
            "(such as 'Sun, 06 Nov 1994 08:49:37 GMT')"
        )
    return when.astimezone(UTC)


def read_http_date(text: str) -> datetime | None:
    """An HTTP date in any of the three forms a recipient must accept (IMF-fixdate, RFC 850,
    asctime), as an aware UTC ``datetime``; ``None`` for anything else, which a condition such
    as ``If-Modified-Since`` then ignores (RFC 9110 section 13.1.3)."""
    text = text.strip(" \t")
    if len(text) > 64:
        return None
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def format_http_date(when: datetime) -> str:
    """``when`` as an IMF-fixdate, the form ``Last-Modified`` and ``Expires`` are sent in."""
    return email.utils.format_datetime(when.astimezone(UTC), usegmt=True)


def entity_tag(text: str) -> str:
    """``text`` (an ``ETag`` value) when it is one entity tag, ``W/"..."`` or ``"..."``; else a
    ``MalformedHeaderError``: a control character, no quotes, a character a tag may not hold."""
    text = text.strip(" \t")
    if len(text) > MAX_FIELD_CHARS:
        raise MalformedHeaderError(
            f"it is {len(text)} characters long, over the {MAX_FIELD_CHARS} th-ext reads"
        )
    if _CONTROL.search(text):
        raise MalformedHeaderError("it holds a control character")
    if _ENTITY_TAG.fullmatch(text):
        return text
    if not (text.startswith(('"', 'W/"')) and text.endswith('"') and len(text) > 1):
        raise MalformedHeaderError('it is not a quoted entity tag such as "v1" or W/"v1"')
    raise MalformedHeaderError("it holds a character an entity tag may not (a space or a quote)")
