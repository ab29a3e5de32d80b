"""A small stand-in for the tiny-harness Pages artifact, which the subtree build goes into.

It has the shape of the host's VitePress build (base ``/tiny-harness/``, clean URLs): a home
page, ``404.html``, ``assets/``, and the host's own spec pages ``a2a/ext/task/v1.html`` and
``a2a/ext/channel/v1.html``, each linking to the others with root-relative links.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

__all__ = ["file_hashes", "make_host_site"]

_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title} | tiny-harness</title>
<link rel="stylesheet" href="/tiny-harness/assets/style.css"></head>
<body><nav><a href="/tiny-harness/">Home</a> <a href="/tiny-harness/a2a/ext/task/v1">Task</a>
<a href="/tiny-harness/a2a/ext/channel/v1">Channel</a>
<a href="/tiny-harness/a2a/ext/commands/v1">Commands</a></nav>
<main><h1 id="top">{title}</h1><p>{body}</p></main>
<script src="/tiny-harness/assets/app.js"></script></body></html>
"""


def make_host_site(root: Path) -> Path:
    """A small stand-in for the tiny-harness VitePress artifact, in its clean-URL layout."""
    pages = {
        "index.html": ("tiny-harness", "A harness for agents."),
        "404.html": ("Not found", "Nothing here."),
        "a2a/ext/task/v1.html": ("Task extension v1", "The task extension."),
        "a2a/ext/channel/v1.html": ("Channel extension v1", "The channel extension."),
    }
    for path, (title, body) in pages.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(_PAGE.format(title=title, body=body), encoding="utf-8")
    (root / "assets").mkdir()
    (root / "assets/style.css").write_text("body { font-family: sans-serif; }\n", "utf-8")
    (root / "assets/app.js").write_text("document.documentElement.dataset.host = '1';\n", "utf-8")
    return root


def file_hashes(root: Path) -> dict[str, str]:
    return {
        path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }
