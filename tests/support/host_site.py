"""What a host's Pages artifact holds, to tell whether a build into it changed anything of it.

The host itself is the VitePress test host (``tests/support/vitepress_host.py``).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

__all__ = ["file_hashes"]


def file_hashes(root: Path) -> dict[str, str]:
    """The sha256 of every file under ``root``, by its path relative to ``root``."""
    return {
        path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }
