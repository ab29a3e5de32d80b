"""A small A2A 1.0 JSON-RPC client: one call, or one call answered with Server-Sent Events."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from th_ext.dispatch._answer import read_answer
from th_ext.net._exchange import RpcExchange, exchange_http
from th_ext.problems._text import quoted

if TYPE_CHECKING:
    import httpx

    from th_ext.net import HarRecorder, HeaderScope

__all__ = ["JsonRpcClient"]


class JsonRpcClient:
    """Calls to one JSON-RPC endpoint with fixed headers, a deadline and a byte cap.

    ``headers`` go with every call; the caller's own headers (credentials) only through
    ``scope``, which is asked before each call. A ``recorder`` records every exchange (HAR).
    A transport failure, an HTTP error, a JSON-RPC error or a malformed event is returned in
    the ``RpcExchange``, never raised: the live check reports what the agent did.
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
        recorder: HarRecorder | None = None,
    ) -> None:
        self._client = client
        self._recorder = recorder
        self._url = url
        self._scope = scope
        self._headers = dict(headers)
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
        await exchange_http(
            self._client,
            exchange,
            "POST",
            self._url,
            headers=headers,
            accept="text/event-stream" if stream else "application/json",
            content=json.dumps(body).encode("utf-8"),
            take=_take,
            timeout=self._timeout,
            max_bytes=self._max_bytes,
            recorder=self._recorder,
        )
        return exchange


def _take(exchange: RpcExchange, data: bytes) -> None:
    """Record one JSON-RPC response (a whole body or one event's data)."""
    value, failure = read_answer(data)
    if failure is not None:
        exchange.failure = failure
        return
    if not isinstance(value, dict) or value.get("jsonrpc") != "2.0":
        exchange.failure = "the answer is not a JSON-RPC 2.0 response"
        return
    expected = exchange.request.get("id")
    if value.get("id") != expected and not (value.get("id") is None and "error" in value):
        exchange.failure = (
            f"the answer has id {quoted(value.get('id'))}, not the request's {quoted(expected)}"
        )
        return
    if "error" in value:
        error = value["error"]
        exchange.error = error if isinstance(error, dict) else {"message": str(error)}
        return
    if "result" not in value:
        exchange.failure = "a JSON-RPC response has neither result nor error"
        return
    exchange.results.append(value["result"])
