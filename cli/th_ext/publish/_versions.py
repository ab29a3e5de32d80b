"""The versions of the packages a site build ran with, recorded in the subtree's manifest.

A deployed subtree should say what made it: th-ext and every distribution its ``site`` extra
pulls in (MkDocs, Material, Markdown, Pygments...), so that a page that changed between two
deployments of one commit can be traced to the package that changed. The list is walked from
th-ext's installed metadata, so it holds exactly what the build could import.
"""

from __future__ import annotations

from importlib import metadata

__all__ = ["build_versions"]


def _canonical(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def build_versions(root: str = "th-ext", extras: tuple[str, ...] = ("site",)) -> dict[str, str]:
    """``{distribution: version}`` for ``root`` with ``extras`` and everything it requires,
    as installed; distributions that are not installed (another platform's) are left out."""
    from packaging.requirements import Requirement

    found: dict[str, str] = {}
    pending: list[tuple[str, tuple[str, ...]]] = [(root, extras)]
    while pending:
        name, wanted = pending.pop()
        key = _canonical(name)
        if key in found:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        found[key] = dist.version
        for line in dist.requires or []:
            requirement = Requirement(line)
            marker = requirement.marker
            if marker is not None and not any(
                marker.evaluate({"extra": extra}) for extra in (*wanted, "")
            ):
                continue
            pending.append((requirement.name, tuple(requirement.extras)))
    return dict(sorted(found.items()))
