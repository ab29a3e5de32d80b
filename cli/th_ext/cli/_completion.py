"""Shell completion of what th-ext knows by name: the bundled extensions.

``th-ext --install-completion`` sets up completion for the user's shell; from then on
``th-ext schema com<TAB>`` offers ``commands/v1``, and so do ``lock add`` and ``validate -e``.
The catalog is read only while completing, never when a command starts.
"""

from __future__ import annotations

__all__ = ["complete_extension"]


def complete_extension(incomplete: str) -> list[str]:
    """The bundled extension keys (``commands/v1``) and URIs that begin with ``incomplete``."""
    from th_ext._catalog import discover
    from th_ext._exceptions import ThExtError

    try:
        versions = discover(None)
    except ThExtError:  # a broken bundle completes nothing; the command will say why
        return []
    offered = [version.key for version in versions]
    if incomplete.startswith(("h", "H")):
        offered += [version.uri for version in versions]
    return [name for name in offered if name.startswith(incomplete)]
