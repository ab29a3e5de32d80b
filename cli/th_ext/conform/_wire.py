"""The two HTTP bindings conform speaks: JSON-RPC and HTTP+JSON (the A2A 1.0 REST binding).

Both answer in the same shape, an ``RpcExchange`` whose results are A2A 1.0 JSON: for a send,
``{"task": ...}`` or ``{"message": ...}``, one per event on a stream (a ``StreamResponse``); for
``GetTask``, the Task. Failures are data, never exceptions, and every exchange is bounded by a
deadline over the whole answer and a byte cap, as the card reader is. The caller's headers go
only where the run's ``HeaderScope`` allows (``th_ext.net``), asked before every request.
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import quote

from th_ext.dispatch._jsonrpc import JsonRpcClient, RpcExchange

if TYPE_CHECKING:
    import httpx

    from th_ext.net import HeaderScope

__all__ = ["BINDINGS", "JsonRpcWire", "RestWire", "Wire", "path_segment"]


def path_segment(value: str) -> str:
    """``value`` as one opaque path segment: every character but letters, digits, ``-``,
    ``_`` and ``~`` percent-encoded, dots included, so that a tenant or task id ``..`` is
    not a dot segment (``/rest/inner/../tasks`` would address ``/rest/tasks``)."""
    return quote(value, safe="").replace(".", "%2E")


BINDINGS = ("JSONRPC", "HTTP+JSON")
"""The bindings conform checks, by their ``protocolBinding`` names."""


class Wire(Protocol):
    binding: str
    url: str
    """The interface's URL, as the card gives it."""

    async def send(
        self, message: dict[str, Any], *, stream: bool, extensions: bool = True
    ) -> RpcExchange: ...

    async def get_task(self, task_id: str) -> RpcExchange: ...


class JsonRpcWire:
    """``SendMessage``, ``SendStreamingMessage`` and ``GetTask`` over JSON-RPC."""

    binding = "JSONRPC"

    def __init__(
        self,
        client: httpx.AsyncClient,
        url: str,
        headers: dict[str, str],
        tenant: str,
        scope: HeaderScope,
        *,
        timeout: float,
        max_bytes: int,
    ) -> None:
        self._with = JsonRpcClient(
            client,
            url,
            headers | {"Content-Type": "application/json"},
            timeout=timeout,
            max_bytes=max_bytes,
            scope=scope,
        )
        bare = {k: v for k, v in headers.items() if k.lower() != "a2a-extensions"}
        self._without = JsonRpcClient(
            client,
            url,
            bare | {"Content-Type": "application/json"},
            timeout=timeout,
            max_bytes=max_bytes,
            scope=scope,
        )
        self._tenant = tenant
        self.url = url

    def _params(self, params: dict[str, Any]) -> dict[str, Any]:
        return {**params, "tenant": self._tenant} if self._tenant else params

    async def send(
        self, message: dict[str, Any], *, stream: bool, extensions: bool = True
    ) -> RpcExchange:
        rpc = self._with if extensions else self._without
        method = "SendStreamingMessage" if stream else "SendMessage"
        return await rpc.send(rpc.body(method, self._params({"message": message})), stream=stream)

    async def get_task(self, task_id: str) -> RpcExchange:
        return await self._with.call("GetTask", self._params({"id": task_id}))


class RestWire:
    """``POST <url>/message:send``, ``POST <url>/message:stream``, ``GET <url>/tasks/{id}``."""

    binding = "HTTP+JSON"

    def __init__(
        self,
        client: httpx.AsyncClient,
        url: str,
        headers: dict[str, str],
        tenant: str,
        scope: HeaderScope,
        *,
        timeout: float,
        max_bytes: int,
    ) -> None:
        self._client = client
        self._scope = scope
        self.url = url
        base = url.rstrip("/")
        self._base = f"{base}/{path_segment(tenant)}" if tenant else base
        self._headers = {**headers, "Accept-Encoding": "identity"}
        self._timeout = timeout
        self._max_bytes = max_bytes

    async def send(
        self, message: dict[str, Any], *, stream: bool, extensions: bool = True
    ) -> RpcExchange:
        path = "/message:stream" if stream else "/message:send"
        headers = {**self._headers, **dict(self._scope.headers_for(self._base + path))}
        if not extensions:
            headers = {k: v for k, v in headers.items() if k.lower() != "a2a-extensions"}
        headers["Content-Type"] = "application/a2a+json"
        headers["Accept"] = "text/event-stream" if stream else "application/a2a+json"
        body = {"message": message}
        exchange = RpcExchange(method=path.lstrip("/"), request=body)
        await self._bounded(exchange, "POST", self._base + path, headers, body)
        return exchange

    async def get_task(self, task_id: str) -> RpcExchange:
        url = f"{self._base}/tasks/{path_segment(task_id)}"
        exchange = RpcExchange(method="GetTask", request={"id": task_id})
        if not task_id:
            exchange.failure = "the task id is empty: it cannot be a path segment; not sent"
            return exchange
        headers = {**self._headers, **dict(self._scope.headers_for(url))}
        headers["Accept"] = "application/a2a+json"
        await self._bounded(exchange, "GET", url, headers, None)
        return exchange

    async def _bounded(
        self,
        exchange: RpcExchange,
        method: str,
        url: str,
        headers: dict[str, str],
        body: dict[str, Any] | None,
    ) -> None:
        from th_ext.dispatch._jsonrpc import _describe, cannot_connect

        try:
            async with asyncio.timeout(self._timeout):
                await self._exchange(exchange, method, url, headers, body)
        except TimeoutError:
            if not exchange.results:
                exchange.failure = f"no complete answer within {self._timeout:g} s"
                exchange.unreachable = not exchange.answered
        except _TooLarge:
            exchange.failure = f"the answer is larger than the cap of {self._max_bytes} bytes"
        except Exception as exc:  # httpx errors and anything else on the wire
            exchange.failure = _describe(exc)
            exchange.unreachable = not exchange.answered and cannot_connect(exc)

    async def _exchange(
        self,
        exchange: RpcExchange,
        method: str,
        url: str,
        headers: dict[str, str],
        body: dict[str, Any] | None,
    ) -> None:
        content = json.dumps(body).encode("utf-8") if body is not None else None
        async with self._client.stream(method, url, content=content, headers=headers) as response:
            exchange.answered = True
            is_stream = response.headers.get("content-type", "").startswith("text/event-stream")
            if is_stream and response.status_code < 400:
                await self._events(response, exchange)
                return
            data = bytearray()
            async for chunk in response.aiter_bytes():
                data += chunk
                if len(data) > self._max_bytes:
                    raise _TooLarge
            if response.status_code >= 400:
                exchange.failure = _http_error(response.status_code, bytes(data))
                return
            _take(exchange, bytes(data))

    async def _events(self, response: httpx.Response, exchange: RpcExchange) -> None:
        total, buffer = 0, b""
        data: list[bytes] = []
        async for chunk in response.aiter_bytes():
            total += len(chunk)
            if total > self._max_bytes:
                raise _TooLarge
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for raw in lines:
                line = raw.rstrip(b"\r")
                if not line and data:
                    _take(exchange, b"\n".join(data))
                    data = []
                    if not exchange.ok:
                        return
                elif line.startswith(b"data:"):
                    value = line[5:]
                    data.append(value[1:] if value.startswith(b" ") else value)
        if data:
            _take(exchange, b"\n".join(data))


class _TooLarge(Exception):
    pass


def _take(exchange: RpcExchange, data: bytes) -> None:
    from th_ext.dispatch._answer import read_answer

    value, failure = read_answer(data)
    if failure is not None:
        exchange.failure = failure
        return
    if not isinstance(value, dict):
        exchange.failure = "the answer is not a JSON object"
    elif "error" in value and len(value) == 1:
        error = value["error"]
        exchange.error = error if isinstance(error, dict) else {"message": str(error)}
    else:
        exchange.results.append(value)


def _http_error(status: int, data: bytes) -> str:
    try:
        from th_ext.dispatch._answer import load_answer

        error = load_answer(data).get("error", {})
        message = error.get("message") if isinstance(error, dict) else None
    except (UnicodeDecodeError, ValueError, AttributeError, RecursionError):
        message = None
    return f"HTTP {status}" + (f": {message}" if isinstance(message, str) else "")
