"""One bounded HTTP GET of a document (a card, a schema), with checked redirects and retries of
what may pass, on httpx."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC
from email.utils import parsedate_to_datetime
from typing import Any, TypeVar
from urllib.parse import urljoin, urlsplit

import httpx

from th_ext._deadline import Deadline
from th_ext._exceptions import (
    FetchConnectError,
    FetchError,
    FetchTimeoutError,
    HTTPStatusCodeError,
    RedirectError,
    SourceArgumentError,
    SourceTooLargeError,
    ThExtError,
)
from th_ext._sync import run_sync
from th_ext.net import client_options
from th_ext.net._exchange import (
    BodyCorruptError,
    BodyIncompleteError,
    BodyTooLargeError,
    BodyTruncatedError,
    describe,
    read_body,
    shorten,
)
from th_ext.net._har import HarEntry, HarRecorder
from th_ext.net._scope import HeaderScope, origin_of, redact, shown_url, url_problem

__all__ = [
    "BACKOFF_SECONDS",
    "MAX_RETRIES",
    "RETRY_STATUSES",
    "FetchResult",
    "Retry",
    "check_redirect",
    "check_url",
    "fetch",
    "fetch_async",
    "redirect_target",
    "run_alone",
]

T = TypeVar("T")

_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})

RETRY_STATUSES = frozenset({429, 502, 503, 504})
"""The statuses that may pass: too many requests, and a gateway or server that is busy."""
BACKOFF_SECONDS = 0.5
"""The wait before the first retry; each further one waits twice as long (with jitter)."""
MAX_RETRIES = 10
"""The most retries of one request a caller may ask for."""


@dataclass(frozen=True, slots=True)
class Retry:
    """One request tried again: its URL (redacted), why, and how long it waited first."""

    url: str
    reason: str
    wait: float

    def to_dict(self) -> dict[str, Any]:
        return {"url": self.url, "reason": self.reason, "wait": round(self.wait, 3)}


@dataclass(frozen=True, slots=True)
class FetchResult:
    """A successful response: the URL it finally came from, its decoded body, and its header
    fields (``headers``: names in lower case, values as sent, decoded as Latin-1, in order)."""

    url: str
    status: int
    content_type: str
    body: bytes
    redirects: tuple[str, ...]
    headers: tuple[tuple[str, str], ...] = ()


async def fetch_async(
    url: str,
    *,
    client: httpx.AsyncClient,
    scope: HeaderScope,
    deadline: Deadline,
    max_bytes: int,
    max_redirects: int = 5,
    user_agent: str = "th-ext",
    same_origin: bool = False,
    retries: int = 0,
    retried: list[Retry] | None = None,
    if_none_match: str | None = None,
    recorder: HarRecorder | None = None,
) -> FetchResult:
    """GET ``url`` through ``client`` and return the body, or raise a ``FetchError`` (its
    subclasses ``FetchTimeoutError``, ``FetchConnectError``, ``HTTPStatusCodeError``,
    ``RedirectError``), ``SourceTooLargeError`` or ``SourceArgumentError``.

    ``client`` should be built with ``client_options()`` (no redirects followed, no proxy from
    the environment). Each request (the first and every redirect) carries
    ``scope.headers_for`` its URL. The whole fetch ends by ``deadline``; a
    ``FetchTimeoutError`` then says ``deadline.message``. Every URL in a message is redacted.
    With ``same_origin``, a redirect to another origin than ``url``'s is refused before it is
    followed (``redirect-off-origin``). Each request is tried again up to ``retries`` times
    (at most ``MAX_RETRIES``) when it fails in a way that may pass; each retry is appended to
    ``retried``. With ``if_none_match`` (an entity tag held from an earlier fetch) every
    request asks only for a changed document: a 304 then returns a ``FetchResult`` of status
    304 and no body; a 304 to any other request is an error. A ``recorder`` records each
    request (HAR).
    """
    condition = () if if_none_match is None else (("If-None-Match", if_none_match),)
    seen = [url]
    current = url

    async def get(target: str) -> tuple[str, _Answer | None]:
        """One request, tried again while it fails in a way that may pass and retries and
        time are left (the wait and the retry must end before the deadline)."""
        for attempt in range(min(retries, MAX_RETRIES) + 1):
            try:
                return await _get(
                    client,
                    target,
                    scope,
                    max_bytes,
                    user_agent,
                    condition=condition,
                    recorder=recorder,
                )
            except _Transient as exc:
                failure = exc
            left = attempt < min(retries, MAX_RETRIES)
            wait, said = _wait(attempt, failure.retry_after)
            if not left or wait >= deadline.remaining():
                break
            if retried is not None:
                retried.append(Retry(redact(target), str(failure.error), wait))
            await asyncio.sleep(wait)
        tried = attempt  # the retries made before this last failure
        notes = []
        if left:  # stopped by the deadline, not by the count
            notes.append(
                f"its Retry-After ({said}) ends after the timeout" if said else "no time to retry"
            )
        if tried:
            notes.append(f"after {tried} {'retry' if tried == 1 else 'retries'}")
        if not notes:
            raise failure.error
        raise _reworded(failure.error, f"{failure.error} ({', '.join(notes)})") from None

    try:
        async with asyncio.timeout(deadline.remaining()):
            while True:
                try:
                    location, result = await get(current)
                except FetchError as exc:  # a redirect's target failed: say where it came from
                    if current == url:
                        raise
                    if isinstance(exc, RedirectError):  # begins with current (redirect_target)
                        rest = str(exc).removeprefix(shown_url(current))
                        raise _reworded(exc, f"{_chain(url, current, seen)}, which{rest}") from None
                    hops = "" if len(seen) == 2 else f" {len(seen) - 1} times, last"
                    raise _reworded(exc, f"{redact(url)} redirects{hops} to {exc}") from None
                if result is not None:
                    status, content_type, body, headers = result
                    return FetchResult(
                        current, status, content_type, body, tuple(seen[1:]), headers
                    )
                current = _follow(url, current, location, seen, max_redirects, same_origin)
    except TimeoutError:
        raise FetchTimeoutError(f"{shown_url(current)}: {deadline.message}") from None


def fetch(
    url: str,
    *,
    scope: HeaderScope,
    deadline: Deadline,
    max_bytes: int,
    max_redirects: int = 5,
    user_agent: str = "th-ext",
    same_origin: bool = False,
    retries: int = 0,
) -> FetchResult:
    """``fetch_async`` for a caller without an event loop: on a loop and a client of its own."""
    return run_alone(
        lambda client: fetch_async(
            url,
            client=client,
            scope=scope,
            deadline=deadline,
            max_bytes=max_bytes,
            max_redirects=max_redirects,
            user_agent=user_agent,
            same_origin=same_origin,
            retries=retries,
        )
    )


def run_alone(work: Callable[[httpx.AsyncClient], Awaitable[T]]) -> T:
    """``work`` on a policy client of its own, on an event loop of its own, for synchronous code.

    Called from a thread that already runs an event loop (a synchronous reader inside async
    code), it runs in a worker thread, so it neither fails nor nests loops.
    """

    async def on_own_client() -> T:
        async with httpx.AsyncClient(timeout=None, **client_options()) as client:
            return await work(client)

    return run_sync(on_own_client)


def _follow(  # noqa: PLR0917 (one private step of fetch_async)
    first: str,
    current: str,
    location: str,
    seen: list[str],
    max_redirects: int,
    same_origin: bool,
) -> str:
    """The URL a redirect to ``location`` leads to, once it passes the redirect policy. A
    refusal after the first hop names ``first`` and the hops that led to ``current``."""
    where = shown_url(current) if current == first else f"{_chain(first, current, seen)}, which"
    target = redirect_target(current, location, where=where)
    to = shown_url(target)
    if same_origin and origin_of(target) != origin_of(first):
        raise RedirectError(
            f"{where} redirects to {to}, on another origin: not followed",
            code="redirect-off-origin",
        )
    if target in seen:
        raise RedirectError(
            f"{where} redirects to {to}, which was already visited (a redirect loop)",
            code="redirect-loop",
        )
    if len(seen) > max_redirects:
        raise RedirectError(
            f"{redact(first)}: more than {max_redirects} redirects (last to {to})",
            code="too-many-redirects",
        )
    seen.append(target)
    return target


def _chain(first: str, current: str, seen: list[str]) -> str:
    """``first redirects to current``, with the number of hops when there were more than one."""
    hops = "" if len(seen) == 2 else f" {len(seen) - 1} times, last"
    return f"{shown_url(first)} redirects{hops} to {shown_url(current)}"


def redirect_target(current: str, location: str, *, where: str | None = None) -> str:
    """Where a redirect from ``current`` to ``location`` leads, or a ``RedirectError``: a
    target that is not http or https (``data:``, ``file:``, ``javascript:``...) is
    ``redirect-not-http``; one no request can go to (``url_problem``, then httpx's own parse)
    is ``bad-redirect``. The message begins with ``where`` (``shown_url(current)`` by default)."""
    where = where or shown_url(current)
    try:
        # A Location with a scheme is the target as it is (RFC 3986 section 5.2.2): urljoin
        # would take http:///x or http:x, on the current URL's scheme, as a path on its host.
        target = location if urlsplit(location).scheme else urljoin(current, location)
        foreign = urlsplit(target).scheme.lower() not in ("http", "https")
    except ValueError:  # an IPv6 host without its closing bracket, which url_problem names
        target, foreign = location, False
    to = shown_url(target)
    if foreign:
        raise RedirectError(
            f"{where} redirects to {to}: only http and https redirects are followed",
            code="redirect-not-http",
        )
    problem = url_problem(target)
    if not problem:
        try:
            httpx.URL(target)
        except (httpx.InvalidURL, UnicodeError) as exc:
            problem = f"not a URL ({shorten(str(exc), 80)})"
    if problem:
        raise RedirectError(f"{where} redirects to {to}: {problem}", code="bad-redirect")
    return target


def check_url(url: str) -> str:
    """``url`` redacted, once it is known to be a URL a request can be sent to; else a
    one-line ``SourceArgumentError`` that says why (``url_problem``)."""
    where = shown_url(url)
    problem = url_problem(url)
    if problem:
        raise SourceArgumentError(f"{where}: {problem}")
    return where


async def check_redirect(response: httpx.Response) -> None:
    """A response hook of every client th-ext builds (``client_options``): a redirect's
    ``Location`` passes ``redirect_target`` before httpx reads it for its ``next_request``."""
    location = response.headers.get("location")
    if response.status_code in _REDIRECT_STATUSES and location:
        redirect_target(str(response.request.url), location)


def _request_headers(
    url: str, scope: HeaderScope, user_agent: str, condition: tuple[tuple[str, str], ...]
) -> list[tuple[str, str]]:
    send = [
        *condition,
        ("User-Agent", user_agent),
        ("Accept", "application/json, */*;q=0.5"),
        ("Accept-Encoding", "gzip, deflate"),
    ]
    headers = scope.headers_for(url)
    if headers:
        overridden = {name.lower() for name, _ in headers}
        send = [h for h in send if h[0].lower() not in overridden] + list(headers)
    return send


_Answer = tuple[int, str, bytes, tuple[tuple[str, str], ...]]
"""What one final response gives: status, content type, body and header fields."""

_CONDITIONS = ("If-None-Match", "If-Modified-Since")


class _Transient(Exception):
    """A failure that may pass: ``error`` to raise when it is not tried again, and the
    server's ``Retry-After`` (``""`` when it gave none)."""

    def __init__(self, error: FetchError, retry_after: str = "") -> None:
        super().__init__(str(error))
        self.error = error
        self.retry_after = retry_after


def _wait(attempt: int, retry_after: str) -> tuple[float, str]:
    """The wait before retry ``attempt + 1``: the server's ``Retry-After`` when it is a number
    of seconds or a date (with the value as given), else an exponential backoff with jitter
    (half of it fixed, half random) and ``""``."""
    value = retry_after.strip()
    if value.isdigit():
        return float(value), f"{int(value)} s" if len(value) < 12 else "a very long wait"
    if value:
        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError, OverflowError):
            when = None
        if when is not None:  # a date without a zone ("-0000") is UTC, as HTTP dates are
            seconds = when.replace(tzinfo=when.tzinfo or UTC).timestamp() - time.time()
            return max(seconds, 0.0), shorten(value, 40)
    backoff = BACKOFF_SECONDS * 2.0**attempt
    return backoff / 2 + random.uniform(0, backoff / 2), ""


def _reworded(error: FetchError, message: str) -> FetchError:
    """``error`` again, of the same kind and code, in other words."""
    if isinstance(error, HTTPStatusCodeError):
        return HTTPStatusCodeError(message, status=error.status, url=error.url)
    return type(error)(message, code=error.code)


async def _get(
    client: httpx.AsyncClient,
    url: str,
    scope: HeaderScope,
    max_bytes: int,
    user_agent: str,
    *,
    condition: tuple[tuple[str, str], ...] = (),
    recorder: HarRecorder | None = None,
) -> tuple[str, _Answer | None]:
    """One request: a redirect's ``Location`` and ``None``, or ``""`` and (status, content
    type, body, header fields); ``_Transient`` for a failure that may pass. ``condition`` is
    the If-None-Match asked, if any."""
    where = check_url(url)
    try:
        request = client.build_request(
            "GET", url, headers=_request_headers(url, scope, user_agent, condition)
        )
    except (httpx.InvalidURL, UnicodeError) as exc:
        raise SourceArgumentError(f"{where}: cannot be sent ({shorten(str(exc))})") from None
    entry = None
    if recorder is not None:
        entry = recorder.start("GET", url, dict(request.headers), None, "")
    failure = "the read was cut short"
    try:
        try:
            response = await client.send(request, stream=True)
        except httpx.InvalidURL as exc:  # a redirect's Location that httpx alone cannot follow
            raise RedirectError(
                f"{where} redirects to a URL that cannot be followed ({shorten(str(exc), 80)})",
                code="bad-redirect",
            ) from None
        except httpx.ConnectError as exc:
            raise _Transient(FetchConnectError(f"{where}: {redact(describe(exc))}")) from None
        except (httpx.NetworkError, httpx.RemoteProtocolError) as exc:
            raise _Transient(FetchError(f"{where}: {redact(describe(exc))}")) from None
        except httpx.TransportError as exc:
            raise FetchError(f"{where}: {redact(describe(exc))}") from None
        if entry is not None:
            entry.response(response)
        try:
            answer = await _answer(response, where, max_bytes, asked=bool(condition), entry=entry)
        finally:
            await response.aclose()
        failure = ""
        return answer
    except ThExtError as exc:
        failure = str(exc)
        raise
    except _Transient as exc:
        failure = str(exc.error)
        raise
    finally:
        if entry is not None:
            entry.end(failure)


async def _answer(
    response: httpx.Response,
    where: str,
    max_bytes: int,
    *,
    asked: bool = False,
    entry: HarEntry | None = None,
) -> tuple[str, _Answer | None]:
    status = response.status_code
    if status == 304:
        if not asked:
            raise _not_modified(response, where)
        return "", (304, "", b"", _fields(response))
    if status in _REDIRECT_STATUSES:
        location = response.headers.get("location", "")
        if not location:
            raise RedirectError(
                f"{where}: HTTP {status} redirect without a Location header", code="bad-redirect"
            )
        return location, None
    if not 200 <= status < 300:
        error = HTTPStatusCodeError(
            f"{where}: HTTP {status} {shorten(response.reason_phrase)}".rstrip(),
            status=status,
            url=where,
        )
        if status in RETRY_STATUSES:
            raise _Transient(error, response.headers.get("retry-after", ""))
        raise error
    encoding = response.headers.get("content-encoding", "identity").strip().lower()
    length = response.headers.get("content-length", "")
    if encoding in ("identity", "") and length.isdigit() and int(length) > max_bytes:
        raise SourceTooLargeError(
            f"{where}: the body announces {int(length)} bytes, over the cap of {max_bytes} bytes"
        )
    chunks: list[bytes] = []
    try:
        async for chunk in read_body(response, max_bytes, where):
            chunks.append(chunk)
            if entry is not None:
                entry.body_read(chunk)
    except BodyTooLargeError:
        decoded = "" if encoding in ("identity", "") else f", once decompressed ({encoding})"
        raise SourceTooLargeError(
            f"{where}: the body is larger than the cap of {max_bytes} bytes{decoded}"
        ) from None
    except BodyTruncatedError as exc:
        raise FetchError(f"{where}: the {exc.args[0]} body is truncated") from None
    except BodyCorruptError as exc:
        raise FetchError(f"{where}: the compressed body is corrupt ({exc.args[0]})") from None
    except BodyIncompleteError as exc:
        missing = "" if exc.args[0] is None else f" ({exc.args[0]} of the announced bytes missing)"
        raise FetchError(
            f"{where}: the server closed the connection before the body was complete{missing}"
        ) from None
    except httpx.TransportError as exc:
        raise FetchError(f"{where}: {redact(describe(exc))}") from None
    content_type = response.headers.get("content-type", "")
    return "", (status, content_type, b"".join(chunks), _fields(response))


def _fields(response: httpx.Response) -> tuple[tuple[str, str], ...]:
    """The response's header fields: names in lower case, values as sent (Latin-1)."""
    return tuple(
        (name.decode("latin-1").lower(), value.decode("latin-1"))
        for name, value in response.headers.raw
    )


def _not_modified(response: httpx.Response, where: str) -> HTTPStatusCodeError:
    """A 304 holds no document: one line that says what it answered."""
    sent = [name for name in _CONDITIONS if name in response.request.headers]
    if sent:
        why = f"to the condition sent ({', '.join(sent)}): there is no document to read"
    else:
        why = "to a request that sent no condition (If-None-Match, If-Modified-Since)"
    return HTTPStatusCodeError(f"{where}: HTTP 304 Not Modified {why}", status=304, url=where)
