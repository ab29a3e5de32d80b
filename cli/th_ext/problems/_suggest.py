"""The one "did you mean": the known name a mistyped one most likely stands for.

Every suggestion th-ext makes for a name comes from here: the dispatch rule's reason for a
``/command`` that is not registered, ``th-ext schema`` and the catalog for an extension key,
and the command line for a mistyped command or option.
"""

from __future__ import annotations

from collections.abc import Iterable
from difflib import SequenceMatcher

__all__ = ["closest_name"]

_CLOSE_ENOUGH = 0.75
"""The least ``SequenceMatcher`` ratio that counts as close: ``mod`` against ``model``."""


def closest_name(name: str, names: Iterable[str]) -> str | None:
    """The name in ``names`` that ``name`` most likely misspells, or None when none is close.

    Close means what a reader would call a typo: a letter added, dropped or swapped, a
    different case, a short prefix (``models``, ``Model``, ``mdoel`` and ``mod`` all suggest
    ``model``). ``name`` itself is never suggested; of names equally close, the first wins.
    """
    candidates = [n for n in names if isinstance(n, str) and n and n != name]
    if not name or not candidates:
        return None
    wanted = name.lower()
    best, best_score = None, 0.0
    for candidate in candidates:
        score = SequenceMatcher(None, wanted, candidate.lower()).ratio()
        if score > best_score:
            best, best_score = candidate, score
    return best if best_score >= _CLOSE_ENOUGH else None
