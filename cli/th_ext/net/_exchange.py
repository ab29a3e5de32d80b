"""One HTTP exchange with a server th-ext does not trust, read within bounds (a deadline, a byte
cap after decompression), its failures put in words, and Server-Sent Events."""

from __future__ import annotations

import asyncio
import json
import re
import socket
import ssl
import zlib
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from th_ext._exceptions import FetchError, cut, os_reason
from th_ext.net._scope import redact, url_problem

if TYPE_CHECKING:
    import httpx

    from th_ext.net._har import HarEntry, HarRecorder

__all__ = [
    "ERROR_BODY_BYTES",
    "ERROR_WORDS",
    "FINAL_STATES",
    "BodyCorruptError",
    "BodyTooLargeError",
    "BodyTruncatedError",
    "EventParser",
    "RpcExchange",
    "Take",
    "cannot_connect",
    "describe",
    "exchange_http",
    "inflater_for",
    "read_body",
    "shorten",
]

FINAL_STATES = frozenset(
    {
        "TASK_STATE_COMPLETED",
        "TASK_STATE_FAILED",
        "TASK_STATE_CANCELED",
        "TASK_STATE_REJECTED",
        "TASK_STATE_INPUT_REQUIRED",
        "TASK_STATE_AUTH_REQUIRED",
    }
)
"""Terminal and interrupted states: after one of them a stream closes (A2A 1.0, section 9)."""

ERROR_BODY_BYTES = 64 * 1024
"""At most this much of an HTTP error's body is read for the server's message."""

ERROR_WORDS = 200
"""At most this many characters of the server's own words (reason phrase, message) are kept."""


# --- the body, inflated within the cap ---


class BodyTooLargeError(Exception):
    """The body, decoded, is past the cap."""


class BodyTruncatedError(Exception):
    """A compressed body ended before its compressed stream did; ``args[0]`` is the coding."""


class BodyCorruptError(Exception):
    """A compressed body is not valid for its coding; ``args[0]`` says how."""


class BodyIncompleteError(Exception):
    """The connection closed before the body was complete; ``args[0]`` is how many of the
    announced bytes were missing, when the response announced its length."""


def inflater_for(encoding: str, where: str, head: bytes = b"") -> zlib._Decompress | None:
    """A decompressor for ``Content-Encoding: encoding`` (``None`` for identity), or a
    ``FetchError`` naming ``where`` for a coding th-ext does not read.

    ``deflate`` is the zlib format (RFC 9110), which some servers send without its wrapper, as
    bare deflate data (httpx reads both too); ``head``, the body's first two bytes, tells which:
    a zlib header (or a gzip one, which a mislabelled body has) is read as such, anything else
    as bare deflate data.
    """
    if encoding in ("identity", ""):
        return None
    if encoding in ("gzip", "x-gzip"):
        return zlib.decompressobj(16 + zlib.MAX_WBITS)
    if encoding == "deflate":
        wrapped = head[:2] == b"\x1f\x8b" or (
            len(head) >= 2 and head[0] & 0x0F == 8 and int.from_bytes(head[:2], "big") % 31 == 0
        )
        return zlib.decompressobj(32 + zlib.MAX_WBITS if wrapped else -zlib.MAX_WBITS)
    raise FetchError(f"{where}: unsupported Content-Encoding {shorten(encoding, 60)!r}")


async def read_body(response: httpx.Response, cap: int, where: str) -> AsyncIterator[bytes]:
    """The body of ``response`` as it arrives, decoded, raising ``BodyTooLargeError`` past
    ``cap`` bytes.

    The raw bytes are inflated here, not by httpx, which inflates each network chunk whole (a
    small gzip chunk can expand a thousandfold): at most one byte past what is left of the cap
    at a time; a chunk that does not inflate within that bound is past the cap, so what it
    leaves unread is never needed. A compressed stream that has not ended when the body does
    is ``BodyTruncatedError``; a connection closed before the announced length is
    ``BodyIncompleteError``.
    """
    # httpx costs ~60 ms of start-up: imported where a body is read, not with this module's
    # names, which the dispatch dry run loads without making a request.
    import httpx

    encoding = response.headers.get("content-encoding", "identity").strip().lower()
    inflater = inflater_for(encoding, where)  # an unknown coding is refused before reading
    head = bytearray() if encoding == "deflate" else None  # until its first two bytes are in
    announced = response.headers.get("content-length", "")
    received = total = 0
    try:
        async for chunk in response.aiter_raw():
            received += len(chunk)
            raw = chunk
            if head is not None:
                head += chunk
                if len(head) < 2:
                    continue
                raw, head = bytes(head), None
                inflater = inflater_for(encoding, where, raw)
            piece = raw if inflater is None else inflater.decompress(raw, cap - total + 1)
            total += len(piece)
            if total > cap:
                raise BodyTooLargeError
            if piece:
                yield piece
    except httpx.RemoteProtocolError:
        # Once the head is read, what breaks the protocol is a body that ends early: the
        # connection closed before the announced length or the last chunk (or a chunk's
        # framing broke off, which reads the same to the user: the body is not all there).
        missing = int(announced) - received if announced.isdigit() else None
        raise BodyIncompleteError(missing) from None
    except zlib.error as exc:
        raise BodyCorruptError(str(exc)) from None
    if head is not None or (inflater is not None and not inflater.eof):
        raise BodyTruncatedError(encoding)


# --- a failure in words ---


def cannot_connect(exc: BaseException) -> bool:
    """Whether ``exc`` means no server could be reached: refused, unresolved, TLS, or no
    connection within the deadline."""
    import httpx  # where a failure is read (see read_body)

    return isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout | httpx.UnsupportedProtocol)


def describe(exc: BaseException) -> str:
    """A wire failure in a few plain words, chosen by the type of ``exc`` and of the errors in
    its cause chain (TLS's ``ssl.SSLError``, the socket's ``OSError``), never by its text.

    A failure to connect is its reason alone (``connection refused``, ``cannot resolve the
    host (...)``, ``TLS: certificate verify failed: ...``); the caller says what it means. An
    answer that breaks HTTP is ``the HTTP exchange failed (...)`` with the parser's reason.
    """
    import httpx  # where a failure is read (see read_body)

    cause = _cause(exc)
    if isinstance(exc, httpx.ConnectTimeout):
        return "no connection in time"
    if isinstance(exc, httpx.ConnectError):
        return _os_words(cause) or "connection refused"
    if isinstance(exc, httpx.ReadError | httpx.WriteError):
        words = _os_words(cause)
        return f"the connection failed ({words})" if words else "the connection failed"
    if isinstance(exc, httpx.RemoteProtocolError):  # no answer, or a head that is not HTTP
        # h11 quotes the bytes it refused as ``bytearray(b'...')``: shown as the quoted bytes
        words = shorten(re.sub(r"bytearray\(b('.*?'|\".*?\")\)", r"\1", str(exc))).rstrip(".")
        return f"the HTTP exchange failed ({words[:1].lower()}{words[1:]})"
    return f"{type(exc).__name__}: {shorten(str(exc))}"


def _cause(exc: BaseException) -> BaseException | None:
    """The most telling error in the cause chain of ``exc``: an ``ssl.SSLError``, else an
    ``OSError`` with an ``errno``, else any ``OSError``."""
    chain: list[BaseException] = []
    pending: list[BaseException] = [exc]
    while pending and len(chain) < 64:
        current = pending.pop(0)
        if any(current is seen for seen in chain):
            continue
        chain.append(current)
        if isinstance(current, BaseExceptionGroup):
            pending.extend(current.exceptions)
        following = current.__cause__ or current.__context__
        if following is not None:
            pending.append(following)
    ranked = (
        [e for e in chain if isinstance(e, ssl.SSLError)]
        + [e for e in chain if isinstance(e, OSError) and e.errno is not None]
        + [e for e in chain if isinstance(e, OSError)]
    )
    return ranked[0] if ranked else None


def _os_words(cause: BaseException | None) -> str:
    if isinstance(cause, ssl.SSLCertVerificationError):
        why = shorten(getattr(cause, "verify_message", "") or "", 120)
        return f"TLS: certificate verify failed: {why}" if why else "TLS: certificate verify failed"
    if isinstance(cause, ssl.SSLError):
        return f"TLS: {shorten(cause.reason or str(cause), 120)}"
    if isinstance(cause, ConnectionRefusedError):
        return "connection refused"
    if isinstance(cause, socket.gaierror):
        return f"cannot resolve the host ({os_reason(cause)})"
    if isinstance(cause, OSError):
        return shorten(os_reason(cause))
    return ""


def shorten(text: str, limit: int = ERROR_WORDS) -> str:
    """Server-sent words (a reason phrase, a message) on one line, at most ``limit``
    characters: a hostile server can send 64 KiB of them."""
    return cut(" ".join(text.split()), limit)


async def http_failure(response: httpx.Response, entry: HarEntry | None = None) -> str:
    """``HTTP <status> <reason>``, and ``: <message>`` when the body is an error object with
    one (the HTTP+JSON binding's ``{"error": {"message": ...}}``, or a JSON-RPC error). The
    body read goes to ``entry`` too, when the run records its exchanges."""
    words = f"HTTP {response.status_code} {shorten(response.reason_phrase)}".rstrip()
    body = bytearray()
    try:
        async for chunk in read_body(response, ERROR_BODY_BYTES, "the answer"):
            body += chunk
            if entry is not None:
                entry.body_read(chunk)
    except (BodyTooLargeError, BodyTruncatedError, BodyCorruptError, BodyIncompleteError):
        return words
    except FetchError:
        return words
    try:
        value = json.loads(bytes(body))
    except (ValueError, RecursionError):
        return words
    error = value.get("error") if isinstance(value, dict) else None
    message = error.get("message") if isinstance(error, dict) else None
    return f"{words}: {shorten(message)}" if isinstance(message, str) and message.split() else words


# --- one call to an agent ---


@dataclass
class RpcExchange:
    """One call to an agent as it went: the results received, or what went wrong."""

    method: str
    request: dict[str, Any]
    results: list[Any] = field(default_factory=list)
    error: dict[str, Any] | None = None
    failure: str | None = None
    """A transport, HTTP or framing failure, in words (None when the exchange completed)."""
    answered: bool = False
    """The server sent a status line (whatever came after it)."""
    refused: bool = False
    """The server answered with an HTTP error status (4xx or 5xx)."""
    unreachable: bool = False
    """No server answered at all: the connection was refused, the name did not resolve, TLS
    failed, or the deadline passed before a status line came."""

    @property
    def ok(self) -> bool:
        return self.failure is None and self.error is None

    def problem(self) -> str:
        """The failure or the JSON-RPC error in words ("" when the call succeeded)."""
        if self.failure:
            return self.failure
        if self.error is not None:
            return f"JSON-RPC error {self.error.get('code')}: {self.error.get('message')}"
        return ""


Take = Callable[[RpcExchange, bytes], None]
"""Records one answer (a whole body, or one event's data) in the exchange, as the binding's
envelope says: a result, an error, or a failure."""


async def exchange_http(
    client: httpx.AsyncClient,
    exchange: RpcExchange,
    method: str,
    url: str,
    *,
    headers: dict[str, str],
    accept: str,
    content: bytes | None = None,
    content_type: str = "application/json",
    take: Take,
    timeout: float,
    max_bytes: int,
    recorder: HarRecorder | None = None,
) -> None:
    """Send one request and record its answer in ``exchange``; never raises for the wire.

    ``headers`` are the caller's; ``Accept``, ``Content-Type`` (with ``content``) and
    ``Accept-Encoding: identity`` are the exchange's own and replace a caller's header of the
    same name, whatever its case. A stream that stops answering after a final state has ended;
    before one, the deadline is a failure (``unreachable`` when not even a status line came).
    With a ``recorder``, the request and all of its answer read (within ``max_bytes``) are
    recorded too, as a HAR entry.
    """
    own = {"Accept": accept, "Accept-Encoding": "identity"}
    if content is not None:
        own["Content-Type"] = content_type
    replaced = {name.lower() for name in own}
    headers = {k: v for k, v in headers.items() if k.lower() not in replaced} | own
    problem = url_problem(url)
    if problem:
        exchange.failure = problem
        exchange.unreachable = True
        return
    entry = None
    if recorder is not None:
        entry = recorder.start(method, url, headers, content, content_type)
    try:
        async with (
            asyncio.timeout(timeout),
            client.stream(method, url, content=content, headers=headers) as response,
        ):
            exchange.answered = True
            if entry is not None:
                entry.response(response)
            if response.status_code >= 400:
                exchange.refused = True
                exchange.failure = await http_failure(response, entry)
                return
            body = read_body(response, max_bytes, "the answer")
            if entry is not None:
                body = _recorded(body, entry)
            if response.headers.get("content-type", "").startswith("text/event-stream"):
                parser = EventParser()
                async for chunk in body:
                    for data in parser.feed(chunk):
                        take(exchange, data)
                        if not exchange.ok:  # the first answer that is not a result ends the read
                            return
                last = parser.close()
                if last is not None:
                    take(exchange, last)
                return
            take(exchange, b"".join([chunk async for chunk in body]))
    except TimeoutError:
        if not _ended(exchange):
            exchange.failure = f"no complete answer within {timeout:g} s"
            exchange.unreachable = not exchange.answered
    except BodyTooLargeError:
        exchange.failure = f"the answer is larger than the cap of {max_bytes} bytes"
    except BodyTruncatedError as exc:
        exchange.failure = f"the {exc.args[0]} answer is truncated"
    except BodyCorruptError as exc:
        exchange.failure = f"the compressed answer is corrupt ({exc.args[0]})"
    except BodyIncompleteError:
        exchange.failure = "the server closed the connection before the body was complete"
    except FetchError as exc:
        exchange.failure = str(exc)
    except Exception as exc:  # httpx errors and anything else on the wire
        import httpx  # where a failure is read (see read_body)

        words = describe(exc)
        if isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout):
            words = f"cannot connect ({words})"
        if isinstance(exc, httpx.InvalidURL):  # what url_problem let through and httpx refuses
            words = f"not a URL ({exc})"
        exchange.failure = redact(words)
        exchange.unreachable = not exchange.answered and (
            cannot_connect(exc) or isinstance(exc, httpx.InvalidURL)
        )
    finally:
        if entry is not None:
            entry.end(exchange.failure)


async def _recorded(body: AsyncIterator[bytes], entry: HarEntry) -> AsyncIterator[bytes]:
    """``body``'s pieces, each recorded in ``entry`` as it is read."""
    async for piece in body:
        entry.body_read(piece)
        yield piece


def _ended(exchange: RpcExchange) -> bool:
    """A stream that timed out after a final state had in effect ended."""
    if not exchange.results:
        return False
    last = exchange.results[-1]
    if not isinstance(last, dict):
        return False
    for key in ("statusUpdate", "task"):
        event = last.get(key)
        if isinstance(event, dict):
            status = event.get("status")
            return isinstance(status, dict) and status.get("state") in FINAL_STATES
    return False


# --- Server-Sent Events ---

_BOM = b"\xef\xbb\xbf"
# A run of line ends: one character class, matched at a fixed place (linear, no backtracking).
_BLANK_RUN = re.compile(rb"[\r\n]*")


class EventParser:
    """Server-Sent Events as the HTML standard defines them; feed bytes as they arrive, and
    each ``feed`` yields the data of every event it completed.

    Lines end with CRLF, LF or a bare CR (a CR at the end of one chunk may be followed by the
    LF of the next, which is the same line end). A blank line dispatches the event; only the
    ``data`` field matters here (``event``, ``id`` and ``retry`` are read and ignored, comments
    skipped); a field line without a colon is a field with an empty value; one space after the
    colon is dropped; a byte-order mark at the very start is skipped. The parser keeps only the
    current line and the current event's data, and reads each byte a bounded number of times:
    its time is linear in the stream, whatever the lines are.
    """

    def __init__(self) -> None:
        self._line = bytearray()
        self._data: list[bytes] = []
        self._has_data = False
        self._after_cr = False
        self._started = False

    def feed(self, chunk: bytes) -> Iterator[bytes]:
        """The data (lines joined with LF) of each event completed by ``chunk``."""
        if not self._started:
            self._line += chunk
            if len(self._line) < len(_BOM) and _BOM.startswith(bytes(self._line)):
                return
            self._started = True
            chunk = bytes(self._line[3:] if self._line.startswith(_BOM) else self._line)
            self._line.clear()
        start = 0
        if self._after_cr and chunk.startswith(b"\n"):
            start = 1
        self._after_cr = False
        size = len(chunk)
        # The next CR and LF at or after ``start``, found once each (``size`` when there is
        # none), so that a chunk of a million short lines is scanned once, not once per line.
        cr = lf = -1
        while start < size:
            if not self._line and not self._has_data:  # blank lines here do nothing: skip them
                start = _BLANK_RUN.match(chunk, start).end()  # type: ignore[union-attr]
                if start >= size:
                    self._after_cr = chunk.endswith(b"\r")
                    return
            if cr < start:
                found = chunk.find(b"\r", start)
                cr = size if found < 0 else found
            if lf < start:
                found = chunk.find(b"\n", start)
                lf = size if found < 0 else found
            end = min(cr, lf)
            if end == size:
                self._line += chunk[start:]
                return
            if self._line:
                self._line += chunk[start:end]
                line = bytes(self._line)
                self._line.clear()
            else:
                line = chunk[start:end]
            if end == cr:  # CR: a following LF belongs to the same line end
                if end + 1 < size:
                    start = end + 2 if chunk[end + 1] == 10 else end + 1
                else:
                    self._after_cr = True
                    start = end + 1
            else:
                start = end + 1
            event = self._line_done(line)
            if event is not None:
                yield event

    def close(self) -> bytes | None:
        """At the end of the stream: the data of an event left without its closing blank line.

        The standard discards such an event; the live check reads it anyway, so that it can
        report what the agent sent rather than nothing.
        """
        if self._line:
            self._line_done(bytes(self._line))
            self._line.clear()
        if self._has_data:
            return self._dispatch()
        return None

    def _line_done(self, line: bytes) -> bytes | None:
        if not line:
            return self._dispatch() if self._has_data else None
        if line.startswith(b":"):
            return None
        name, colon, value = line.partition(b":")
        if colon and value.startswith(b" "):
            value = value[1:]
        if name == b"data":
            self._data.append(value)
            self._has_data = True
        return None

    def _dispatch(self) -> bytes:
        data = b"\n".join(self._data)
        self._data = []
        self._has_data = False
        return data
