"""Which origins may receive the caller's headers: the one rule every th-ext request obeys.

A ``--header`` usually carries a credential. It goes to the origin of the URL the user typed,
and to the origins the user names explicitly (``--header-origin``), and nowhere else: not to
the target of a redirect on another origin, not to an interface a card names on another origin,
not to a ``GetTask`` endpoint the agent chose. A request to any other origin is sent without
those headers, and the scope remembers it so that the caller can say so (naming the origin,
never the header's value).

Every request th-ext makes asks ``HeaderScope.headers_for`` first; anything that sends requests
on th-ext's behalf should do the same.
"""

from __future__ import annotations

from collections.abc import Iterable

from th_ext.net._origin import Origin, origin_of, redact

__all__ = ["HeaderScope"]


class HeaderScope:
    """Headers and the origins allowed to receive them.

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
        allowed: set[Origin] = set()
        if source is not None:
            own = origin_of(source)
            if own is not None:
                allowed.add(own)
        for text in extra_origins:
            origin = origin_of(text)
            if origin is None:
                raise ValueError(f"{redact(text)!r} is not an http(s) URL with a host")
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
