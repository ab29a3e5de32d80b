"""How the tests' loopback HTTP servers run.

``serve_forever`` looks for a shutdown request once per poll interval (half a second by
default), so every ``shutdown()`` at the end of a fixture waited that long. A short interval
lets a test's server stop at once; the loop's extra wake-ups cost nothing measurable.

``LoopbackServer`` is the threading server every test server uses. A client that hangs up
mid-response (a browser leaving a page, th-ext stopping at its byte cap) is part of what the
tests do, not a failure, so that alone is not printed; any other error in a handler is printed
as ``socketserver`` does, with its traceback.
"""

from __future__ import annotations

from http.server import ThreadingHTTPServer
from typing import Any

__all__ = ["CLIENT_HANGUPS", "POLL_SECONDS", "LoopbackServer"]

POLL_SECONDS = 0.01

#: What a handler meets when the client closed its end of the connection first.
CLIENT_HANGUPS = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError)


class LoopbackServer(ThreadingHTTPServer):
    """A ``ThreadingHTTPServer`` whose handler threads never outlive the process and that
    takes a client's hang-up in silence."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        if isinstance(sys.exc_info()[1], CLIENT_HANGUPS):
            return
        super().handle_error(request, client_address)
