"""Extension URIs that nearly name a published one: a typo must not pass as "not checked".

An extension th-ext does not publish is only noted, so a card whose commands entry has a
trailing slash, ``http`` for ``https``, other letter case, or a missing or different version
segment would otherwise pass without its params ever being checked. ``near_miss`` finds the
published URI such a URI was meant to be, and says in words how the two differ.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

__all__ = ["near_miss"]


def near_miss(uri: str, published: Iterable[tuple[str, str]]) -> tuple[str, str] | None:
    """``(key, difference)`` for the published ``(uri, key)`` that ``uri`` nearly is, or None.

    ``difference`` completes "differs from <key> only by ...", e.g. "a trailing slash".
    """
    for known, key in published:
        if uri == known:
            return None
        difference = _difference(uri, known)
        if difference is not None:
            return key, difference
    return None


def _difference(uri: str, known: str) -> str | None:
    differences = []
    candidate = uri.strip()
    if candidate != uri:
        differences.append("white space around it")
    if candidate.endswith("/") and not known.endswith("/"):
        candidate = candidate.rstrip("/")
        differences.append("a trailing slash")
    scheme, _, rest = candidate.partition("://")
    known_scheme = known.partition("://")[0]
    schemes = {scheme.lower(), known_scheme}
    if scheme.lower() != known_scheme.lower() and schemes == {"http", "https"}:
        differences.append(f"the scheme {scheme}: instead of {known_scheme}:")
        candidate = f"{known_scheme}://{rest}"
    if candidate != known and candidate.lower() == known.lower():
        differences.append("letter case")
        candidate = known
    if candidate == known:
        return " and ".join(differences) if differences else None
    version = _version_difference(candidate, known)
    if version is not None:
        return " and ".join([*differences, version])
    return None


def _version_difference(candidate: str, known: str) -> str | None:
    """A URI equal to ``known`` but for its last path segment (the version), or without it."""
    parent, _, version = known.rpartition("/")
    lowered = candidate.lower()
    if lowered == parent.lower():
        return f"a missing version segment (/{version})"
    head, _, other = candidate.rpartition("/")
    if head.lower() == parent.lower() and other and urlsplit(candidate).path:
        return f"its version segment ({other!r} instead of {version!r})"
    return None
