"""Putting the extensions' subtree into another site's Pages artifact without clobbering it.

The extension URIs live on the tiny-harness Pages site, whose artifact is built by another
repository. ``install_subtree`` copies a built subtree into ``DEST/a2a/ext/`` and writes
nothing else; it refuses, before writing anything, to replace a file it did not write, or to
add a page whose address an existing clean-URL page (``commands/v1.html``) already answers.
A manifest of what it wrote (path and sha256) lets a later run replace its own files.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from th_ext._exceptions import SiteBuildError, SubtreeConflictError
from th_ext._record import record
from th_ext._version import __version__

__all__ = [
    "MANIFEST_NAME",
    "SubtreeConflictError",
    "SubtreeResult",
    "host_page_at",
    "install_subtree",
]

MANIFEST_NAME = "th-ext-manifest.json"
# Files of a built site that belong to a site's root, not to a subtree inside another site.
_ROOT_ONLY = frozenset({"404.html"})


@record(slots=False)
class SubtreeResult:
    """What one subtree build wrote and removed."""

    written: tuple[str, ...]
    """Paths written, relative to the destination (``a2a/ext/index.html``...)."""
    removed: tuple[str, ...]
    """Paths of an earlier run that this build no longer has, removed."""
    skipped: tuple[str, ...] = ()
    """Host schema files left out, each ``<file> (why)``: no ``$id``, or one elsewhere."""


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _read_manifest(path: Path) -> dict[str, str]:
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_bytes())
        files = data["files"]
        if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
            raise TypeError("files")
    except (OSError, ValueError, KeyError, TypeError):
        raise SubtreeConflictError(
            f"{path} is not a manifest this build wrote; refusing to touch {path.parent}"
        ) from None
    return {str(key): str(value) for key, value in files.items()}


def _built_files(built: Path) -> list[str]:
    return sorted(
        path.relative_to(built).as_posix()
        for path in built.rglob("*")
        if path.is_file() and path.relative_to(built).as_posix() not in _ROOT_ONLY
    )


def _conflicts(dest: Path, planned: list[str], owned: dict[str, str]) -> list[str]:
    """Files in ``dest`` that the build would overwrite or shadow but did not write."""

    def foreign(relative: str) -> bool:
        path = dest / relative
        if not path.exists():
            return False
        return not path.is_file() or owned.get(relative) != _sha256(path)

    found: list[str] = []
    for relative in planned:
        if foreign(relative):
            found.append(relative)
        if relative.endswith("/index.html"):  # a clean-URL page answering the same address
            clean = relative.removesuffix("/index.html") + ".html"
            if foreign(clean):
                found.append(clean)
        parent = Path(relative).parent
        while parent != Path():
            if (dest / parent).exists() and not (dest / parent).is_dir():
                found.append(parent.as_posix())
            parent = parent.parent
    found += [path for path in owned if path not in planned and foreign(path)]
    return sorted(set(found))


def host_page_at(dest: Path, folder: str, prefix: str = "a2a/ext") -> str | None:
    """The host's own page answering the URI of ``folder`` (``status/v1``) in ``dest``, as a
    path relative to ``dest``, or None. The addresses are those the clean-URL refusal
    guards (``status/v1.html``, ``status/v1/index.html``); a page this build wrote earlier
    (in its manifest, unchanged) is not the host's."""
    prefix = prefix.strip("/")
    owned = _read_manifest(dest / prefix / MANIFEST_NAME)
    for relative in (f"{prefix}/{folder}.html", f"{prefix}/{folder}/index.html"):
        path = dest / relative
        if path.exists() and (not path.is_file() or owned.get(relative) != _sha256(path)):
            return relative
    return None


def install_subtree(built: Path, dest: Path, prefix: str = "a2a/ext") -> SubtreeResult:
    """Copy the site built in ``built`` to ``dest/prefix/``, refusing to clobber anything.

    Raises ``SubtreeConflictError`` naming the first file in the way (and how many more),
    before anything is written.
    """
    if dest.exists() and not dest.is_dir():
        raise SiteBuildError(f"{dest} is not a folder")
    prefix = prefix.strip("/")
    manifest_path = dest / prefix / MANIFEST_NAME
    owned = _read_manifest(manifest_path)
    planned = [f"{prefix}/{relative}" for relative in _built_files(built)]
    if f"{prefix}/{MANIFEST_NAME}" in planned:
        raise SiteBuildError(f"the built site has its own {MANIFEST_NAME}")
    conflicts = _conflicts(dest, planned, owned)
    if conflicts:
        more = f" (and {len(conflicts) - 1} more)" if len(conflicts) > 1 else ""
        raise SubtreeConflictError(
            f"{dest / conflicts[0]} is in the way: this build did not write it and will not"
            f" replace or shadow it{more}; nothing was written"
        )
    removed = [path for path in sorted(owned) if path not in planned and (dest / path).exists()]
    for relative in removed:
        (dest / relative).unlink()
        folder = (dest / relative).parent
        while folder != dest / prefix and not any(folder.iterdir()):
            folder.rmdir()
            folder = folder.parent
    files: dict[str, str] = {}
    for relative in planned:
        target = dest / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built / relative.removeprefix(prefix + "/"), target)
        files[relative] = _sha256(target)
    manifest = {"generator": f"th-ext {__version__}", "files": files}
    manifest_path.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", "utf-8")
    return SubtreeResult(written=tuple(planned), removed=tuple(removed))
