"""Questions about a path a person gave that never raise: where the system will not even look
(a name longer than it allows, a folder it may not search), the answer is no, and the open or
write that follows says why in the system's words."""

from __future__ import annotations

from pathlib import Path

__all__ = ["is_file", "is_folder", "is_there"]


def is_folder(path: Path) -> bool:
    """``path.is_dir()``, or ``False`` where the system refuses to look."""
    try:
        return path.is_dir()
    except OSError:
        return False


def is_file(path: Path) -> bool:
    """``path.is_file()``, or ``False`` where the system refuses to look."""
    try:
        return path.is_file()
    except OSError:
        return False


def is_there(path: Path) -> bool:
    """``path.exists()``, or ``False`` where the system refuses to look."""
    try:
        return path.exists()
    except OSError:
        return False
