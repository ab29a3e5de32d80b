"""Where an agent card comes from: a file, standard input (``-``), or an http(s) URL.

Every command that reads a card reads it here, so they all accept the same sources with the same
limits. A URL whose path ends in ``.json`` is the card itself; any other URL is the agent's base
URL, and the card is read from ``<base>/.well-known/agent-card.json``, falling back to the
pre-0.3 ``<base>/.well-known/agent.json`` only when the first answers 404 (with a warning that
the old path is deprecated).

Nothing heavier than the standard library is imported here, and the HTTP code only when the
source is a URL.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

from th_ext._exceptions import (
    HTTPStatusError,
    SourceArgumentError,
    SourceTooLargeError,
    SourceUnreadableError,
)
from th_ext._version import __version__

if TYPE_CHECKING:
    from th_ext._problem import Problem

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_TIMEOUT",
    "MAX_REDIRECTS",
    "SourceBytes",
    "SourceLimits",
    "is_url",
    "parse_header",
    "read_source",
    "well_known_urls",
]

DEFAULT_TIMEOUT = 10.0
DEFAULT_MAX_BYTES = 5 * 1024 * 1024
MAX_REDIRECTS = 5
WELL_KNOWN_CARD = "/.well-known/agent-card.json"
DEPRECATED_WELL_KNOWN_CARD = "/.well-known/agent.json"

_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


@dataclass(frozen=True, slots=True)
class SourceLimits:
    """How a source is read: extra request headers, the whole-fetch timeout, the byte cap.

    ``timeout`` (seconds) applies to URLs only; ``max_bytes`` to every source, counted after
    decompression.
    """

    headers: tuple[tuple[str, str], ...] = ()
    timeout: float = DEFAULT_TIMEOUT
    max_bytes: int = DEFAULT_MAX_BYTES


@dataclass(frozen=True, slots=True)
class SourceBytes:
    """The raw document and where it was found.

    ``location`` is the file path, ``<stdin>``, or the URL the body finally came from (after
    redirects and the well-known path). ``notices`` are warnings about how it was found, such
    as the deprecated well-known path.
    """

    source: str
    location: str
    data: bytes
    content_type: str = ""
    notices: tuple[Problem, ...] = field(default=())


def is_url(source: str) -> bool:
    """True when ``source`` is an http or https URL (the scheme is case-insensitive)."""
    match = _SCHEME.match(source)
    return match is not None and match.group(1).lower() in ("http", "https")


def parse_header(text: str) -> tuple[str, str]:
    """``"Name: value"`` as ``(name, value)``; ``SourceArgumentError`` if it is malformed."""
    name, colon, value = text.partition(":")
    name = name.strip()
    if not colon or not _TOKEN.match(name):
        raise SourceArgumentError(f"header {text!r} is not of the form 'Name: value'")
    value = value.strip()
    if any(ch in value for ch in "\r\n\0"):
        raise SourceArgumentError(f"header {name!r} has a line break or NUL in its value")
    try:
        value.encode("latin-1")
    except UnicodeEncodeError:
        raise SourceArgumentError(f"header {name!r}: HTTP header values must be Latin-1") from None
    return name, value


def well_known_urls(url: str) -> tuple[str, str | None]:
    """The URL to read the card from, and the deprecated fallback URL (``None`` for a .json URL).

    ``https://agent.example`` gives ``https://agent.example/.well-known/agent-card.json`` and
    ``https://agent.example/.well-known/agent.json``; ``https://x/card.json`` is read as it is.
    """
    parts = urlsplit(url)
    if parts.path.lower().endswith(".json"):
        return urlunsplit(parts._replace(fragment="")), None
    base = parts.path.rstrip("/")
    current = urlunsplit(parts._replace(path=base + WELL_KNOWN_CARD, fragment=""))
    old = urlunsplit(parts._replace(path=base + DEPRECATED_WELL_KNOWN_CARD, fragment=""))
    return current, old


def read_source(
    source: str, limits: SourceLimits | None = None, *, well_known: bool = True
) -> SourceBytes:
    """The bytes of the document at ``source``: a file path, ``-`` for stdin, or an http(s) URL.

    With ``well_known`` (the default, for cards) a URL not ending in ``.json`` is an agent's
    base URL; without it (for other documents, such as a schema) every URL is read as it is.

    Raises a ``SourceError`` subclass when nothing could be read: ``SourceArgumentError`` (bad
    source or limits), ``SourceUnreadableError`` (file or stdin), ``SourceTooLargeError`` (over
    ``max_bytes``), ``FetchError`` and its subclasses ``FetchTimeoutError``,
    ``HTTPStatusError`` and ``RedirectError``.
    """
    limits = limits or SourceLimits()
    _check_limits(limits)
    if source == "-":
        return SourceBytes(source, "<stdin>", _read_stream(limits.max_bytes))
    if is_url(source):
        return _read_url(source, limits, well_known=well_known)
    scheme = _SCHEME.match(source)
    if scheme:
        raise SourceArgumentError(
            f"{source}: unsupported URL scheme {scheme.group(1)!r} (use http, https or a path)"
        )
    return SourceBytes(source, source, _read_file(source, limits.max_bytes))


def _check_limits(limits: SourceLimits) -> None:
    if not limits.timeout > 0 or limits.timeout == float("inf"):
        raise SourceArgumentError(f"the timeout must be a positive number, not {limits.timeout}")
    if limits.max_bytes < 1:
        raise SourceArgumentError(f"the byte cap must be at least 1, not {limits.max_bytes}")
    for name, value in limits.headers:
        parse_header(f"{name}: {value}")


def _read_stream(max_bytes: int) -> bytes:
    try:
        data = sys.stdin.buffer.read(max_bytes + 1)
    except (OSError, AttributeError, ValueError) as exc:
        raise SourceUnreadableError(f"standard input cannot be read ({exc})") from None
    if len(data) > max_bytes:
        raise SourceTooLargeError(f"<stdin>: more than the cap of {max_bytes} bytes")
    return data


def _read_file(path: str, max_bytes: int) -> bytes:
    try:
        with open(path, "rb") as handle:  # noqa: PTH123 (a str path keeps pathlib off the path)
            data = handle.read(max_bytes + 1)
    except FileNotFoundError:
        raise SourceUnreadableError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise SourceUnreadableError(f"{path}: is a directory, not a card file") from None
    except OSError as exc:
        reason = (exc.strerror or str(exc)).lower()
        raise SourceUnreadableError(f"{path}: cannot be read ({reason})") from None
    if len(data) > max_bytes:
        raise SourceTooLargeError(f"{path}: larger than the cap of {max_bytes} bytes")
    return data


def _read_url(source: str, limits: SourceLimits, *, well_known: bool) -> SourceBytes:
    from th_ext._fetch import fetch

    url, fallback = well_known_urls(source) if well_known else (source, None)

    def get(target: str, timeout: float) -> SourceBytes:
        result = fetch(
            target,
            headers=limits.headers,
            timeout=timeout,
            max_bytes=limits.max_bytes,
            max_redirects=MAX_REDIRECTS,
            user_agent=f"th-ext/{__version__}",
        )
        return SourceBytes(source, result.url, result.body, result.content_type)

    import time

    start = time.monotonic()
    try:
        return get(url, limits.timeout)
    except HTTPStatusError as exc:
        if exc.status != 404 or fallback is None:
            raise
        first = exc
    remaining = limits.timeout - (time.monotonic() - start)
    try:
        found = get(fallback, max(remaining, 0.001))
    except HTTPStatusError as exc:
        raise HTTPStatusError(
            f"{first} (and {exc.status} at the deprecated {DEPRECATED_WELL_KNOWN_CARD})",
            status=first.status,
            url=first.url,
        ) from None
    from th_ext._problem import Problem

    notice = Problem(
        "warning",
        "deprecated-well-known-path",
        "",
        f"{url} answered 404; the card was read from the pre-0.3 path {found.location}",
        f"serve the card at {WELL_KNOWN_CARD} (A2A 0.3 and later)",
        "source",
    )
    return SourceBytes(source, found.location, found.data, found.content_type, (notice,))
