"""What an origin is, and how a URL is written wherever th-ext reports it.

An origin is the (scheme, host, port) triple of RFC 6454, with the scheme's default port filled
in, so ``https://a.example`` and ``https://A.example:443/x`` are one origin. Credentials written
into a URL (``https://user:secret@host``) are never reported: ``redact_url`` replaces them.
"""

from __future__ import annotations

from typing import NamedTuple
from urllib.parse import urlsplit

__all__ = ["Origin", "origin_of", "redact", "redact_url"]

_DEFAULT_PORTS = {"http": 80, "https": 443}
# What ends the userinfo-and-host part of a URL.
_AUTHORITY_END = frozenset("/?#@")


class Origin(NamedTuple):
    """The scheme, host and port of a URL (the host lower-cased, the default port filled in)."""

    scheme: str
    host: str
    port: int | None

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        if self.port is None or self.port == _DEFAULT_PORTS.get(self.scheme):
            return f"{self.scheme}://{host}"
        return f"{self.scheme}://{host}:{self.port}"


def origin_of(url: str) -> Origin | None:
    """The origin of an http(s) ``url``; ``None`` when it has none (no host, a bad port)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if scheme not in _DEFAULT_PORTS or not host:
        return None
    return Origin(scheme, host, port if port is not None else _DEFAULT_PORTS[scheme])


def redact_url(url: str) -> str:
    """``url`` with any ``user:password@`` replaced by ``***@``; other text is unchanged."""
    return redact(url)


def redact(text: str) -> str:
    """``text`` with the credentials of every URL in it replaced by ``***``.

    After each ``://``, the run of characters up to the first ``/``, ``?``, ``#``, ``@`` or
    white space is a URL's userinfo when an ``@`` ends it. Each character is looked at once
    or twice (``str.find`` and one forward scan; a run holds no ``/``, so runs never overlap),
    so the time is linear in the text, however long a card's name or URL is.
    """
    if "@" not in text or "://" not in text:
        return text
    pieces: list[str] = []
    done = 0
    found = text.find("://")
    while found >= 0:
        start = found + 3
        end = start
        size = len(text)
        while end < size and text[end] not in _AUTHORITY_END and not text[end].isspace():
            end += 1
        if end < size and text[end] == "@":
            pieces.append(text[done:start])
            pieces.append("***")
            done = end
        found = text.find("://", start)  # a later "://" may begin inside the run's ":"
    pieces.append(text[done:])
    return "".join(pieces)
