"""Putting the extensions' subtree into another site's Pages artifact without clobbering it,
reading and writing only regular files inside one folder."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from th_ext._exceptions import SiteBuildError, SubtreeConflictError, os_reason
from th_ext._version import __version__

__all__ = [
    "MANIFEST_NAME",
    "SubtreeConflictError",
    "SubtreeResult",
    "UnsafePathError",
    "check_destination",
    "host_page_at",
    "install_subtree",
    "read_regular",
    "regular_files",
    "write_regular",
]


# Files inside one folder, never through a symbolic link: what the publisher reads and writes.
#
# The publisher reads a repository that a pull request may change and writes into another
# project's deploy folder. Both may hold symbolic links (a linked ``~/.ssh``, a dangling
# ``index.html``), and a path taken from a file (the subtree's manifest) may say ``..``. Every
# path here is a plain relative path below a root, every component of it is checked with
# ``lstat`` (no link is followed), and files are opened with ``O_NOFOLLOW``, so what is read or
# written is a regular file inside the root.

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
    except (FileNotFoundError, NotADirectoryError):
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
        kind = "file" if file else "folder"
        raise UnsafePathError(f"{root / blocker.split(' (')[0]} is not a regular {kind}")


def read_regular(root: Path, relative: str, *, limit: int | None = None) -> bytes:
    """The bytes of the regular file ``root/relative``, refusing links and special files."""
    _refuse_link(root, relative, file=True)
    path = root / relative
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW)
    except OSError as exc:
        raise UnsafePathError(f"{path} cannot be read ({os_reason(exc)})") from None
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


MANIFEST_NAME = "th-ext-manifest.json"
# Files of a built site that belong to a site's root, not to a subtree inside another site.
_ROOT_ONLY = frozenset({"404.html"})
# A manifest lists a few hundred files; a bigger one is not one this build wrote.
_MANIFEST_LIMIT = 8 * 1024 * 1024


@dataclass(frozen=True)
class SubtreeResult:
    """What one subtree build wrote and removed."""

    written: tuple[str, ...]
    """Paths written, relative to the destination (``a2a/ext/index.html``...)."""
    removed: tuple[str, ...]
    """Paths of an earlier run that this build no longer has, removed."""
    skipped: tuple[str, ...] = ()
    """Host schema files left out, each ``<file> (why)``: no ``$id``, or one elsewhere."""


def _sha256(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def _refuse(message: str) -> SubtreeConflictError:
    return SubtreeConflictError(f"{message}; nothing was written")


def _read_manifest(dest: Path, prefix: str) -> dict[str, str]:
    """The files an earlier run recorded, each a plain relative path inside ``prefix``."""
    relative = f"{prefix}/{MANIFEST_NAME}"
    path = dest / relative
    blocker = in_the_way(dest, relative)
    if blocker is not None:
        raise _refuse(f"{dest / blocker} is in the way of the manifest; refusing to touch it")
    if not path.exists():
        return {}
    try:
        data = json.loads(read_regular(dest, relative, limit=_MANIFEST_LIMIT))
        files = data["files"]
        if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
            raise TypeError("files")
    except (OSError, ValueError, KeyError, TypeError):
        raise _refuse(
            f"{path} is not a manifest this build wrote; refusing to touch {path.parent}"
        ) from None
    for entry in files:
        try:
            check_plain_relative(entry)
        except UnsafePathError:
            entry_ok = False
        else:
            entry_ok = entry.startswith(prefix + "/") and entry != relative
        if not entry_ok:
            raise _refuse(
                f"{path} lists {entry!r}, which is not a plain relative path inside {prefix}/;"
                " refusing to touch anything it lists"
            )
    return {str(key): str(value) for key, value in files.items()}


def _built_files(built: Path) -> list[str]:
    return [path for path in regular_files(built) if path not in _ROOT_ONLY]


def _foreign(dest: Path, relative: str, owned: dict[str, str]) -> str | None:
    """What in ``dest`` at ``relative`` this build did not write: a file not in the manifest
    (or changed since), or the link or special file in the way; None when there is none."""
    blocker = in_the_way(dest, relative)
    if blocker is not None:
        return blocker
    if not (dest / relative).exists():
        return None
    return None if owned.get(relative) == _sha256(read_regular(dest, relative)) else relative


def _conflicts(
    dest: Path, planned: list[str], owned: dict[str, str], forwarding: frozenset[str]
) -> list[str]:
    """Files in ``dest`` that the build would overwrite, shadow or remove but did not write.
    A forwarding page (which leads to the clean-URL page at its address) shadows nothing."""
    found: list[str] = []
    for relative in planned:
        found.append(_foreign(dest, relative, owned) or "")
        if relative.endswith("/index.html") and relative not in forwarding:
            # a clean-URL page answering the same address
            clean_url = relative.removesuffix("/index.html") + ".html"
            found.append(_foreign(dest, clean_url, owned) or "")
    found += [_foreign(dest, path, owned) or "" for path in owned if path not in planned]
    return sorted(set(found) - {""})


def check_destination(dest: Path, prefix: str = "a2a/ext") -> dict[str, str]:
    """Refuse a destination the subtree cannot be installed in safely; return its manifest.

    Run before the build as well, so that a refusal costs no build.
    """
    if dest.exists() and not dest.is_dir():
        raise SiteBuildError(f"{dest} is not a folder")
    check_plain_relative(prefix)
    blocker = in_the_way(dest, prefix, file=False)
    if blocker is not None:
        raise _refuse(f"{dest / blocker} is in the way: the subtree goes only into a real folder")
    return _read_manifest(dest, prefix)


def host_page_at(dest: Path, folder: str, prefix: str = "a2a/ext") -> str | None:
    """The host's own page answering the URI of ``folder`` (``status/v1``) in ``dest``, as a
    path relative to ``dest``, or None. The addresses are those the clean-URL refusal
    guards (``status/v1.html``, ``status/v1/index.html``); a page this build wrote earlier
    (in its manifest, unchanged) is not the host's."""
    prefix = prefix.strip("/")
    owned = check_destination(dest, prefix)
    pages = (f"{prefix}/{folder}.html", f"{prefix}/{folder}/index.html")
    return next((page for page in pages if _foreign(dest, page, owned) is not None), None)


def install_subtree(
    built: Path,
    dest: Path,
    prefix: str = "a2a/ext",
    forwarding: frozenset[str] = frozenset(),
    versions: dict[str, str] | None = None,
) -> SubtreeResult:
    """Copy the site built in ``built`` to ``dest/prefix/``, refusing to clobber anything.

    ``forwarding`` are built ``<folder>/index.html`` pages that lead to the host's own
    ``<folder>.html``, which a served ``<folder>/schema.json`` would otherwise hide.
    ``versions`` (the packages the build ran with) is recorded in the manifest, beside each
    file written and its sha256, so that a later run may replace its own files.

    Only regular files inside ``dest/prefix`` are written or removed, never through a
    symbolic link. Raises ``SubtreeConflictError`` naming the first file in the way (and
    how many more), before anything is written.
    """
    prefix = prefix.strip("/")
    owned = check_destination(dest, prefix)
    planned = [f"{prefix}/{relative}" for relative in _built_files(built)]
    manifest = f"{prefix}/{MANIFEST_NAME}"
    if manifest in planned:
        raise SiteBuildError(f"the built site has its own {MANIFEST_NAME}")
    conflicts = _conflicts(dest, planned, owned, forwarding)
    if conflicts:
        more = f" (and {len(conflicts) - 1} more)" if len(conflicts) > 1 else ""
        raise _refuse(
            f"{dest / conflicts[0]} is in the way: this build did not write it and will not"
            f" replace or shadow it{more}"
        )
    removed = [path for path in sorted(owned) if path not in planned and (dest / path).exists()]
    for relative in removed:
        remove_regular(dest, relative, keep=dest / prefix)
    files: dict[str, str] = {}
    for relative in planned:
        content = read_regular(built, relative.removeprefix(prefix + "/"))
        write_regular(dest, relative, content)
        files[relative] = _sha256(content)
    record: dict[str, object] = {"generator": f"th-ext {__version__}", "files": files}
    if versions:
        record["versions"] = versions
    record_text = json.dumps(record, indent=2, sort_keys=True)
    write_regular(dest, manifest, (record_text + "\n").encode("utf-8"))
    return SubtreeResult(written=tuple(planned), removed=tuple(removed))
