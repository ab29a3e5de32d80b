"""One bounded HTTP GET: a deadline over the whole exchange, a byte cap, and checked redirects.

Built on the standard library's ``http.client`` rather than an HTTP client package, because the
guarantees a card reader owes its user are easier to keep with direct control of the socket:

* the timeout bounds the whole fetch, redirects included. A watchdog shuts the socket down at
  the deadline, so a server that accepts and never answers, or trickles a byte at a time, cannot
  hold the caller past it;
* the body is streamed and the read stops at the cap, which counts bytes after decompression
  (a gzip or deflate body is inflated in bounded steps, so a small bomb cannot expand in memory);
* at most ``max_redirects`` redirects, only to http or https, never to a URL seen before. Caller
  headers (which may carry credentials) are sent only to the origin they were given for.
It is also a fraction of the import cost of a full client, which matters on the CLI's path;
measured against both (``benchmarks/``), this bounded fetch stays.
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
    headers: tuple[tuple[str, str], ...],
    timeout: float,
    max_bytes: int,
    max_redirects: int = 5,
    user_agent: str = "th-ext",
) -> FetchResult:
    """GET ``url`` and return the body, or raise a ``FetchError`` / ``SourceTooLargeError``."""
    deadline = time.monotonic() + timeout
    origin = _origin(url)
    seen = [url]
    current = url
    while True:
        send = [
            ("User-Agent", user_agent),
            ("Accept", "application/json, */*;q=0.5"),
            ("Accept-Encoding", "gzip, deflate"),
        ]
        if _origin(current) == origin:
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
        if scheme not in ("http", "https"):
            raise RedirectError(
                f"{current} redirects to {target}: only http and https redirects are followed",
                code="redirect-not-http",
            )
        if target in seen:
            raise RedirectError(
                f"{current} redirects to {target}, which was already visited (a redirect loop)",
                code="redirect-loop",
            )
        if len(seen) > max_redirects:
            raise RedirectError(
                f"{url}: more than {max_redirects} redirects (last to {target})",
                code="too-many-redirects",
            )
        seen.append(target)
        current = target


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    try:
        port = parts.port or (443 if scheme == "https" else 80)
    except ValueError:
        port = None
    return scheme, (parts.hostname or "").lower(), port


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
            raise SourceArgumentError(f"{self.url}: cannot be sent ({exc})") from None
        except (OSError, http.client.HTTPException, zlib.error) as exc:
            if self._expired or time.monotonic() >= self.deadline:
                raise self._timeout_error() from None
            raise FetchError(f"{self.url}: {_describe(exc)}") from None
        finally:
            watchdog.cancel()
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
            raise SourceArgumentError(f"{self.url}: the port is not a number") from None
        if not parts.hostname:
            raise SourceArgumentError(f"{self.url}: the URL names no host")
        conn: http.client.HTTPConnection
        if scheme == "https":
            import ssl

            conn = http.client.HTTPSConnection(
                parts.hostname,
                port,
                timeout=self._remaining(),
                context=ssl.create_default_context(),
            )
        else:
            conn = http.client.HTTPConnection(parts.hostname, port, timeout=self._remaining())
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
                    f"{self.url}: HTTP {response.status} redirect without a Location header",
                    code="bad-redirect",
                )
            return location
        if not 200 <= response.status < 300:
            raise HTTPStatusError(
                f"{self.url}: HTTP {response.status} {response.reason}".rstrip(),
                status=response.status,
                url=self.url,
            )
        content_type = response.getheader("Content-Type") or ""
        self.result = (response.status, content_type, self._read_body(response))
        return None

    def _read_body(self, response: http.client.HTTPResponse) -> bytes:
        encoding = (response.getheader("Content-Encoding") or "identity").strip().lower()
        inflater = _inflater(encoding, self.url)
        if inflater is None:
            length = response.getheader("Content-Length")
            if length and length.isdigit() and int(length) > self.max_bytes:
                raise self._too_large(f"announces {int(length)} bytes")
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
        if inflater is not None:
            if not inflater.eof:
                raise FetchError(f"{self.url}: the {encoding} body is truncated")
            tail = inflater.flush()
            total += len(tail)
            if total > self.max_bytes:
                raise self._too_large(f"expands past {self.max_bytes} bytes")
            chunks.append(tail)
        return b"".join(chunks)

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
        return FetchTimeoutError(f"{self.url}: no complete answer within {self.timeout:g} s")

    def _too_large(self, what: str) -> SourceTooLargeError:
        return SourceTooLargeError(
            f"{self.url}: the body {what}, over the cap of {self.max_bytes} bytes"
        )


def _inflater(encoding: str, url: str) -> zlib._Decompress | None:
    if encoding in ("identity", ""):
        return None
    if encoding in ("gzip", "x-gzip"):
        return zlib.decompressobj(16 + zlib.MAX_WBITS)
    if encoding == "deflate":
        return zlib.decompressobj(32 + zlib.MAX_WBITS)
    raise FetchError(f"{url}: unsupported Content-Encoding {encoding!r}")


def _describe(exc: BaseException) -> str:
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused"
    if isinstance(exc, socket.gaierror):
        return f"cannot resolve the host ({exc.strerror or exc})"
    if isinstance(exc, http.client.RemoteDisconnected):
        return "the server closed the connection without answering"
    if isinstance(exc, http.client.IncompleteRead):
        return "the server closed the connection before the body was complete"
    if isinstance(exc, zlib.error):
        return f"the compressed body is corrupt ({exc})"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    return " ".join((str(exc) or type(exc).__name__).split())
