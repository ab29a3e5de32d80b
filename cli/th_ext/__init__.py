"""th_ext: the tiny-harness A2A extensions, their published files, and the checks behind th-ext.

This is the library; ``th_ext.cli`` is the command line built on it. Everything listed in
``__all__`` is public and may be imported by other programs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from th_ext._exceptions import (
    AgentUnreachableError,
    CardDocumentError,
    CatalogError,
    CommandRegistrationError,
    DeadlineError,
    DemoUnavailableError,
    DispatchError,
    FetchError,
    FetchTimeoutError,
    HTTPStatusCodeError,
    MessageError,
    PublishedSchemaChangedError,
    PublishError,
    RedirectError,
    SchemaError,
    SourceArgumentError,
    SourceError,
    SourceTooLargeError,
    SourceUnreadableError,
    ThExtError,
)
from th_ext._lazy import lazy_names as _lazy_names
from th_ext._version import __version__

if TYPE_CHECKING:
    from th_ext.catalog._reader import discover, find
    from th_ext.catalog._records import Example, ExtensionVersion, HistoryEntry
    from th_ext.sources._source import SourceLimits, read_source
    from th_ext.validate import LoadedCard, load_card

__all__ = [
    "AgentUnreachableError",
    "CardDocumentError",
    "CatalogError",
    "CommandRegistrationError",
    "DeadlineError",
    "DemoUnavailableError",
    "DispatchError",
    "Example",
    "ExtensionVersion",
    "FetchError",
    "FetchTimeoutError",
    "HTTPStatusCodeError",
    "HistoryEntry",
    "LoadedCard",
    "MessageError",
    "PublishError",
    "PublishedSchemaChangedError",
    "RedirectError",
    "SchemaError",
    "SourceArgumentError",
    "SourceError",
    "SourceLimits",
    "SourceTooLargeError",
    "SourceUnreadableError",
    "ThExtError",
    "__version__",
    "discover",
    "find",
    "load_card",
    "read_source",
]

# Imported on first use: every ``th-ext`` command imports this package first, and most of them
# never read the catalog (``tomllib``) or load a card.
__getattr__ = _lazy_names(
    __name__,
    {
        "Example": "th_ext.catalog._records",
        "ExtensionVersion": "th_ext.catalog._records",
        "HistoryEntry": "th_ext.catalog._records",
        "discover": "th_ext.catalog._reader",
        "find": "th_ext.catalog._reader",
        "SourceLimits": "th_ext.sources._source",
        "read_source": "th_ext.sources._source",
        "LoadedCard": "th_ext.validate",
        "load_card": "th_ext.validate",
    },
)
