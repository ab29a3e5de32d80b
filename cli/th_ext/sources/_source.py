"""Where a card comes from (a file, standard input ``-``, or an http(s) URL) and what a read may
cost; only the standard library is imported here, and httpx only when a source is a URL."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, BinaryIO
from urllib.parse import urlsplit, urlunsplit

from th_ext._deadline import Deadline
from th_ext._exceptions import (
    HTTPStatusCodeError,
    SourceArgumentError,
    SourceTooLargeError,
    SourceUnreadableError,
    os_reason,
)
from th_ext._version import __version__
from th_ext.net import HeaderScope, redact
from th_ext.problems import Problem
from th_ext.sources._caching import caching_problems, source_warning

if TYPE_CHECKING:
    import httpx

    from th_ext.net import HarRecorder
    from th_ext.net._fetch import Retry

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_TIMEOUT",
    "MAX_BYTES_LIMIT",
    "MAX_REDIRECTS",
    "MAX_RETRIES",
    "MAX_TIMEOUT",
    "SourceBytes",
    "SourceLimits",
    "check_limits",
    "header_scope",
    "is_url",
    "parse_header",
    "read_bounded",
    "read_source",
    "read_url_async",
    "well_known_urls",
]

DEFAULT_TIMEOUT = 10.0
DEFAULT_MAX_BYTES = 5 * 1024 * 1024
MAX_TIMEOUT = 3600.0
"""The longest ``timeout`` accepted (seconds): an hour is far beyond any card or agent."""
MAX_BYTES_LIMIT = 1024 * 1024 * 1024
"""The largest ``max_bytes`` accepted: 1 GiB, two hundred times the default."""
MAX_RETRIES = 10
"""The most ``retries`` accepted (``th_ext.net._fetch`` holds the same; a test holds them
equal): past a few, a failing server is failing."""
_CHUNK = 64 * 1024
_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")


@dataclass(frozen=True, slots=True)
class SourceLimits:
    """How a source is read: extra request headers, the whole-fetch timeout, the byte cap, the
    retries.

    ``timeout`` (seconds, at most ``MAX_TIMEOUT``) applies to URLs only; ``max_bytes`` (at most
    ``MAX_BYTES_LIMIT``) to every source, counted after decompression. ``headers`` go only to
    the origin of the source URL and to the origins of ``header_origins`` (see
    ``th_ext.net.HeaderScope``). ``retries`` (at most ``MAX_RETRIES``) is how many times a
    request of a URL is tried again when it fails in a way that may pass (no connection, HTTP
    429, 502, 503 or 504), within ``timeout``.
    """

    headers: tuple[tuple[str, str], ...] = ()
    timeout: float = DEFAULT_TIMEOUT
    max_bytes: int = DEFAULT_MAX_BYTES
    header_origins: tuple[str, ...] = ()
    retries: int = 0


def parse_header(text: str) -> tuple[str, str]:
    """``"Name: value"`` as ``(name, value)``; ``SourceArgumentError`` if it is malformed.

    No message ever holds the value (or, without a colon, any of the text): it is a secret.
    """
    name, colon, value = text.partition(":")
    name = name.strip()
    if not colon:
        raise SourceArgumentError(
            "a header is not of the form 'Name: value' (it has no colon; its text is not shown)"
        )
    if not _TOKEN.fullmatch(name):
        raise SourceArgumentError(
            "a header is not of the form 'Name: value' (the name before the colon is not an "
            "HTTP token; the text is not shown)"
        )
    value = value.strip()
    if any(ch in value for ch in "\r\n\0"):
        raise SourceArgumentError(f"header {name!r} has a line break or NUL in its value")
    try:
        value.encode("latin-1")
    except UnicodeEncodeError:
        raise SourceArgumentError(f"header {name!r}: HTTP header values must be Latin-1") from None
    return name, value


def header_scope(source: str | None, limits: SourceLimits) -> HeaderScope:
    """The scope of ``limits.headers`` for a run that starts at ``source`` (see ``HeaderScope``)."""

    try:
        return HeaderScope.for_source(limits.headers, source, limits.header_origins)
    except ValueError as exc:
        raise SourceArgumentError(f"header origin {exc}", code="bad-header-origin") from None


LIMIT_NAMES = {"timeout": "the timeout", "max_bytes": "the byte cap"}
"""How ``check_limits`` names each limit in its messages, by ``SourceLimits`` field."""


def check_limits(limits: SourceLimits, names: dict[str, str] = LIMIT_NAMES) -> None:
    """``SourceArgumentError`` (one line) unless every limit is in its range; ``names`` says
    how its message names the limit (a command line names its option)."""
    timeout = limits.timeout
    if not (isinstance(timeout, int | float) and 0 < timeout <= MAX_TIMEOUT):
        raise SourceArgumentError(
            f"{names['timeout']} must be a positive number of seconds, at most {MAX_TIMEOUT:g}, "
            f"not {timeout:.6g}",
            code="bad-timeout",
        )
    if not (isinstance(limits.max_bytes, int) and 1 <= limits.max_bytes <= MAX_BYTES_LIMIT):
        shown = str(limits.max_bytes) if len(str(limits.max_bytes)) < 30 else "a larger number"
        raise SourceArgumentError(
            f"{names['max_bytes']} must be at least 1, at most {MAX_BYTES_LIMIT}, not {shown}",
            code="bad-max-bytes",
        )
    retries = limits.retries
    if not (isinstance(retries, int) and 0 <= retries <= MAX_RETRIES):
        shown = str(retries) if len(str(retries)) < 30 else "a larger number"
        raise SourceArgumentError(
            f"{names.get('retries', 'the retries')} must be a whole number from 0 to "
            f"{MAX_RETRIES}, not {shown}",
            code="bad-retries",
        )
    for name, value in limits.headers:
        parse_header(f"{name}: {value}")
    if limits.header_origins:
        header_scope(None, limits)


def read_bounded(stream: BinaryIO, max_bytes: int) -> bytes | None:
    """At most ``max_bytes`` from ``stream``, read in chunks; ``None`` if there is more.

    Memory grows with what arrives, never with the cap: a cap of 1 GiB on a 1 KiB file
    allocates about 1 KiB.
    """
    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = stream.read(min(_CHUNK, max_bytes + 1 - total))
        if not chunk:
            return b"".join(chunks)
        total += len(chunk)
        if total > max_bytes:
            return None
        chunks.append(chunk)


MAX_REDIRECTS = 5
WELL_KNOWN_CARD = "/.well-known/agent-card.json"
DEPRECATED_WELL_KNOWN_CARD = "/.well-known/agent.json"

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


@dataclass(frozen=True, slots=True)
class SourceBytes:
    """The raw document and where it was found.

    ``location`` is the file path, ``<stdin>``, or the URL the body finally came from (after
    redirects and the well-known path). ``notices`` are warnings about how it was found and
    served, such as the deprecated well-known path or a card response that does not say how
    long it may be cached (``caching_problems``). ``headers`` are the header fields of the
    response the body came in (lower-case names, in order), ``None`` for a file or stdin, and
    ``status`` its status: 304 (and no ``data``) when a read with ``if_none_match`` found the
    card unchanged.
    """

    source: str
    location: str
    data: bytes
    content_type: str = ""
    notices: tuple[Problem, ...] = field(default=())
    headers: tuple[tuple[str, str], ...] | None = None
    status: int | None = None


def is_url(source: str) -> bool:
    """True when ``source`` is an http or https URL (the scheme is case-insensitive)."""
    match = _SCHEME.match(source)
    return match is not None and match.group(1).lower() in ("http", "https")


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
    source: str,
    limits: SourceLimits | None = None,
    *,
    well_known: bool = True,
    scope: HeaderScope | None = None,
    recorder: HarRecorder | None = None,
) -> SourceBytes:
    """The bytes of the document at ``source``: a file path, ``-`` for stdin, or an http(s) URL.

    With ``well_known`` (the default, for cards) a URL not ending in ``.json`` is an agent's
    base URL; without it (for other documents, such as a schema) every URL is read as it is.
    ``scope`` decides which requests carry ``limits.headers`` (by default: the origin of
    ``source`` and of ``limits.header_origins``); pass one to share it with later requests.
    Credentials in a URL (``user:password@``) are redacted in ``source``, ``location`` and
    every message. A ``recorder`` records each request (HAR).

    Raises a ``SourceError`` subclass when nothing could be read: ``SourceArgumentError`` (bad
    source or limits), ``SourceUnreadableError`` (file or stdin), ``SourceTooLargeError`` (over
    ``max_bytes``), ``FetchError`` and its subclasses ``FetchTimeoutError``,
    ``HTTPStatusCodeError`` and ``RedirectError``.
    """
    limits = limits or SourceLimits()
    check_limits(limits)
    if not source.strip():
        raise SourceArgumentError(f"{source!r}: an empty SOURCE (give a file, - or a URL)")
    if source == "-":
        return SourceBytes(source, "<stdin>", _read_stream(limits.max_bytes))
    if is_url(source):
        # httpx and asyncio (about 60 ms of start-up) only when the source is a URL.
        from th_ext.net._fetch import run_alone

        url_scope = scope if scope is not None else header_scope(source, limits)
        deadline = Deadline.after(limits.timeout, f"no complete answer within {limits.timeout:g} s")
        return run_alone(
            lambda client: read_url_async(
                source,
                limits,
                url_scope,
                client=client,
                deadline=deadline,
                well_known=well_known,
                recorder=recorder,
            )
        )
    scheme = _SCHEME.match(source)
    if scheme:
        raise SourceArgumentError(
            f"{redact(source)}: unsupported URL scheme {scheme.group(1)!r} "
            "(use http, https or a path)"
        )
    return SourceBytes(source, source, _read_file(source, limits.max_bytes))


def _read_stream(max_bytes: int) -> bytes:
    try:
        data = read_bounded(sys.stdin.buffer, max_bytes)
    except (OSError, AttributeError, ValueError) as exc:
        raise SourceUnreadableError(f"standard input cannot be read ({exc})") from None
    if data is None:
        raise SourceTooLargeError(f"<stdin>: more than the cap of {max_bytes} bytes")
    return data


def _read_file(path: str, max_bytes: int) -> bytes:
    try:
        with open(path, "rb") as handle:  # noqa: PTH123 (a str path keeps pathlib off the path)
            data = read_bounded(handle, max_bytes)
    except FileNotFoundError:
        raise SourceUnreadableError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise SourceUnreadableError(f"{path}: is a directory, not a card file") from None
    except OSError as exc:
        reason = os_reason(exc)
        raise SourceUnreadableError(f"{path}: cannot be read ({reason})") from None
    if data is None:
        raise SourceTooLargeError(f"{path}: larger than the cap of {max_bytes} bytes")
    return data


async def read_url_async(
    source: str,
    limits: SourceLimits,
    scope: HeaderScope,
    *,
    client: httpx.AsyncClient,
    deadline: Deadline,
    well_known: bool = True,
    retried: list[Retry] | None = None,
    if_none_match: str | None = None,
    recorder: HarRecorder | None = None,
) -> SourceBytes:
    """The card at the URL ``source``, read through ``client`` by ``deadline``: the well-known
    path for a base URL (``well_known``), the pre-0.3 path when the first answers 404 (with its
    warning), the byte cap, the redirect rules, ``limits.retries`` and ``scope``'s headers on
    each request; each retry is appended to ``retried``. This is what ``read_source`` does for
    a URL, for callers that read many sources on one loop. A card (``well_known``) has the
    warnings of ``caching_problems`` among its notices. With ``if_none_match`` (the card's
    entity tag from an earlier read) the card is asked for only if it changed: unchanged, it
    is a ``SourceBytes`` of status 304 with no data. A ``recorder`` records each request
    (HAR)."""
    # httpx and asyncio (about 60 ms of start-up) only when the source is a URL.
    from th_ext.net._fetch import check_url, fetch_async

    check_url(source)
    url, fallback = well_known_urls(source) if well_known else (source, None)
    shown = redact(source)
    withheld_before = len(scope.withheld)

    async def fetch_target(target: str) -> SourceBytes:
        result = await fetch_async(
            target,
            client=client,
            scope=scope,
            deadline=deadline,
            max_bytes=limits.max_bytes,
            max_redirects=MAX_REDIRECTS,
            user_agent=f"th-ext/{__version__}",
            retries=limits.retries,
            retried=retried,
            if_none_match=if_none_match,
            recorder=recorder,
        )
        notices = tuple(
            source_warning(
                "header-withheld",
                text,
                "the card is served from another origin than the URL given; check where it "
                "redirects",
            )
            for text in scope.notices()[withheld_before:]
        )
        if well_known and result.status != 304:
            notices += tuple(caching_problems(result.headers))
        return SourceBytes(
            shown,
            redact(result.url),
            result.body,
            result.content_type,
            notices,
            result.headers,
            result.status,
        )

    try:
        return await fetch_target(url)
    except HTTPStatusCodeError as exc:
        if exc.status != 404 or fallback is None:
            raise
        first = exc
    try:
        found = await fetch_target(fallback)
    except HTTPStatusCodeError as exc:
        raise HTTPStatusCodeError(
            f"{first} (and {exc.status} at the deprecated {DEPRECATED_WELL_KNOWN_CARD})",
            status=first.status,
            url=first.url,
        ) from None

    notice = source_warning(
        "deprecated-well-known-path",
        f"{redact(url)} answered 404; the card was read from the pre-0.3 path {found.location}",
        f"serve the card at {WELL_KNOWN_CARD} (A2A 0.3 and later)",
    )
    return replace(found, notices=(notice, *found.notices))
