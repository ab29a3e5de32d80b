"""Test ids that mutmut can select again: installed as the mutation workspace's conftest.py.

mutmut runs each mutant against the tests that reach it, naming them by node id; pytest cannot
find an id again when a parameter's id holds ``/`` or a backslash escape. In the mutation runs
only (``make mutate``), every parameter id is rewritten to safe characters.
"""

from __future__ import annotations

import re
from typing import Any

from _pytest.python import IdMaker

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")
_make_ids = IdMaker.make_unique_parameterset_ids


def _safe_ids(self: IdMaker) -> list[Any]:
    """The ids pytest would give, in safe characters, still unique within the parametrization."""
    safe: list[Any] = []
    taken: set[str] = set()
    for given in _make_ids(self):
        if not isinstance(given, str):
            safe.append(given)
            continue
        base = _UNSAFE.sub("_", given)
        unique, suffix = base, 1
        while unique in taken:
            unique, suffix = f"{base}_{suffix}", suffix + 1
        taken.add(unique)
        safe.append(unique)
    return safe


IdMaker.make_unique_parameterset_ids = _safe_ids  # type: ignore[method-assign]
