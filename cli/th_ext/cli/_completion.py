"""Shell completion of what th-ext knows by name: the bundled extensions.

``th-ext --install-completion`` sets up completion for the user's shell; from then on
``th-ext schema com<TAB>`` offers ``commands/v1``, and so do ``lock add`` and ``validate -e``.
The catalog is read only while completing, never when a command starts.
"""

from __future__ import annotations

from pathlib import Path

import typer

__all__ = ["complete_extension"]


def complete_extension(ctx: typer.Context, incomplete: str) -> list[str]:
    """The extension keys (``commands/v1``) and URIs that begin with ``incomplete``.

    They come from the folder the command will read: its ``--extensions-dir`` when it has one
    (``lock add`` reads the repository's folder, drafts included), else the bundled copies.
    """
    from th_ext._exceptions import ThExtError
    from th_ext.catalog._reader import discover

    folder = ctx.params.get("extensions_dir")  # typed on the line, else the default, or None
    try:
        versions = discover(Path(folder) if isinstance(folder, str | Path) else None)
    except ThExtError:  # an unreadable folder completes nothing; the command will say why
        return []
    offered = [version.key for version in versions]
    if incomplete.startswith(("h", "H")):
        offered += [version.uri for version in versions]
    return [name for name in offered if name.startswith(incomplete)]
