"""th_ext: the tiny-harness A2A extensions, their published files, and the checks behind th-ext.

This is the library; ``th_ext.cli`` is the command line built on it. Everything listed in
``__all__`` is public and may be imported by other programs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from th_ext._catalog import Example, ExtensionVersion, HistoryEntry, discover, find
from th_ext._exceptions import (
    CardDocumentError,
    CatalogError,
    CommandRegistrationError,
    DemoUnavailableError,
    DispatchError,
    FetchError,
    FetchTimeoutError,
    HTTPStatusError,
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
from th_ext._source import SourceLimits, read_source
from th_ext._version import __version__

if TYPE_CHECKING:
    from th_ext.validate import LoadedCard, load_card

__all__ = [
    "CardDocumentError",
    "CatalogError",
    "CommandRegistrationError",
    "DemoUnavailableError",
    "DispatchError",
    "Example",
    "ExtensionVersion",
    "FetchError",
    "FetchTimeoutError",
    "HTTPStatusError",
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

# Reading a card uses the validator's document parser: imported on first use, so that
# ``import th_ext`` stays as light as the layer it names.
_LAZY = {"LoadedCard": "th_ext.validate", "load_card": "th_ext.validate"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
