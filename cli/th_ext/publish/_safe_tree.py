"""Files inside one folder, never through a symbolic link: what the publisher reads and writes.

The publisher reads a repository that a pull request may change and writes into another
project's deploy folder. Both may hold symbolic links (a linked ``~/.ssh``, a dangling
``index.html``), and a path taken from a file (the subtree's manifest) may say ``..``. Every
path here is a plain relative path below a root, every component of it is checked with
``lstat`` (no link is followed), and files are opened with ``O_NOFOLLOW``, so what is read or
written is a regular file inside the root.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path, PurePosixPath

from th_ext._exceptions import SiteBuildError

__all__ = [
    "UnsafePathError",
    "check_plain_relative",
    "in_the_way",
    "read_regular",
    "regular_files",
    "remove_regular",
    "write_regular",
]

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class UnsafePathError(SiteBuildError):
    """A path leaves its folder or goes through a symbolic link."""


def check_plain_relative(relative: str) -> PurePosixPath:
    """``relative`` as a path of plain names (no ``..``, ``.``, empty part, root or drive)."""
    if not isinstance(relative, str) or not relative or "\\" in relative or "\0" in relative:
        raise UnsafePathError(f"{relative!r} is not a plain relative path")
    parts = relative.split("/")
    if any(part in ("", ".", "..") or ":" in part for part in parts):
        raise UnsafePathError(f"{relative!r} is not a plain relative path")
    return PurePosixPath(*parts)


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return path.lstat()
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return None


def in_the_way(root: Path, relative: str, *, file: bool = True) -> str | None:
    """What stops ``root/relative`` from being a regular file (or folder) reached without a link.

    None when every folder on the way is a real folder (or missing) and the last part is a
    regular file or missing (a real folder or missing when ``file`` is false); otherwise the
    relative path of the first part in the way, ``" (a symbolic link)"`` appended for a link.
    """
    parts = check_plain_relative(relative).parts
    current = root
    for index, part in enumerate(parts):
        current = current / part
        info = _lstat(current)
        if info is None:
            return None
        here = "/".join(parts[: index + 1])
        if stat.S_ISLNK(info.st_mode):
            return f"{here} (a symbolic link)"
        last = index == len(parts) - 1
        wanted = stat.S_ISREG if last and file else stat.S_ISDIR
        if not wanted(info.st_mode):
            return here
    return None


def _refuse_link(root: Path, relative: str, *, file: bool) -> None:
    blocker = in_the_way(root, relative, file=file)
    if blocker is not None:
        raise UnsafePathError(f"{root / blocker.split(' (')[0]} is not a regular {_kind(file)}")


def _kind(file: bool) -> str:
    return "file" if file else "folder"


def read_regular(root: Path, relative: str, *, limit: int | None = None) -> bytes:
    """The bytes of the regular file ``root/relative``, refusing links and special files."""
    _refuse_link(root, relative, file=True)
    path = root / relative
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW)
    except OSError as exc:
        raise UnsafePathError(f"{path} cannot be read ({exc.strerror or exc})") from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise UnsafePathError(f"{path} is not a regular file")
        return handle.read() if limit is None else handle.read(limit + 1)


def regular_files(root: Path) -> list[str]:
    """Every regular file below ``root`` (relative, sorted); a link anywhere is refused."""
    found: list[str] = []
    for folder, dirs, names in os.walk(root, followlinks=False):
        for name in [*dirs, *names]:
            path = Path(folder) / name
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode):
                raise UnsafePathError(f"{path} is a symbolic link; only regular files are read")
            if stat.S_ISREG(info.st_mode):
                found.append(path.relative_to(root).as_posix())
            elif not stat.S_ISDIR(info.st_mode):
                raise UnsafePathError(f"{path} is not a regular file")
    return sorted(found)


def write_regular(root: Path, relative: str, content: bytes) -> None:
    """Write ``root/relative`` as a regular file, making its folders; never through a link."""
    parts = check_plain_relative(relative).parts
    folder = root
    for part in parts[:-1]:
        folder = folder / part
        with contextlib.suppress(FileExistsError):
            folder.mkdir()
        _refuse_link(root, folder.relative_to(root).as_posix(), file=False)
    _refuse_link(root, relative, file=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NOFOLLOW
    fd = os.open(root / relative, flags, 0o644)
    with os.fdopen(fd, "wb") as handle:
        handle.write(content)


def remove_regular(root: Path, relative: str, keep: Path) -> None:
    """Remove the regular file ``root/relative`` and the folders it leaves empty, up to ``keep``."""
    _refuse_link(root, relative, file=True)
    path = root / relative
    path.unlink(missing_ok=True)
    folder = path.parent
    while folder != keep and folder.is_relative_to(keep) and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent
