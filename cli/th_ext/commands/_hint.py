"""Whether a command's ``argument_hint`` asks for an argument, read in one pass.

A hint comes from a card, so it may be anything, 150 kB of ``[`` or ``<`` included. The
convention is the usual one of usage lines: ``<focus>`` is a required argument, anything in
square brackets (``[<model>]``) is optional. The hint is scanned with ``str.find`` only, each
character looked at a bounded number of times, so the time is linear in its length (a regular
expression searched from every position was quadratic on such a hint).
"""

from __future__ import annotations

__all__ = ["asks_for_argument", "without_optional"]


def without_optional(hint: str) -> str:
    """``hint`` with every ``[...]`` removed (a ``[`` never closed stays, with what follows)."""
    kept: list[str] = []
    start = 0
    while True:
        opening = hint.find("[", start)
        if opening < 0:
            break
        closing = hint.find("]", opening + 1)
        if closing < 0:
            break
        kept.append(hint[start:opening])
        start = closing + 1
    kept.append(hint[start:])
    return "".join(kept)


def asks_for_argument(hint: str) -> bool:
    """True when a ``<...>`` stands outside square brackets in ``hint``."""
    rest = without_optional(hint)
    opening = rest.find("<")
    return opening >= 0 and rest.find(">", opening + 1) >= 0
