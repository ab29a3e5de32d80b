"""How th-ext talks to servers it does not trust: one policy, and one HTTP stack, httpx.

* ``HeaderScope``: the caller's headers (credentials, usually) go only to the origin of the URL
  the user typed and to origins named explicitly; every other request is sent without them.
* ``ssl_context``: one CA store for every connection, the system's (OpenSSL's default paths,
  so ``SSL_CERT_FILE`` and ``SSL_CERT_DIR`` apply).
* No proxy: th-ext connects to the server directly and ignores ``HTTP_PROXY``,
  ``HTTPS_PROXY``, ``ALL_PROXY`` and ``NO_PROXY``, in the card fetch and the live client alike.
  Why neither rather than both: the deadline and byte cap are kept on the socket to the
  server itself, and a run gives the same answer on a laptop and on a CI runner.
* ``client_options``: the above as keyword arguments of an ``httpx.AsyncClient``, for every
  client th-ext builds (no redirects followed either), on httpx's own transport.
* ``redact_url`` / ``redact``: ``user:password@`` in a URL is never reported.
* ``url_problem``: why no request can be sent to a URL (no host, a port out of range, ...),
  asked before any request is made to a URL the user or a card gave.
* ``HarRecorder``: every exchange of a run as an HTTP Archive (HAR 1.2), bounded and redacted;
  ``har_recording`` gives a run one, checks its path first and writes the file at the end.

The requests themselves are made by two modules that import httpx and asyncio, which a command
that reads no URL never needs (about 60 ms of start-up, measured with ``python -X importtime``):
so they are imported from where they live, not from here.

* ``th_ext.net._fetch``: ``fetch_async`` (one GET with checked redirects, on the caller's
  client, under a ``th_ext._deadline.Deadline``, retrying what may pass), ``fetch`` (the same
  without an event loop), ``FetchResult`` and ``Retry``;
* ``th_ext.net._exchange``: ``exchange_http`` (one call to an agent, its answer recorded in an
  ``RpcExchange``), ``read_body`` (a body inflated within the byte cap), ``EventParser``
  (Server-Sent Events), ``describe`` and ``cannot_connect`` (a failure by its type).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from th_ext.net._har import (
    HAR_MAX_HEADER_VALUE,
    HAR_MAX_HEADERS,
    HAR_MAX_TOTAL_BODY_BYTES,
    HarError,
    HarRecorder,
    check_har_path,
    har_recording,
)
from th_ext.net._scope import HeaderScope, Origin, origin_of, redact, redact_url, url_problem

if TYPE_CHECKING:
    import ssl

    import httpx

__all__ = [
    "HAR_MAX_HEADERS",
    "HAR_MAX_HEADER_VALUE",
    "HAR_MAX_TOTAL_BODY_BYTES",
    "HarError",
    "HarRecorder",
    "HeaderScope",
    "Origin",
    "check_har_path",
    "client_options",
    "har_recording",
    "origin_of",
    "redact",
    "redact_url",
    "ssl_context",
    "url_problem",
]

_CONTEXT: list[ssl.SSLContext] = []


def ssl_context() -> ssl.SSLContext:
    """The TLS context of every th-ext connection: certificates checked against the system store.

    Made once per process (loading the store costs milliseconds) and shared.
    """
    if not _CONTEXT:
        import ssl  # only where a connection is made: a file read never needs TLS

        _CONTEXT.append(ssl.create_default_context())
    return _CONTEXT[0]


def client_options(
    *, limits: httpx.Limits | None = None, transport: httpx.AsyncBaseTransport | None = None
) -> dict[str, Any]:
    """The policy as keyword arguments: ``httpx.AsyncClient(**client_options(), timeout=None)``.

    httpx's own ``AsyncHTTPTransport`` on the system CA store (``ssl_context``) with ``limits``
    (connections, keep-alive; httpx's defaults when not given), nothing from the environment
    (no proxy variables, no ``.netrc``), and no redirects followed (a request is never re-sent
    to where a server points, and a ``Location`` that is not an http(s) URL is refused before
    httpx reads it: ``check_redirect``). Interim (1xx) responses are skipped by the transport,
    however many: the deadline every exchange runs under bounds them. Add the call site's timeout:
    ``None`` where every exchange runs under its own deadline, as ``fetch_async``'s do.
    With ``transport`` (one that sends through a transport made here, such as a batch's), the
    same policy on it.
    """
    # httpx costs about 60 ms of start-up: imported only where a client is built.
    import httpx

    from th_ext.net import _fetch

    if transport is None:
        transport = httpx.AsyncHTTPTransport(
            verify=ssl_context(), limits=limits or httpx.Limits(), trust_env=False
        )
    return {
        "transport": transport,
        "trust_env": False,
        "follow_redirects": False,
        "event_hooks": {"response": [_fetch.check_redirect]},
    }
