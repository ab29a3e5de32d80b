"""The two HTTP bindings conform speaks: JSON-RPC and HTTP+JSON (the A2A 1.0 REST binding)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import quote

from th_ext.dispatch._answer import read_answer
from th_ext.dispatch._jsonrpc import JsonRpcClient
from th_ext.net._exchange import RpcExchange, exchange_http

if TYPE_CHECKING:
    import httpx

    from th_ext.net import HarRecorder, HeaderScope

__all__ = ["BINDINGS", "JsonRpcWire", "RestWire", "Wire", "path_segment"]


def path_segment(value: str) -> str:
    """``value`` as one opaque path segment: every character but letters, digits, ``-``,
    ``_`` and ``~`` percent-encoded, dots included, so that a tenant or task id ``..`` is
    not a dot segment (``/rest/inner/../tasks`` would address ``/rest/tasks``)."""
    return quote(value, safe="").replace(".", "%2E")


BINDINGS = ("JSONRPC", "HTTP+JSON")
"""The bindings conform checks, by their ``protocolBinding`` names."""


class Wire(Protocol):
    """One binding's client: a send answers ``{"task": ...}`` or ``{"message": ...}`` (one per
    event on a stream), ``GetTask`` the Task; failures are data in the ``RpcExchange``."""

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
        recorder: HarRecorder | None = None,
    ) -> None:
        bare = {k: v for k, v in headers.items() if k.lower() != "a2a-extensions"}
        self._with, self._without = (
            JsonRpcClient(
                client,
                url,
                sent,
                timeout=timeout,
                max_bytes=max_bytes,
                scope=scope,
                recorder=recorder,
            )
            for sent in (headers, bare)
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
        recorder: HarRecorder | None = None,
    ) -> None:
        self._client = client
        self._scope = scope
        self._recorder = recorder
        self.url = url
        base = url.rstrip("/")
        self._base = f"{base}/{path_segment(tenant)}" if tenant else base
        self._headers = dict(headers)
        self._timeout = timeout
        self._max_bytes = max_bytes

    async def send(
        self, message: dict[str, Any], *, stream: bool, extensions: bool = True
    ) -> RpcExchange:
        path = "/message:stream" if stream else "/message:send"
        body = {"message": message}
        exchange = RpcExchange(method=path.lstrip("/"), request=body)
        await self._exchange(
            exchange,
            "POST",
            self._base + path,
            accept="text/event-stream" if stream else "application/a2a+json",
            content=json.dumps(body).encode(),
            extensions=extensions,
        )
        return exchange

    async def get_task(self, task_id: str) -> RpcExchange:
        url = f"{self._base}/tasks/{path_segment(task_id)}"
        exchange = RpcExchange(method="GetTask", request={"id": task_id})
        if not task_id:
            exchange.failure = "the task id is empty: it cannot be a path segment; not sent"
            return exchange
        await self._exchange(exchange, "GET", url, accept="application/a2a+json")
        return exchange

    async def _exchange(
        self,
        exchange: RpcExchange,
        method: str,
        url: str,
        *,
        accept: str,
        content: bytes | None = None,
        extensions: bool = True,
    ) -> None:
        headers = {**self._headers, **dict(self._scope.headers_for(url))}
        if not extensions:
            headers = {k: v for k, v in headers.items() if k.lower() != "a2a-extensions"}
        await exchange_http(
            self._client,
            exchange,
            method,
            url,
            headers=headers,
            accept=accept,
            content=content,
            content_type="application/a2a+json",
            take=_take,
            timeout=self._timeout,
            max_bytes=self._max_bytes,
            recorder=self._recorder,
        )


def _take(exchange: RpcExchange, data: bytes) -> None:
    """Record one HTTP+JSON answer (a whole body or one event's data): the object itself, or
    the error when it is an object with ``error`` alone."""
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
