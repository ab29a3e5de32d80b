"""The "Check your agent" box of a spec page: the commands that check an agent against it.

A reader who has just learned what an extension version asks of an agent wants to know whether
their agent does it. The box gives the exact ``th-ext validate`` line for this version's URI
and, for a version with requirements, the ``th-ext conform`` line, with links to the th-ext
reference pages (relative to the page, so that they hold in the whole site and in the subtree).
"""

from __future__ import annotations

import posixpath

from th_ext.catalog._records import ExtensionVersion
from th_ext.catalog._requirements import load_requirements

__all__ = ["REFERENCE_DIR", "check_box"]

#: Where the th-ext reference pages are in the docs (the site's root folder ``th-ext/``).
REFERENCE_DIR = "th-ext"
_AGENT = "https://your-agent.example"


def check_box(version: ExtensionVersion, folder: str) -> list[str]:
    """The box's Markdown lines for the page at ``folder``/index.md."""

    def page(name: str) -> str:
        return posixpath.relpath(f"{REFERENCE_DIR}/{name}", folder)

    conform = bool(load_requirements(version))
    lines = [
        '!!! tip "Check your agent"',
        "",
        f"    With [th-ext]({page('index.md')}) installed "
        f"([how]({page('index.md')}#install)), check that your agent's card declares this "
        "version with valid params"
        + (", then that the agent does what this page requires:" if conform else ":"),
        "",
        "    ```bash",
        f"    th-ext validate {_AGENT} \\",
        f"      --extension {version.uri}",
    ]
    if conform:
        lines.append(f"    th-ext conform {_AGENT}")
    lines += [
        "    ```",
        "",
        f"    [`th-ext validate`]({page('validate.md')}) reads the card at "
        "`/.well-known/agent-card.json` (or a file) and shows each problem at its line.",
    ]
    if conform:
        lines[-1] += (
            f" [`th-ext conform`]({page('conform.md')}) sends the agent real messages and "
            "reports every requirement below by its ID."
        )
    return [*lines, ""]
