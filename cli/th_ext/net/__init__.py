"""How th-ext talks to servers it does not trust: one policy, and one HTTP stack, httpx. The modules
that import httpx (``_fetch``, ``_exchange``) are imported from where they live, not from here."""

from __future__ import annotations

from functools import cache
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
from th_ext.net._scope import (
    MAX_URL_LENGTH,
    HeaderScope,
    Origin,
    origin_of,
    redact,
    shown_url,
    url_problem,
)

if TYPE_CHECKING:
    import ssl

    import httpx

redact_url = redact
"""The former name of ``redact``, kept for the callers of ``th_ext.net``."""

__all__ = [
    "HAR_MAX_HEADERS",
    "HAR_MAX_HEADER_VALUE",
    "HAR_MAX_TOTAL_BODY_BYTES",
    "MAX_URL_LENGTH",
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
    "shown_url",
    "ssl_context",
    "url_problem",
]


@cache
def ssl_context() -> ssl.SSLContext:
    """The TLS context of every th-ext connection: certificates checked against the system store.

    Made once per process (loading the store costs milliseconds) and shared.
    """
    import ssl  # only where a connection is made: a file read never needs TLS

    return ssl.create_default_context()


def client_options(
    *, limits: httpx.Limits | None = None, transport: httpx.AsyncBaseTransport | None = None
) -> dict[str, Any]:
    """The policy as keyword arguments: ``httpx.AsyncClient(**client_options(), timeout=None)``.

    httpx's own ``AsyncHTTPTransport`` on the system CA store (``ssl_context``) with ``limits``
    (connections, keep-alive; httpx's defaults when not given), nothing from the environment
    (no proxy variables, no ``.netrc``: the deadline and byte cap hold on the socket to the
    server itself, and a run answers the same everywhere), and no redirects followed (a request
    is never re-sent to where a server points, and a ``Location`` that is not an http(s) URL is
    refused before httpx reads it: ``check_redirect``). Interim (1xx) responses are skipped by
    the transport, however many: the deadline every exchange runs under bounds them. Add the
    call site's timeout: ``None`` where every exchange runs under its own deadline, as
    ``fetch_async``'s do. With ``transport`` (one that sends through a transport made here,
    such as a batch's), the same policy on it.
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
