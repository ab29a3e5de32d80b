"""The host's own web font for the subtree's pages, so that both sides of the site read alike.

The extension pages ask for the VitePress default theme's font stack, whose first family,
Inter, VitePress ships inside the host's build (``assets/inter-*.woff2``, declared by
``@font-face`` rules in the host's ``assets/*.css``). A reader without Inter installed would
see it on the host's pages and a system font on ours. The subtree build copies those
``@font-face`` rules, as they are, into the subtree's ``host-fonts.css``: the fonts are then
the host's own files, on the same origin. Only rules for ``Inter`` whose every ``url()`` is a
path on the same site are taken; nothing from another origin is ever loaded.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["HOST_FONTS_CSS", "host_font_rules", "write_host_fonts"]

HOST_FONTS_CSS = "assets/stylesheets/host-fonts.css"
"""The subtree's stylesheet for the host's fonts (an empty rule set when the host has none)."""
_FAMILY = "Inter"
_RULE = re.compile(r"@font-face\s*\{[^{}]*\}")
_URL = re.compile(r"url\(\s*([^)]*)\)")
_SAFE_PATH = re.compile(r"/[A-Za-z0-9._~-][A-Za-z0-9._~/-]*\.woff2?")  # not //host/...
_MAX_CSS_BYTES = 4 * 1024 * 1024


def _is_inter(rule: str) -> bool:
    match = re.search(r"font-family\s*:\s*([^;}]*)", rule)
    return match is not None and match.group(1).strip().strip("'\"") == _FAMILY


def host_font_rules(css: str) -> list[str]:
    """The ``@font-face`` rules for Inter in ``css`` whose fonts are root-relative paths."""
    rules: list[str] = []
    for rule in _RULE.findall(css):
        if not _is_inter(rule):
            continue
        urls = [url.strip().strip("'\"") for url in _URL.findall(rule)]
        if urls and all(_SAFE_PATH.fullmatch(url) for url in urls):
            rules.append(rule)
    return rules


def write_host_fonts(dest: Path, built: Path) -> int:
    """Write the Inter ``@font-face`` rules of the host's stylesheets (``dest/assets/*.css``,
    regular files only) into ``built``'s host-fonts stylesheet; return how many."""
    rules: list[str] = []
    assets = dest / "assets"
    if assets.is_dir() and not assets.is_symlink():
        for css in sorted(assets.glob("*.css")):
            if css.is_symlink() or not css.is_file() or css.stat().st_size > _MAX_CSS_BYTES:
                continue
            for rule in host_font_rules(css.read_text(encoding="utf-8", errors="replace")):
                if rule not in rules:
                    rules.append(rule)
    target = built / HOST_FONTS_CSS
    target.parent.mkdir(parents=True, exist_ok=True)
    header = "/* The host's Inter, from its own build (th-ext-publish subtree). */\n"
    target.write_text(header + "".join(rule + "\n" for rule in rules), encoding="utf-8")
    return len(rules)
