"""th_ext: the tiny-harness A2A extensions, their published files, and the checks behind th-ext.

This is the library; ``th_ext.cli`` is the command line built on it. Everything listed in
``__all__`` is public and may be imported by other programs.
"""

from th_ext._catalog import Example, ExtensionVersion, HistoryEntry, discover, find
from th_ext._exceptions import (
    CatalogError,
    PublishedSchemaChangedError,
    PublishError,
    ThExtError,
)
from th_ext._version import __version__

__all__ = [
    "CatalogError",
    "Example",
    "ExtensionVersion",
    "HistoryEntry",
    "PublishError",
    "PublishedSchemaChangedError",
    "ThExtError",
    "__version__",
    "discover",
    "find",
]
