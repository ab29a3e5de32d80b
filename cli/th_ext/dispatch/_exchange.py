"""One HTTP request to an agent and its answer, read the one way both bindings need.

JSON-RPC (``dispatch --live``, ``conform``) and HTTP+JSON (``conform``) differ only in the
envelope around each answer; the rest is here, once: a deadline over the whole exchange (a
stream included), a cap on the bytes read after decompression (inflated in steps bounded by
what is left of the cap, as the card fetch does, never a network chunk at a time), Server-Sent
Events parsed as the HTML standard defines them, an HTTP error with the server's own message
in bounded words, and every failure returned as data with credentials redacted.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from th_ext._exceptions import FetchError

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    import httpx

__all__ = ["FINAL_STATES", "RpcExchange", "Take", "cannot_connect", "exchange_http"]

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
"""Terminal and interrupted states: after one of them a stream closes (spec 9)."""

ERROR_BODY_BYTES = 64 * 1024
"""At most this much of an HTTP error's body is read for the server's message."""

ERROR_WORDS = 200
"""At most this many characters of the server's own words (reason phrase, message) are kept."""


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
) -> None:
    """Send one request and record its answer in ``exchange``; never raises for the wire.

    ``headers`` are the caller's; ``Accept``, ``Content-Type`` (with ``content``) and
    ``Accept-Encoding: identity`` are the exchange's own and replace a caller's header of the
    same name, whatever its case. A stream that stops answering after a final state has ended;
    before one, the deadline is a failure (``unreachable`` when not even a status line came).
    """
    own = {"Accept": accept, "Accept-Encoding": "identity"}
    if content is not None:
        own["Content-Type"] = content_type
    replaced = {name.lower() for name in own}
    headers = {k: v for k, v in headers.items() if k.lower() not in replaced} | own
    try:
        async with asyncio.timeout(timeout):
            await _read(client, exchange, method, url, headers, content, take, max_bytes)
    except TimeoutError:
        if not _ended(exchange):
            exchange.failure = f"no complete answer within {timeout:g} s"
            exchange.unreachable = not exchange.answered
    except _TooLarge:
        exchange.failure = f"the answer is larger than the cap of {max_bytes} bytes"
    except (_Truncated, FetchError) as exc:
        exchange.failure = str(exc)
    except Exception as exc:  # httpx errors and anything else on the wire
        from th_ext.net import redact

        exchange.failure = redact(_describe(exc))
        exchange.unreachable = not exchange.answered and cannot_connect(exc)


async def _read(  # noqa: PLR0917 (one private step of exchange_http)
    client: httpx.AsyncClient,
    exchange: RpcExchange,
    method: str,
    url: str,
    headers: dict[str, str],
    content: bytes | None,
    take: Take,
    max_bytes: int,
) -> None:
    async with client.stream(method, url, content=content, headers=headers) as response:
        exchange.answered = True
        if response.status_code >= 400:
            exchange.failure = await _http_failure(response)
            return
        if response.headers.get("content-type", "").startswith("text/event-stream"):
            await _read_events(response, exchange, take, max_bytes)
            return
        body = bytearray()
        async for chunk in _decoded(response, max_bytes):
            body += chunk
        take(exchange, bytes(body))


async def _read_events(
    response: httpx.Response, exchange: RpcExchange, take: Take, max_bytes: int
) -> None:
    """Each event's data as it completes; the first one that is not a result ends the read."""
    from th_ext.dispatch._sse import EventParser

    parser = EventParser()
    async for chunk in _decoded(response, max_bytes):
        for data in parser.feed(chunk):
            take(exchange, data)
            if not exchange.ok:
                return
    last = parser.close()
    if last is not None:
        take(exchange, last)


async def _http_failure(response: httpx.Response) -> str:
    """``HTTP <status> <reason>``, and ``: <message>`` when the body is an error object with
    one (the HTTP+JSON binding's ``{"error": {"message": ...}}``, or a JSON-RPC error)."""
    reason = " ".join(response.reason_phrase.split())[:ERROR_WORDS]
    words = f"HTTP {response.status_code} {reason}".rstrip()
    body = bytearray()
    try:
        async for chunk in _decoded(response, ERROR_BODY_BYTES):
            body += chunk
    except (_TooLarge, _Truncated, FetchError):
        return words
    message = _error_message(bytes(body))
    return f"{words}: {message}" if message else words


def _error_message(body: bytes) -> str:
    from th_ext.dispatch._answer import read_answer

    value, failure = read_answer(body)
    if failure is not None or not isinstance(value, dict):
        return ""
    error = value.get("error")
    message = error.get("message") if isinstance(error, dict) else None
    return " ".join(message.split())[:ERROR_WORDS] if isinstance(message, str) else ""


async def _decoded(response: httpx.Response, cap: int) -> AsyncIterator[bytes]:
    """The body as it arrives, decoded, raising ``_TooLarge`` past ``cap`` bytes.

    The raw bytes are inflated here, at most one byte past what is left of the cap at a time:
    httpx would inflate each network chunk whole, and a small gzip chunk can expand a
    thousandfold. A chunk that does not inflate within that bound is past the cap, so what it
    leaves unread is never needed. (``Accept-Encoding: identity`` is asked for; a server may
    compress anyway.)
    """
    from th_ext.net._fetch_wire import inflater_for

    encoding = response.headers.get("content-encoding", "identity").strip().lower()
    inflater = inflater_for(encoding, "the answer")
    total = 0
    async for raw in response.aiter_raw():
        piece = raw if inflater is None else inflater.decompress(raw, cap - total + 1)
        total += len(piece)
        if total > cap:
            raise _TooLarge
        if piece:
            yield piece
    if inflater is not None and not inflater.eof:
        raise _Truncated(encoding)


class _Truncated(Exception):
    def __str__(self) -> str:
        return f"the {self.args[0]} answer is truncated"


class _TooLarge(Exception):
    pass


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


def cannot_connect(exc: Exception) -> bool:
    """Whether ``exc`` means no server could be reached: refused, unresolved, TLS, or no
    connection within the deadline."""
    import httpx

    return isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout | httpx.UnsupportedProtocol)


def _describe(exc: Exception) -> str:
    import httpx

    if isinstance(exc, httpx.ConnectError):
        return f"cannot connect ({' '.join(str(exc).split()) or 'connection refused'})"
    if isinstance(exc, httpx.RemoteProtocolError) and "without sending complete" in str(exc):
        return "the server closed the connection before the body was complete"
    return f"{type(exc).__name__}: {' '.join(str(exc).split())}"
