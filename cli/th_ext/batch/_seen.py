"""The sources a run has met, each kept as an 8-byte BLAKE2b digest of the source as reports name
it (about 16 bytes a source), so that one listed twice is checked once."""

from __future__ import annotations

from array import array
from hashlib import blake2b

from th_ext.net import redact

__all__ = ["SeenSources", "shown"]


def shown(source: str) -> str:
    """``source`` as reports name it: URL credentials redacted."""
    return redact(source) if "@" in source else source


class SeenSources:
    """A set of sources, kept as 8-byte digests in one flat table of 64-bit slots.

    Open addressing with linear probing, at most half full: about 16 bytes a source (ten million
    sources in 160 MB), where a Python set of ints would take about 60.
    """

    __slots__ = ("_count", "_mask", "_slots")

    def __init__(self) -> None:
        self._slots = array("Q", bytes(8 * _FIRST_SIZE))
        self._mask = _FIRST_SIZE - 1
        self._count = 0

    def add(self, source: str) -> bool:
        """Add ``source``; ``True`` if it was not there before."""
        digest = _digest(source)
        index = self._find(digest)
        if self._slots[index] == digest:
            return False
        self._slots[index] = digest
        self._count += 1
        if 2 * self._count > self._mask:
            self._grow()
        return True

    def __contains__(self, source: object) -> bool:
        if not isinstance(source, str):
            return False
        digest = _digest(source)
        return self._slots[self._find(digest)] == digest

    def __len__(self) -> int:
        return self._count

    def _find(self, digest: int) -> int:
        """The slot holding ``digest``, or the empty slot where it would go."""
        slots, mask = self._slots, self._mask
        index = digest & mask
        while slots[index] and slots[index] != digest:
            index = (index + 1) & mask
        return index

    def _grow(self) -> None:
        old = self._slots
        size = 2 * (self._mask + 1)
        self._slots = array("Q", bytes(8 * size))
        self._mask = size - 1
        for digest in old:
            if digest:
                self._slots[self._find(digest)] = digest


_FIRST_SIZE = 1024


def _digest(source: str) -> int:
    """The source's first 8 BLAKE2b bytes as a number, never 0 (the empty slot)."""
    digest = blake2b(shown(source).encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest) or 1
