"""The sources a run has met, so that one listed twice is checked once.

A run may list a hundred thousand sources or more, and URLs can be long; keeping each text
would cost its length. A source is kept as the first 8 bytes of its BLAKE2b digest, as one
Python int in a set: about 60 bytes a source whatever its length (6 MB for 100,000). Two
different sources share a digest with odds of about n²/2⁶⁵ (one in 3.6 million for 100,000
sources); the one met second would be reported as listed twice.

A source is compared as it is shown (``th_ext.net.redact_url``: without ``user:password@``),
which is also how the JSON Lines of a run name it, so a resumed run matches its file.
"""

from __future__ import annotations

from hashlib import blake2b

from th_ext.net import redact_url

__all__ = ["SeenSources", "shown"]


def shown(source: str) -> str:
    """``source`` as reports name it: URL credentials redacted."""
    return redact_url(source) if "@" in source else source


class SeenSources:
    """A set of sources, kept as digests."""

    __slots__ = ("_digests",)

    def __init__(self) -> None:
        self._digests: set[int] = set()

    def add(self, source: str) -> bool:
        """Add ``source``; ``True`` if it was not there before."""
        digest = int.from_bytes(
            blake2b(shown(source).encode("utf-8", "surrogatepass"), digest_size=8).digest()
        )
        if digest in self._digests:
            return False
        self._digests.add(digest)
        return True

    def __contains__(self, source: object) -> bool:
        if not isinstance(source, str):
            return False
        digest = int.from_bytes(
            blake2b(shown(source).encode("utf-8", "surrogatepass"), digest_size=8).digest()
        )
        return digest in self._digests

    def __len__(self) -> int:
        return len(self._digests)
