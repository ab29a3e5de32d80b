"""Which origins may receive the caller's headers (``HeaderScope``), the one rule every th-ext
request obeys; origins of URLs, credentials in URLs redacted, and URLs no request can go to."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple
from urllib.parse import urlsplit

from th_ext._exceptions import cut

__all__ = [
    "MAX_URL_LENGTH",
    "HeaderScope",
    "Origin",
    "origin_of",
    "redact",
    "shown_url",
    "url_problem",
]


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


#: The longest URL a request can go to: httpx refuses a longer one (servers often stop at 8 KB).
MAX_URL_LENGTH = 65_536


def url_problem(url: str) -> str:
    """Why a request cannot be sent to ``url``, in a few words; ``""`` when it can be: longer
    than ``MAX_URL_LENGTH``, not a URL at all (an IPv6 host without its closing bracket), a
    port that is not a number from 0 to 65535, no host, or a host with white space or another
    character no host name holds (``exa mple.com``, ``exa%20mple.com``, which no name server
    knows)."""
    if len(url) > MAX_URL_LENGTH:
        return f"the URL is longer than {MAX_URL_LENGTH:,} characters ({len(url):,})"
    try:
        parts = urlsplit(url)
    except ValueError as exc:
        return f"not a URL ({str(exc)[:80]})"
    try:
        parts.port  # noqa: B018 (raises for a port that is not a number)
    except ValueError:
        return "the port is not a number from 0 to 65535"
    if not parts.hostname:
        return "the URL names no host"
    if any(ch.isspace() for ch in parts.hostname):
        return "the host has white space in it"
    # An IPv6 address (the one host with ":") may hold "%" before its zone (``[fe80::1%25eth0]``).
    if ":" not in parts.hostname:
        held = next((ch for ch in parts.hostname if ch in _NOT_IN_A_HOST), None)
        if held is not None:
            return f"the host has {held!r} in it, which no host name holds"
    return ""


#: What URLs do not allow in a host name (WHATWG's forbidden domain code points, beyond white
#: space and what ends a host): ``exa%20mple.com`` is no name a name server could know.
_NOT_IN_A_HOST = frozenset('%<>^|"`{}')


def shown_url(url: str, limit: int = 120) -> str:
    """``url`` as a message shows it: credentials redacted, at most ``limit`` characters."""
    return cut(redact(url), limit)


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


class HeaderScope:
    """Headers and the origins allowed to receive them.

    The caller's headers (usually credentials) go to those origins alone: never to a redirect's
    target, a card's interface or an agent's ``GetTask`` endpoint on another origin.

    Build one with ``HeaderScope.for_source``; ask ``headers_for(url)`` before each request.
    ``withheld`` lists, in order and once each, the origins that were asked for and refused.
    """

    __slots__ = ("_withheld", "headers", "origins")

    def __init__(
        self, headers: Iterable[tuple[str, str]] = (), origins: Iterable[Origin] = ()
    ) -> None:
        self.headers: tuple[tuple[str, str], ...] = tuple(headers)
        self.origins: frozenset[Origin] = frozenset(origins)
        self._withheld: list[Origin] = []

    def __repr__(self) -> str:
        names = [name for name, _ in self.headers]  # never the values
        return f"HeaderScope(headers={names}, origins={sorted(map(str, self.origins))})"

    @classmethod
    def for_source(
        cls,
        headers: Iterable[tuple[str, str]],
        source: str | None,
        extra_origins: Iterable[str] = (),
    ) -> HeaderScope:
        """The scope for headers given with ``source`` (a URL, or a file path / ``-``).

        ``source``'s origin is allowed when it is an http(s) URL; a file or standard input has
        no origin, so then only ``extra_origins`` (URLs; only their origin counts) are allowed.
        Raises ``ValueError`` for an extra origin that is not an http(s) URL with a host.
        """
        own = origin_of(source) if source is not None else None
        allowed = {own} if own is not None else set()
        for text in extra_origins:
            origin = origin_of(text)
            if origin is None:
                raise ValueError(f"{cut(redact(text), 200)!r} is not an http(s) URL with a host")
            allowed.add(origin)
        return cls(headers, allowed)

    def allows(self, url: str) -> bool:
        """Whether a request to ``url`` may carry the headers."""
        origin = origin_of(url)
        return origin is not None and origin in self.origins

    def headers_for(self, url: str) -> tuple[tuple[str, str], ...]:
        """The headers a request to ``url`` carries: all of them, or none (and remember it)."""
        if not self.headers:
            return ()
        if self.allows(url):
            return self.headers
        origin = origin_of(url)
        if origin is not None and origin not in self._withheld:
            self._withheld.append(origin)
        return ()

    @property
    def withheld(self) -> tuple[Origin, ...]:
        return tuple(self._withheld)

    def notices(self) -> tuple[str, ...]:
        """One sentence per refused origin, fit to show a user (no header value in it)."""
        count = len(self.headers)
        what = "the --header value was" if count == 1 else f"the {count} --header values were"
        return tuple(
            f"{what} not sent to {origin}: it is not the origin of the URL given "
            "(allow it with --header-origin)"
            for origin in self.withheld
        )
