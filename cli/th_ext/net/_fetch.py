"""One bounded HTTP GET of a document (a card, a schema), with checked redirects, on httpx.

The guarantees a card reader owes its user, kept over an ``httpx.AsyncClient``:

* one deadline over the whole fetch, redirects included (``asyncio.timeout``), so a server
  that accepts and never answers, or trickles a byte at a time, cannot hold the caller past it;
* the body read raw and inflated within the byte cap (``read_body``), which counts bytes after
  decompression, so a small gzip bomb cannot expand in memory; a plain body whose
  ``Content-Length`` is over the cap is refused before it is read;
* at most ``max_redirects`` redirects, only to http or https, never to a URL seen before, each
  one a new request that carries the caller's headers only where its ``HeaderScope`` allows;
* a strict exchange: interim (1xx) responses are skipped, at most ``MAX_INTERIM`` of them
  (``PolicyTransport``, the transport of every client ``client_options`` makes), and a body
  shorter than its ``Content-Length`` is an error, not a card.

``fetch_async`` runs on the caller's client (several fetches can share one, as a fleet does);
``fetch`` is the same for a caller without an event loop, on a client of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urljoin, urlsplit

import httpcore
import httpx

from th_ext._deadline import Deadline
from th_ext._exceptions import (
    FetchError,
    FetchTimeoutError,
    HTTPStatusCodeError,
    RedirectError,
    SourceArgumentError,
    SourceTooLargeError,
    ThExtError,
)
from th_ext._sync import run_sync
from th_ext.net import client_options, ssl_context
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
from th_ext.net._scope import HeaderScope, origin_of, redact, redact_url

__all__ = ["MAX_INTERIM", "FetchResult", "PolicyTransport", "fetch", "fetch_async", "run_alone"]

T = TypeVar("T")

_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})


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
    if_none_match: str | None = None,
    recorder: HarRecorder | None = None,
) -> FetchResult:
    """GET ``url`` through ``client`` and return the body, or raise a ``FetchError`` (its
    subclasses ``FetchTimeoutError``, ``HTTPStatusCodeError``, ``RedirectError``),
    ``SourceTooLargeError`` or ``SourceArgumentError``.

    ``client`` should be built with ``client_options()`` (no redirects followed, no proxy from
    the environment). Each request (the first and every redirect) carries
    ``scope.headers_for`` its URL. The whole fetch ends by ``deadline``; a
    ``FetchTimeoutError`` then says ``deadline.message``. Every URL in a message is redacted.
    With ``same_origin``, a redirect to another origin than ``url``'s is refused before it is
    followed (``redirect-off-origin``). With ``if_none_match`` (an entity tag held from an
    earlier fetch) every request asks only for a changed document: a 304 then returns a
    ``FetchResult`` of status 304 and no body; a 304 to any other request is an error. A
    ``recorder`` records each request (HAR).
    """
    condition = () if if_none_match is None else (("If-None-Match", if_none_match),)
    seen = [url]
    current = url
    try:
        async with asyncio.timeout(deadline.remaining()):
            while True:
                location, result = await _get(
                    client,
                    current,
                    scope,
                    max_bytes,
                    user_agent,
                    condition=condition,
                    recorder=recorder,
                )
                if result is not None:
                    status, content_type, body, headers = result
                    return FetchResult(
                        current, status, content_type, body, tuple(seen[1:]), headers
                    )
                current = _follow(url, current, location, seen, max_redirects, same_origin)
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
    same_origin: bool = False,
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
    """The URL a redirect to ``location`` leads to, once it passes the redirect policy."""
    target = urljoin(current, location)
    scheme = urlsplit(target).scheme.lower()
    where, to = redact_url(current), redact_url(target)
    if scheme not in ("http", "https"):
        raise RedirectError(
            f"{where} redirects to {to}: only http and https redirects are followed",
            code="redirect-not-http",
        )
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
            f"{redact_url(first)}: more than {max_redirects} redirects (last to {to})",
            code="too-many-redirects",
        )
    seen.append(target)
    return target


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
    type, body, header fields). ``condition`` is the If-None-Match asked, if any."""
    where = redact_url(url)
    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018 (raises for a port that is not a number)
    except ValueError:
        raise SourceArgumentError(f"{where}: the port is not a number") from None
    if not parts.hostname:
        raise SourceArgumentError(f"{where}: the URL names no host")
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
            if entry is not None:
                entry.body_read(chunk)
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


def _too_large(where: str, what: str, max_bytes: int) -> SourceTooLargeError:
    return SourceTooLargeError(f"{where}: the body {what}, over the cap of {max_bytes} bytes")


# --- the transport: httpcore's connection pool, with interim responses counted ---

MAX_INTERIM = 16
"""Interim (1xx) responses skipped before one exchange is refused: httpcore skips any number."""

_ERRORS: tuple[tuple[type[Exception], type[httpx.HTTPError]], ...] = (
    (httpcore.ConnectTimeout, httpx.ConnectTimeout),
    (httpcore.ReadTimeout, httpx.ReadTimeout),
    (httpcore.WriteTimeout, httpx.WriteTimeout),
    (httpcore.PoolTimeout, httpx.PoolTimeout),
    (httpcore.ConnectError, httpx.ConnectError),
    (httpcore.ReadError, httpx.ReadError),
    (httpcore.WriteError, httpx.WriteError),
    (httpcore.UnsupportedProtocol, httpx.UnsupportedProtocol),
    (httpcore.LocalProtocolError, httpx.LocalProtocolError),
    (httpcore.RemoteProtocolError, httpx.RemoteProtocolError),
    (httpcore.TimeoutException, httpx.TimeoutException),
    (httpcore.NetworkError, httpx.NetworkError),
    (httpcore.ProtocolError, httpx.ProtocolError),
)
"""httpcore's errors as httpx's, the most specific first (what ``httpx.AsyncHTTPTransport``
does with its own table)."""


@contextlib.contextmanager
def _as_httpx_errors() -> Iterator[None]:
    try:
        yield
    except httpcore.ProxyError:
        raise
    except Exception as exc:
        for core, ours in _ERRORS:
            if isinstance(exc, core):
                raise ours(str(exc)) from exc
        raise


class PolicyTransport(httpx.AsyncBaseTransport):
    """httpx's transport for th-ext: httpcore's connection pools on the system CA store, no
    proxy, and a network stream that refuses an answer after ``MAX_INTERIM`` interim heads.

    Built on httpcore's public pool and network-backend interfaces, because httpx's own
    transport takes no network backend and httpcore reports no interim response. There is one
    pool per scheme, each made by the first request that needs it, with ``limits`` each: the TLS
    context (``th_ext.net.ssl_context``, the system store, about 20 ms to load) is made only
    when an ``https`` URL is first requested, so a run that reads plain ``http`` never pays it.
    """

    def __init__(self, *, limits: httpx.Limits, verify: ssl.SSLContext | None = None) -> None:
        self._limits = limits
        self._verify = verify
        self._pools: dict[bytes, httpcore.AsyncConnectionPool] = {}

    def _pool(self, scheme: bytes) -> httpcore.AsyncConnectionPool:
        pool = self._pools.get(scheme)
        if pool is None:
            tls = scheme == b"https"
            pool = httpcore.AsyncConnectionPool(
                ssl_context=(self._verify or ssl_context()) if tls else None,
                max_connections=self._limits.max_connections,
                max_keepalive_connections=self._limits.max_keepalive_connections,
                keepalive_expiry=self._limits.keepalive_expiry,
                network_backend=_Backend(),
            )
            self._pools[scheme] = pool
        return pool

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        assert isinstance(request.stream, httpx.AsyncByteStream)
        core = httpcore.Request(
            method=request.method,
            url=httpcore.URL(
                scheme=request.url.raw_scheme,
                host=request.url.raw_host,
                port=request.url.port,
                target=request.url.raw_path,
            ),
            headers=request.headers.raw,
            content=request.stream,
            extensions=request.extensions,
        )
        with _as_httpx_errors():
            response = await self._pool(request.url.raw_scheme).handle_async_request(core)
        assert isinstance(response.stream, AsyncIterable)
        return httpx.Response(
            status_code=response.status,
            headers=response.headers,
            stream=_Body(response.stream),
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        for pool in self._pools.values():
            await pool.aclose()


class _Body(httpx.AsyncByteStream):
    def __init__(self, stream: AsyncIterable[bytes]) -> None:
        self._stream = stream

    async def __aiter__(self) -> AsyncIterator[bytes]:
        with _as_httpx_errors():
            async for part in self._stream:
                yield part

    async def aclose(self) -> None:
        aclose = getattr(self._stream, "aclose", None)
        if aclose is not None:
            await aclose()


class _Backend(httpcore.AsyncNetworkBackend):
    def __init__(self) -> None:
        self._backend = httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        stream = await self._backend.connect_tcp(host, port, timeout, local_address, socket_options)
        return _InterimCounting(stream)

    async def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.AsyncNetworkStream:
        raise httpcore.UnsupportedProtocol("th-ext connects over TCP only")

    async def sleep(self, seconds: float) -> None:
        await self._backend.sleep(seconds)


class _InterimCounting(httpcore.AsyncNetworkStream):
    """A connection that counts the interim heads before each final one.

    After each request is written, the heads that come back are scanned (each ends with an
    empty line; its status code is at a fixed place after ``HTTP/1.x ``) until the first one
    that is not interim; the body and anything after it are never scanned.
    """

    def __init__(self, stream: httpcore.AsyncNetworkStream) -> None:
        self._stream = stream
        self._head = bytearray()
        self._scanning = False
        self._interim = 0

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._head.clear()
        self._scanning, self._interim = True, 0
        await self._stream.write(buffer, timeout)

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        data = await self._stream.read(max_bytes, timeout)
        if self._scanning:
            self._scan(data)
        return data

    def _scan(self, data: bytes) -> None:
        self._head += data
        while self._scanning:
            end = self._head.find(b"\r\n\r\n")
            if end < 0:
                if len(self._head) > 256 * 1024:  # no head is this long: h11 refuses it
                    self._scanning = False
                return
            status = bytes(self._head[9:12])
            del self._head[: end + 4]
            if len(status) == 3 and status[:1] == b"1" and status != b"101":
                self._interim += 1
                if self._interim > MAX_INTERIM:
                    raise httpcore.RemoteProtocolError(
                        f"more than {MAX_INTERIM} interim (1xx) responses"
                    )
            else:
                self._scanning = False
                self._head.clear()

    async def aclose(self) -> None:
        await self._stream.aclose()

    async def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.AsyncNetworkStream:
        stream = await self._stream.start_tls(ssl_context, server_hostname, timeout)
        return _InterimCounting(stream)

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)
