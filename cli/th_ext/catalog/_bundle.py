"""Where the extensions' published files are found at run time.

An installed wheel carries them as ``th_ext/_bundled/extensions``; a source checkout (or an
editable install) reads the repository's own ``extensions/`` folder, which is the same tree.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

__all__ = ["bundled_extensions_dir"]

_PACKAGE_DIR = Path(__file__).resolve().parent.parent  # th_ext/


@cache
def bundled_extensions_dir() -> Path:
    """The folder that holds ``<name>/<version>/`` for every bundled extension."""
    installed = _PACKAGE_DIR / "_bundled" / "extensions"
    if installed.is_dir():
        return installed
    return _PACKAGE_DIR.parent.parent / "extensions"
