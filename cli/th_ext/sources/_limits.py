"""How much a source may cost, and what the caller sends with it: the limits of every read.

``SourceLimits`` holds the caller's headers (and the origins they may go to), the deadline and
the byte cap; ``check_limits`` holds them to their ranges, so the library and the command line
refuse the same values with the same words; ``read_bounded`` reads a stream in chunks, so that
memory follows what arrives and never the cap.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, BinaryIO

from th_ext._exceptions import SourceArgumentError

if TYPE_CHECKING:
    from th_ext.net import HeaderScope

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_TIMEOUT",
    "MAX_BYTES_LIMIT",
    "MAX_TIMEOUT",
    "SourceLimits",
    "check_limits",
    "header_scope",
    "parse_header",
    "read_bounded",
]

DEFAULT_TIMEOUT = 10.0
DEFAULT_MAX_BYTES = 5 * 1024 * 1024
MAX_TIMEOUT = 3600.0
"""The longest ``timeout`` accepted (seconds): an hour is far beyond any card or agent."""
MAX_BYTES_LIMIT = 1024 * 1024 * 1024
"""The largest ``max_bytes`` accepted: 1 GiB, two hundred times the default."""
_CHUNK = 64 * 1024
_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")


@dataclass(frozen=True, slots=True)
class SourceLimits:
    """How a source is read: extra request headers, the whole-fetch timeout, the byte cap.

    ``timeout`` (seconds, at most ``MAX_TIMEOUT``) applies to URLs only; ``max_bytes`` (at most
    ``MAX_BYTES_LIMIT``) to every source, counted after decompression. ``headers`` go only to
    the origin of the source URL and to the origins of ``header_origins`` (see
    ``th_ext.net.HeaderScope``).
    """

    headers: tuple[tuple[str, str], ...] = ()
    timeout: float = DEFAULT_TIMEOUT
    max_bytes: int = DEFAULT_MAX_BYTES
    header_origins: tuple[str, ...] = ()


def parse_header(text: str) -> tuple[str, str]:
    """``"Name: value"`` as ``(name, value)``; ``SourceArgumentError`` if it is malformed.

    No message ever holds the value (or, without a colon, any of the text): it is a secret.
    """
    name, colon, value = text.partition(":")
    name = name.strip()
    if not colon:
        raise SourceArgumentError(
            "a header is not of the form 'Name: value' (it has no colon; its text is not shown)"
        )
    if not _TOKEN.fullmatch(name):
        raise SourceArgumentError(
            "a header is not of the form 'Name: value' (the name before the colon is not an "
            "HTTP token; the text is not shown)"
        )
    value = value.strip()
    if any(ch in value for ch in "\r\n\0"):
        raise SourceArgumentError(f"header {name!r} has a line break or NUL in its value")
    try:
        value.encode("latin-1")
    except UnicodeEncodeError:
        raise SourceArgumentError(f"header {name!r}: HTTP header values must be Latin-1") from None
    return name, value


def header_scope(source: str | None, limits: SourceLimits) -> HeaderScope:
    """The scope of ``limits.headers`` for a run that starts at ``source`` (see ``HeaderScope``)."""
    from th_ext.net import HeaderScope

    try:
        return HeaderScope.for_source(limits.headers, source, limits.header_origins)
    except ValueError as exc:
        raise SourceArgumentError(f"header origin {exc}", code="bad-header-origin") from None


def check_limits(limits: SourceLimits) -> None:
    """``SourceArgumentError`` (one line) unless every limit is in its range."""
    timeout = limits.timeout
    if not (isinstance(timeout, int | float) and 0 < timeout <= MAX_TIMEOUT):
        raise SourceArgumentError(
            f"the timeout must be a positive number of seconds, at most {MAX_TIMEOUT:g}, "
            f"not {timeout:.6g}",
            code="bad-timeout",
        )
    if not (isinstance(limits.max_bytes, int) and 1 <= limits.max_bytes <= MAX_BYTES_LIMIT):
        shown = str(limits.max_bytes) if len(str(limits.max_bytes)) < 30 else "a larger number"
        raise SourceArgumentError(
            f"the byte cap must be at least 1, at most {MAX_BYTES_LIMIT}, not {shown}",
            code="bad-max-bytes",
        )
    for name, value in limits.headers:
        parse_header(f"{name}: {value}")
    if limits.header_origins:
        header_scope(None, limits)


def read_bounded(stream: BinaryIO, max_bytes: int) -> bytes | None:
    """At most ``max_bytes`` from ``stream``, read in chunks; ``None`` if there is more.

    Memory grows with what arrives, never with the cap: a cap of 1 GiB on a 1 KiB file
    allocates about 1 KiB.
    """
    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = stream.read(min(_CHUNK, max_bytes + 1 - total))
        if not chunk:
            return b"".join(chunks)
        total += len(chunk)
        if total > max_bytes:
            return None
        chunks.append(chunk)
