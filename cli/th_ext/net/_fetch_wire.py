"""The wire-level pieces of one HTTP exchange: interim responses, content codings, failures.

Split from ``_fetch`` (the exchange and its limits) because each piece here is about what the
bytes from the server mean, and each is small: which responses are interim, how a compressed
body is inflated, and how a failure is put in words.
"""

from __future__ import annotations

import http.client
import socket
import zlib

from th_ext._exceptions import FetchError

__all__ = ["InterimSkippingResponse", "describe", "inflater_for", "shorten"]

_MAX_INTERIM = 16  # 1xx responses skipped before one exchange is refused


class InterimSkippingResponse(http.client.HTTPResponse):
    """A response that skips interim (1xx) responses, 103 Early Hints included.

    ``http.client`` skips only ``100 Continue``; any other 1xx would be taken as the answer.
    """

    def _read_status(self) -> tuple[str, int, str]:
        for _ in range(_MAX_INTERIM):
            version, status, reason = super()._read_status()  # type: ignore[misc]
            if not 100 <= status < 200 or status == 101:
                return version, status, reason
            http.client.parse_headers(self.fp)
        raise http.client.HTTPException(f"more than {_MAX_INTERIM} interim (1xx) responses")


def inflater_for(encoding: str, url: str) -> zlib._Decompress | None:
    if encoding in ("identity", ""):
        return None
    if encoding in ("gzip", "x-gzip"):
        return zlib.decompressobj(16 + zlib.MAX_WBITS)
    if encoding == "deflate":
        return zlib.decompressobj(32 + zlib.MAX_WBITS)
    raise FetchError(f"{url}: unsupported Content-Encoding {shorten(encoding, 60)!r}")


def describe(exc: BaseException) -> str:
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused"
    if isinstance(exc, socket.gaierror):
        return f"cannot resolve the host ({exc.strerror or exc})"
    if isinstance(exc, http.client.RemoteDisconnected):
        return "the server closed the connection without answering"
    if isinstance(exc, http.client.IncompleteRead):
        return "the server closed the connection before the body was complete"
    if isinstance(exc, zlib.error):
        return f"the compressed body is corrupt ({exc})"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    return shorten(str(exc) or type(exc).__name__)


def shorten(text: str, limit: int = 200) -> str:
    """Server-sent words (a reason phrase, a bad status line) on one line, at most ``limit``
    characters: a hostile server can send 64 KiB of them."""
    one_line = " ".join(text.split())
    return one_line if len(one_line) <= limit else one_line[: limit - 1] + "…"
