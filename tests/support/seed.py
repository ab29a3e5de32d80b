"""The commands extension's source text, against which the published files are compared.

It lives beside the repository (``../shared/seeds/``), not in it; ``TH_EXT_SEED`` names
another copy. Where it is absent the comparisons are skipped, unless ``TH_EXT_REQUIRE_SEED``
is set, as the project's CI does, where they fail.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

__all__ = ["seed_text"]

_DEFAULT = REPO_ROOT.parent / "shared" / "seeds" / "000_bb32927f4b65f7f4.txt"


def seed_text() -> str:
    path = Path(os.environ.get("TH_EXT_SEED") or _DEFAULT)
    if not path.is_file():
        if os.environ.get("TH_EXT_REQUIRE_SEED"):
            pytest.fail(f"the extension's source text is missing: {path}")
        pytest.skip(f"the extension's source text is not at {path}")
    return path.read_text(encoding="utf-8")
