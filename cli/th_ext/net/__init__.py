"""How th-ext talks to servers it does not trust: one policy for every request it makes.

* ``HeaderScope``: the caller's headers (credentials, usually) go only to the origin of the URL
  the user typed and to origins named explicitly; every other request is sent without them.
* ``ssl_context``: one CA store for every connection, the system's (OpenSSL's default paths,
  so ``SSL_CERT_FILE`` and ``SSL_CERT_DIR`` apply).
* No proxy: th-ext connects to the server directly and ignores ``HTTP_PROXY``,
  ``HTTPS_PROXY``, ``ALL_PROXY`` and ``NO_PROXY``, in the card fetch and the live client alike.
* ``redact_url`` / ``redact``: ``user:password@`` in a URL is never reported.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from th_ext.net._origin import Origin, origin_of, redact, redact_url
from th_ext.net._scope import HeaderScope

if TYPE_CHECKING:
    import ssl

__all__ = ["HeaderScope", "Origin", "origin_of", "redact", "redact_url", "ssl_context"]

_CONTEXT: list[ssl.SSLContext] = []


def ssl_context() -> ssl.SSLContext:
    """The TLS context of every th-ext connection: certificates checked against the system store.

    Made once per process (loading the store costs milliseconds) and shared.
    """
    if not _CONTEXT:
        import ssl

        _CONTEXT.append(ssl.create_default_context())
    return _CONTEXT[0]
