"""How th-ext talks to servers it does not trust: one policy for every request it makes.

* ``HeaderScope``: the caller's headers (credentials, usually) go only to the origin of the URL
  the user typed and to origins named explicitly; every other request is sent without them.
* ``ssl_context``: one CA store for every connection, the system's (OpenSSL's default paths,
  so ``SSL_CERT_FILE`` and ``SSL_CERT_DIR`` apply).
* No proxy: th-ext connects to the server directly and ignores ``HTTP_PROXY``,
  ``HTTPS_PROXY``, ``ALL_PROXY`` and ``NO_PROXY``, in the card fetch and the live client alike.
  Why neither rather than both: the deadline and byte cap are kept on the socket to the
  server itself, and a run gives the same answer on a laptop and on a CI runner.
* ``client_options``: the above as keyword arguments of an httpx client, for every client
  th-ext builds (no redirects followed either).
* ``redact_url`` / ``redact``: ``user:password@`` in a URL is never reported.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from th_ext.net._origin import Origin, origin_of, redact, redact_url
from th_ext.net._scope import HeaderScope

if TYPE_CHECKING:
    import ssl

__all__ = [
    "HeaderScope",
    "Origin",
    "client_options",
    "origin_of",
    "redact",
    "redact_url",
    "ssl_context",
]

_CONTEXT: list[ssl.SSLContext] = []


def ssl_context() -> ssl.SSLContext:
    """The TLS context of every th-ext connection: certificates checked against the system store.

    Made once per process (loading the store costs milliseconds) and shared.
    """
    if not _CONTEXT:
        import ssl

        _CONTEXT.append(ssl.create_default_context())
    return _CONTEXT[0]


def client_options() -> dict[str, Any]:
    """The policy as ``httpx.AsyncClient`` / ``httpx.Client`` keyword arguments.

    The system CA store (``ssl_context``), nothing from the environment (no proxy variables,
    no ``.netrc``), and no redirects followed: a request is never re-sent to where a server
    points. Add the timeout and connection limits of the call site.
    """
    return {"verify": ssl_context(), "trust_env": False, "follow_redirects": False}
