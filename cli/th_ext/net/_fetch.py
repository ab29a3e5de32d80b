"""One bounded HTTP GET: a deadline over the whole exchange, a byte cap, and checked redirects.

Built on the standard library's ``http.client`` rather than an HTTP client package, because the
guarantees a card reader owes its user are easier to keep with direct control of the socket:

* the timeout bounds the whole fetch, redirects included. A watchdog shuts the socket down at
  the deadline, so a server that accepts and never answers, or trickles a byte at a time, cannot
  hold the caller past it;
* the body is streamed and the read stops at the cap, which counts bytes after decompression
  (a gzip or deflate body is inflated in bounded steps, so a small bomb cannot expand in memory);
* at most ``max_redirects`` redirects, only to http or https, never to a URL seen before. Caller
  headers (which may carry credentials) are sent only where their ``HeaderScope`` allows;
* the exchange is strict: interim (1xx) responses are skipped, and a body shorter than its
  ``Content-Length`` is an error, not a card.
It is also a fraction of the import cost of a full client, which matters on the CLI's path:
measured with ``python -X importtime``, ``http.client`` costs about 22 ms and httpx about 90 ms.
That is why the card fetch stays on ``http.client`` while the live client, which needs
streaming and async, uses httpx.
Both follow the same policy (``th_ext.net``): one CA store, no proxy, one header scope.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import threading
import time
import zlib
from dataclasses import dataclass
from urllib.parse import quote, urljoin, urlsplit

from th_ext._exceptions import (
    FetchError,
    FetchTimeoutError,
    HTTPStatusError,
    RedirectError,
    SourceArgumentError,
    SourceTooLargeError,
)
from th_ext.net import HeaderScope, origin_of, redact_url
from th_ext.net._fetch_wire import InterimSkippingResponse, describe, inflater_for, shorten

__all__ = ["FetchResult", "fetch"]

_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
_CHUNK = 64 * 1024
_URL_SAFE = "!#$%&'()*+,/:;=?@[]~"  # what a request target may hold as it is


@dataclass(frozen=True, slots=True)
class FetchResult:
    """A successful response: the URL it finally came from, and its decoded body."""

    url: str
    status: int
    content_type: str
    body: bytes
    redirects: tuple[str, ...]


def fetch(
    url: str,
    *,
    scope: HeaderScope,
    timeout: float,
    max_bytes: int,
    max_redirects: int = 5,
    user_agent: str = "th-ext",
    same_origin: bool = False,
) -> FetchResult:
    """GET ``url`` and return the body, or raise a ``FetchError`` / ``SourceTooLargeError``.

    Each request (the first and every redirect) carries ``scope.headers_for`` its URL. Every
    URL in a message is redacted (no ``user:password@``). With ``same_origin``, a redirect to
    another origin than ``url``'s is refused before it is followed (``redirect-off-origin``).
    """
    deadline = time.monotonic() + timeout
    seen = [url]
    current = url
    while True:
        send = [
            ("User-Agent", user_agent),
            ("Accept", "application/json, */*;q=0.5"),
            ("Accept-Encoding", "gzip, deflate"),
        ]
        headers = scope.headers_for(current)
        if headers:
            overridden = {name.lower() for name, _ in headers}
            send = [h for h in send if h[0].lower() not in overridden] + list(headers)
        exchange = _Exchange(current, send, deadline, timeout, max_bytes)
        location = exchange.run()
        if location is None:
            assert exchange.result is not None
            status, content_type, body = exchange.result
            return FetchResult(current, status, content_type, body, tuple(seen[1:]))
        target = urljoin(current, location)
        scheme = urlsplit(target).scheme.lower()
        where, to = redact_url(current), redact_url(target)
        if scheme not in ("http", "https"):
            raise RedirectError(
                f"{where} redirects to {to}: only http and https redirects are followed",
                code="redirect-not-http",
            )
        if same_origin and origin_of(target) != origin_of(url):
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
                f"{redact_url(url)}: more than {max_redirects} redirects (last to {to})",
                code="too-many-redirects",
            )
        seen.append(target)
        current = target


class _Exchange:
    """One request and its response, under the shared deadline and a socket watchdog."""

    def __init__(
        self,
        url: str,
        headers: list[tuple[str, str]],
        deadline: float,
        timeout: float,
        max_bytes: int,
    ) -> None:
        self.url = url
        self.where = redact_url(url)
        self.headers = headers
        self.deadline = deadline
        self.timeout = timeout
        self.max_bytes = max_bytes
        self.result: tuple[int, str, bytes] | None = None  # status, content type, body
        self._conn: http.client.HTTPConnection | None = None
        self._sock: socket.socket | None = None
        self._expired = False

    def run(self) -> str | None:
        """Perform the exchange: a redirect's ``Location``, or ``None`` with ``result`` set."""
        remaining = self._remaining()
        watchdog = threading.Timer(remaining, self._expire)
        watchdog.daemon = True
        watchdog.start()
        try:
            return self._perform()
        except (FetchError, SourceTooLargeError):
            raise
        except TimeoutError:
            raise self._timeout_error() from None
        except UnicodeError as exc:
            raise SourceArgumentError(f"{self.where}: cannot be sent ({exc})") from None
        except (OSError, http.client.HTTPException, zlib.error) as exc:
            if self._expired or time.monotonic() >= self.deadline:
                raise self._timeout_error() from None
            raise FetchError(f"{self.where}: {describe(exc)}") from None
        finally:
            watchdog.cancel()
            watchdog.join()  # no thread outlives the exchange
            if self._conn is not None:
                self._conn.close()
            if self._sock is not None:
                self._sock.close()

    def _perform(self) -> str | None:
        parts = urlsplit(self.url)
        scheme = parts.scheme.lower()
        try:
            port = parts.port
        except ValueError:
            raise SourceArgumentError(f"{self.where}: the port is not a number") from None
        if not parts.hostname:
            raise SourceArgumentError(f"{self.where}: the URL names no host")
        conn: http.client.HTTPConnection
        if scheme == "https":
            from th_ext.net import ssl_context

            conn = http.client.HTTPSConnection(
                parts.hostname, port, timeout=self._remaining(), context=ssl_context()
            )
        else:
            conn = http.client.HTTPConnection(parts.hostname, port, timeout=self._remaining())
        conn.response_class = InterimSkippingResponse
        self._conn = conn
        target = quote(parts.path or "/", safe=_URL_SAFE)
        if parts.query:
            target += "?" + quote(parts.query, safe=_URL_SAFE)
        conn.connect()
        self._sock = conn.sock
        self._check_deadline()
        conn.request("GET", target, headers=dict(self.headers))
        response = conn.getresponse()
        self._check_deadline()
        if response.status in _REDIRECT_STATUSES:
            location = response.getheader("Location")
            if not location:
                raise RedirectError(
                    f"{self.where}: HTTP {response.status} redirect without a Location header",
                    code="bad-redirect",
                )
            return location
        if not 200 <= response.status < 300:
            raise HTTPStatusError(
                f"{self.where}: HTTP {response.status} {shorten(response.reason)}".rstrip(),
                status=response.status,
                url=self.where,
            )
        content_type = response.getheader("Content-Type") or ""
        self.result = (response.status, content_type, self._read_body(response))
        return None

    def _read_body(self, response: http.client.HTTPResponse) -> bytes:
        encoding = (response.getheader("Content-Encoding") or "identity").strip().lower()
        inflater = inflater_for(encoding, self.where)
        if inflater is None:
            length = response.getheader("Content-Length")
            if length and length.isdigit() and int(length) > self.max_bytes:
                raise self._too_large(f"announces {int(length)} bytes")
            announced = response.length
            if announced is not None and announced <= self.max_bytes and not response.chunked:
                return self._read_announced(response)
        chunks: list[bytes] = []
        total = 0
        while True:
            self._check_deadline()
            if self._sock is not None:
                self._sock.settimeout(self._remaining())
            raw = response.read1(_CHUNK)
            if not raw:
                break
            if inflater is None:
                total += len(raw)
                if total > self.max_bytes:
                    raise self._too_large(f"sent more than {self.max_bytes} bytes")
                chunks.append(raw)
                continue
            pending = raw
            while pending:
                out = inflater.decompress(pending, self.max_bytes - total + 1)
                total += len(out)
                if total > self.max_bytes:
                    raise self._too_large(f"expands past {self.max_bytes} bytes")
                chunks.append(out)
                pending = inflater.unconsumed_tail
        if response.length:  # what Content-Length announced and never came
            raise self._short_body(response.length)
        if inflater is not None:
            if not inflater.eof:
                raise FetchError(f"{self.where}: the {encoding} body is truncated")
            tail = inflater.flush()
            total += len(tail)
            if total > self.max_bytes:
                raise self._too_large(f"expands past {self.max_bytes} bytes")
            chunks.append(tail)
        return b"".join(chunks)

    def _read_announced(self, response: http.client.HTTPResponse) -> bytes:
        """A plain body of announced length under the cap, in one read into one buffer (chunks
        and their join would hold a large body twice); the watchdog ends it at the deadline."""
        self._check_deadline()
        if self._sock is not None:
            self._sock.settimeout(self._remaining())
        try:
            return response.read()
        except http.client.IncompleteRead as exc:
            if self._expired:
                raise self._timeout_error() from None
            raise self._short_body(exc.expected) from None

    def _remaining(self) -> float:
        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            raise self._timeout_error()
        return remaining

    def _check_deadline(self) -> None:
        if self._expired:
            raise self._timeout_error()
        self._remaining()

    def _expire(self) -> None:
        """Called by the watchdog at the deadline: wake any blocked read by shutting the socket."""
        self._expired = True
        sock = self._sock
        if sock is not None:
            with contextlib.suppress(OSError):
                socket.socket.shutdown(sock, socket.SHUT_RDWR)

    def _timeout_error(self) -> FetchTimeoutError:
        return FetchTimeoutError(f"{self.where}: no complete answer within {self.timeout:g} s")

    def _short_body(self, missing: int | None) -> FetchError:
        return FetchError(
            f"{self.where}: the server closed the connection before the body was complete"
            f" ({missing} of the announced bytes missing)"
        )

    def _too_large(self, what: str) -> SourceTooLargeError:
        return SourceTooLargeError(
            f"{self.where}: the body {what}, over the cap of {self.max_bytes} bytes"
        )
