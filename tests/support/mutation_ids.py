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
    return [
        _UNSAFE.sub("_", found) if isinstance(found, str) else found for found in _make_ids(self)
    ]


IdMaker.make_unique_parameterset_ids = _safe_ids  # type: ignore[method-assign]
