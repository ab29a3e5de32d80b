"""One bounded HTTP GET of a document (a card, a schema), with checked redirects, on httpx.

The guarantees a card reader owes its user, kept over an ``httpx.AsyncClient``:

* one deadline over the whole fetch, redirects included (``asyncio.timeout``), so a server
  that accepts and never answers, or trickles a byte at a time, cannot hold the caller past it;
* the body read raw and inflated within the byte cap (``read_body``), which counts bytes after
  decompression, so a small gzip bomb cannot expand in memory; a plain body whose
  ``Content-Length`` is over the cap is refused before it is read;
* at most ``max_redirects`` redirects, only to http or https, never to a URL seen before, each
  one a new request that carries the caller's headers only where its ``HeaderScope`` allows;
* a strict exchange: interim (1xx) responses are skipped, and a body shorter than its
  ``Content-Length`` is an error, not a card.

``fetch_async`` runs on the caller's client (several fetches can share one, as a fleet does);
``fetch`` is the same for a caller without an event loop, on a client of its own.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

import httpx

from th_ext._deadline import Deadline
from th_ext._exceptions import (
    FetchError,
    FetchTimeoutError,
    HTTPStatusCodeError,
    RedirectError,
    SourceArgumentError,
    SourceTooLargeError,
)
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
from th_ext.net._scope import HeaderScope, redact, redact_url

__all__ = ["FetchResult", "fetch", "fetch_async"]

_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})


@dataclass(frozen=True, slots=True)
class FetchResult:
    """A successful response: the URL it finally came from, and its decoded body."""

    url: str
    status: int
    content_type: str
    body: bytes
    redirects: tuple[str, ...]


async def fetch_async(
    url: str,
    *,
    client: httpx.AsyncClient,
    scope: HeaderScope,
    deadline: Deadline,
    max_bytes: int,
    max_redirects: int = 5,
    user_agent: str = "th-ext",
) -> FetchResult:
    """GET ``url`` through ``client`` and return the body, or raise a ``FetchError`` (its
    subclasses ``FetchTimeoutError``, ``HTTPStatusCodeError``, ``RedirectError``),
    ``SourceTooLargeError`` or ``SourceArgumentError``.

    ``client`` should be built with ``client_options()`` (no redirects followed, no proxy from
    the environment). Each request (the first and every redirect) carries
    ``scope.headers_for`` its URL. The whole fetch ends by ``deadline``; a
    ``FetchTimeoutError`` then says ``deadline.message``. Every URL in a message is redacted.
    """
    seen = [url]
    current = url
    try:
        async with asyncio.timeout(deadline.remaining()):
            while True:
                location, result = await _get(client, current, scope, max_bytes, user_agent)
                if result is not None:
                    return FetchResult(current, *result, redirects=tuple(seen[1:]))
                current = _follow(url, current, location, seen, max_redirects)
    except TimeoutError:
        raise FetchTimeoutError(f"{redact_url(current)}: {deadline.message}") from None


def fetch(
    url: str,
    *,
    scope: HeaderScope,
    deadline: Deadline,
    max_bytes: int,
    max_redirects: int = 5,
    user_agent: str = "th-ext",
) -> FetchResult:
    """``fetch_async`` for a caller without an event loop: on a loop and a client of its own.

    Called from a thread that already runs an event loop (a synchronous reader inside async
    code), the fetch runs in a worker thread, so it neither fails nor nests loops.
    """

    def run() -> FetchResult:
        return asyncio.run(_fetch_alone(url, scope, deadline, max_bytes, max_redirects, user_agent))

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return run()
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as worker:
        return worker.submit(run).result()


async def _fetch_alone(  # noqa: PLR0917 (one private step of fetch)
    url: str,
    scope: HeaderScope,
    deadline: Deadline,
    max_bytes: int,
    max_redirects: int,
    user_agent: str,
) -> FetchResult:
    async with httpx.AsyncClient(timeout=None, **client_options()) as client:
        return await fetch_async(
            url,
            client=client,
            scope=scope,
            deadline=deadline,
            max_bytes=max_bytes,
            max_redirects=max_redirects,
            user_agent=user_agent,
        )


def _follow(first: str, current: str, location: str, seen: list[str], max_redirects: int) -> str:
    """The URL a redirect to ``location`` leads to, once it passes the redirect policy."""
    target = urljoin(current, location)
    scheme = urlsplit(target).scheme.lower()
    where, to = redact_url(current), redact_url(target)
    if scheme not in ("http", "https"):
        raise RedirectError(
            f"{where} redirects to {to}: only http and https redirects are followed",
            code="redirect-not-http",
        )
    if target in seen:
        raise RedirectError(
            f"{where} redirects to {to}, which was already visited (a redirect loop)",
            code="redirect-loop",
        )
    if len(seen) > max_redirects:
        raise RedirectError(
            f"{redact_url(first)}: more than {max_redirects} redirects (last to {to})",
            code="too-many-redirects",
        )
    seen.append(target)
    return target


def _request_headers(url: str, scope: HeaderScope, user_agent: str) -> list[tuple[str, str]]:
    send = [
        ("User-Agent", user_agent),
        ("Accept", "application/json, */*;q=0.5"),
        ("Accept-Encoding", "gzip, deflate"),
    ]
    headers = scope.headers_for(url)
    if headers:
        overridden = {name.lower() for name, _ in headers}
        send = [h for h in send if h[0].lower() not in overridden] + list(headers)
    return send


async def _get(
    client: httpx.AsyncClient, url: str, scope: HeaderScope, max_bytes: int, user_agent: str
) -> tuple[str, tuple[int, str, bytes] | None]:
    """One request: a redirect's ``Location`` and ``None``, or ``""`` and (status, content
    type, body)."""
    where = redact_url(url)
    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018 (raises for a port that is not a number)
    except ValueError:
        raise SourceArgumentError(f"{where}: the port is not a number") from None
    if not parts.hostname:
        raise SourceArgumentError(f"{where}: the URL names no host")
    try:
        request = client.build_request("GET", url, headers=_request_headers(url, scope, user_agent))
    except (httpx.InvalidURL, UnicodeError) as exc:
        raise SourceArgumentError(f"{where}: cannot be sent ({shorten(str(exc))})") from None
    try:
        response = await client.send(request, stream=True)
    except httpx.TransportError as exc:
        raise FetchError(f"{where}: {redact(describe(exc))}") from None
    try:
        return await _answer(response, where, max_bytes)
    finally:
        await response.aclose()


async def _answer(
    response: httpx.Response, where: str, max_bytes: int
) -> tuple[str, tuple[int, str, bytes] | None]:
    status = response.status_code
    if status in _REDIRECT_STATUSES:
        location = response.headers.get("location", "")
        if not location:
            raise RedirectError(
                f"{where}: HTTP {status} redirect without a Location header", code="bad-redirect"
            )
        return location, None
    if not 200 <= status < 300:
        raise HTTPStatusCodeError(
            f"{where}: HTTP {status} {shorten(response.reason_phrase)}".rstrip(),
            status=status,
            url=where,
        )
    encoding = response.headers.get("content-encoding", "identity").strip().lower()
    length = response.headers.get("content-length", "")
    if encoding in ("identity", "") and length.isdigit() and int(length) > max_bytes:
        raise _too_large(where, f"announces {int(length)} bytes", max_bytes)
    chunks: list[bytes] = []
    try:
        async for chunk in read_body(response, max_bytes, where):
            chunks.append(chunk)
    except BodyTooLargeError:
        what = "sent more than" if encoding in ("identity", "") else "expands past"
        raise _too_large(where, f"{what} {max_bytes} bytes", max_bytes) from None
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
    return "", (status, content_type, b"".join(chunks))


def _too_large(where: str, what: str, max_bytes: int) -> SourceTooLargeError:
    return SourceTooLargeError(f"{where}: the body {what}, over the cap of {max_bytes} bytes")
