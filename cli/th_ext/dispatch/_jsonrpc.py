"""A small A2A 1.0 JSON-RPC client: one call, or one call answered with Server-Sent Events.

It exists for the live check, which must report what the agent did rather than fail on it: a
transport failure, an HTTP error, a JSON-RPC error and a malformed event are all returned as
data. Every call has a deadline over the whole exchange (the stream included) and a cap on the
bytes read, as the card reader has, and obeys the same policy (``th_ext.net``): the caller's
headers only where their ``HeaderScope`` allows, the system CA store, no proxy.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from th_ext._exceptions import FetchError

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    import httpx

    from th_ext.net import HeaderScope

__all__ = ["FINAL_STATES", "JsonRpcClient", "RpcExchange", "cannot_connect"]

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


@dataclass
class RpcExchange:
    """One JSON-RPC call as it went: the results received, or what went wrong."""

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


class JsonRpcClient:
    """Calls to one JSON-RPC endpoint with fixed headers, a deadline and a byte cap.

    ``headers`` go with every call; the caller's own headers (credentials) only through
    ``scope``, which is asked before each call.
    """

    def __init__(
        self,
        client: httpx.AsyncClient,
        url: str,
        headers: dict[str, str],
        *,
        timeout: float,
        max_bytes: int,
        scope: HeaderScope | None = None,
    ) -> None:
        self._client = client
        self._url = url
        self._scope = scope
        self._headers = {**headers, "Accept-Encoding": "identity"}
        self._timeout = timeout
        self._max_bytes = max_bytes
        self._next_id = 1

    def body(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """The next JSON-RPC request object for ``method``."""
        request_id, self._next_id = self._next_id, self._next_id + 1
        return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}

    async def call(self, method: str, params: dict[str, Any]) -> RpcExchange:
        """A plain call: one JSON response."""
        return await self.send(self.body(method, params), stream=False)

    async def send(self, body: dict[str, Any], *, stream: bool) -> RpcExchange:
        """POST ``body``; with ``stream`` the answer may be an SSE stream of responses."""
        exchange = RpcExchange(method=str(body.get("method")), request=body)
        headers = dict(self._headers)
        if self._scope is not None:
            headers.update(self._scope.headers_for(self._url))
            headers["Accept-Encoding"] = "identity"
        headers["Accept"] = "text/event-stream" if stream else "application/json"
        import asyncio

        try:
            async with asyncio.timeout(self._timeout):
                await self._exchange(exchange, headers)
        except TimeoutError:
            if not _ended(exchange):
                exchange.failure = f"no complete answer within {self._timeout:g} s"
                exchange.unreachable = not exchange.answered
        except _TooLarge:
            exchange.failure = f"the answer is larger than the cap of {self._max_bytes} bytes"
        except (_Truncated, FetchError) as exc:
            exchange.failure = str(exc)
        except Exception as exc:  # httpx errors and anything else on the wire
            from th_ext.net import redact

            exchange.failure = redact(_describe(exc))
            exchange.unreachable = not exchange.answered and cannot_connect(exc)
        return exchange

    async def _exchange(self, exchange: RpcExchange, headers: dict[str, str]) -> None:
        payload = json.dumps(exchange.request).encode("utf-8")
        async with self._client.stream(
            "POST", self._url, content=payload, headers=headers
        ) as response:
            exchange.answered = True
            if response.status_code >= 400:
                reason = " ".join(response.reason_phrase.split())[:200]
                exchange.failure = f"HTTP {response.status_code} {reason}".rstrip()
                return
            content_type = response.headers.get("content-type", "")
            if content_type.startswith("text/event-stream"):
                await self._read_events(response, exchange)
                return
            body = bytearray()
            async for chunk in self._decoded(response):
                body += chunk
            _take(exchange, bytes(body))

    async def _read_events(self, response: httpx.Response, exchange: RpcExchange) -> None:
        from th_ext.dispatch._sse import EventParser

        parser = EventParser()
        async for chunk in self._decoded(response):
            for data in parser.feed(chunk):
                _take(exchange, data)
                if exchange.failure or exchange.error:
                    return
        last = parser.close()
        if last is not None:
            _take(exchange, last)

    async def _decoded(self, response: httpx.Response) -> AsyncIterator[bytes]:
        """The body as it arrives, decoded, raising ``_TooLarge`` past the cap.

        The raw bytes are inflated here, in steps bounded by what is left of the cap, as the
        card fetch does: httpx would inflate each network chunk whole, and a small gzip chunk
        can expand a thousandfold. (``Accept-Encoding: identity`` is asked for; a server may
        compress anyway.)
        """
        from th_ext.net._fetch_wire import inflater_for

        encoding = response.headers.get("content-encoding", "identity").strip().lower()
        inflater = inflater_for(encoding, "the answer")
        total = 0
        async for raw in response.aiter_raw():
            pending = raw
            while pending:
                if inflater is None:
                    piece, pending = pending, b""
                else:
                    piece = inflater.decompress(pending, self._max_bytes - total + 1)
                    pending = inflater.unconsumed_tail
                total += len(piece)
                if total > self._max_bytes:
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


def _take(exchange: RpcExchange, data: bytes) -> None:
    """Record one JSON-RPC response (a whole body or one event's data)."""
    from th_ext.dispatch._answer import read_answer

    value, failure = read_answer(data)
    if failure is not None:
        exchange.failure = failure
        return
    if not isinstance(value, dict) or value.get("jsonrpc") != "2.0":
        exchange.failure = "the answer is not a JSON-RPC 2.0 response"
        return
    expected = exchange.request.get("id")
    if value.get("id") != expected and not (value.get("id") is None and "error" in value):
        exchange.failure = f"the answer has id {value.get('id')!r}, not the request's {expected!r}"
        return
    if "error" in value:
        error = value["error"]
        exchange.error = error if isinstance(error, dict) else {"message": str(error)}
        return
    if "result" not in value:
        exchange.failure = "a JSON-RPC response has neither result nor error"
        return
    exchange.results.append(value["result"])


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
    if isinstance(exc, httpx.HTTPError):
        return f"{type(exc).__name__}: {' '.join(str(exc).split())}"
    return f"{type(exc).__name__}: {' '.join(str(exc).split())}"
