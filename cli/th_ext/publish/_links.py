"""Moving a Markdown page to another folder of the site without breaking its links.

The subtree build publishes pages below ``a2a/ext/`` that were written for the site's root.
Each relative link is resolved where the page used to be; a target that moves with the
subtree is linked relatively from the page's new place, and any other target becomes an
absolute URL on the published site, so that no relative link leaves the subtree.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

__all__ = ["page_url", "rebase_links"]

# An inline link or image target: ``](target)`` or ``](target "title")``.
_INLINE = re.compile(r'(?P<open>\]\()(?P<target>[^)\s]+)(?P<close>(?:\s+"[^"]*")?\))')
# A reference definition: ``[id]: target``.
_REFERENCE = re.compile(r"^(?P<open> {0,3}\[[^\]]+\]:\s*)(?P<target>\S+)(?P<close>.*)$", re.M)
_FENCE = re.compile(r"^(?P<fence>```|~~~)")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def page_url(path: str) -> str:
    """The URL path of a docs file under directory URLs: ``x/index.md`` is ``x/``."""
    if path == "index.md":
        return ""
    if path.endswith("/index.md"):
        return path.removesuffix("index.md")
    if path.endswith(".md"):
        return path.removesuffix(".md") + "/"
    return path


def rebase_links(
    markdown: str,
    old_path: str,
    new_path: str,
    moved: Callable[[str], str | None],
    site_url: str,
) -> str:
    """``markdown`` (once at ``old_path`` in docs) with its links fixed for ``new_path``.

    ``moved`` maps an old docs path to its new one, or None when the target stays behind;
    such a target is linked as ``site_url`` plus its URL path.
    """

    def fix(match: re.Match[str]) -> str:
        target = match["target"]
        if target.startswith(("#", "/")) or _SCHEME.match(target):
            return match.group(0)
        path, hash_mark, fragment = target.partition("#")
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(old_path), path))
        new_target = moved(resolved)
        if new_target is None:
            fixed = site_url + page_url(resolved)
        else:
            fixed = posixpath.relpath(new_target, posixpath.dirname(new_path) or ".")
        return match["open"] + fixed + hash_mark + fragment + match["close"]

    parts: list[str] = []
    fenced: str | None = None
    for line in markdown.splitlines(keepends=True):
        opening = _FENCE.match(line.lstrip())
        if fenced is not None:
            if opening and opening["fence"] == fenced:
                fenced = None
            parts.append(line)
        elif opening:
            fenced = opening["fence"]
            parts.append(line)
        else:
            parts.append(_REFERENCE.sub(fix, _INLINE.sub(fix, line)))
    return "".join(parts)
