"""th_ext: the tiny-harness A2A extensions, their published files, and the checks behind th-ext.
The library (``th_ext.cli`` is the command line on it); everything in ``__all__`` is public."""

from __future__ import annotations

from th_ext._deadline import Deadline
from th_ext._exceptions import (
    AgentUnreachableError,
    CardDocumentError,
    CatalogError,
    CommandRegistrationError,
    ConformError,
    DeadlineError,
    DemoUnavailableError,
    DispatchError,
    FetchConnectError,
    FetchError,
    FetchTimeoutError,
    HTTPStatusCodeError,
    MessageError,
    OriginFailedError,
    PublishedSchemaChangedError,
    PublishError,
    RedirectError,
    SchemaError,
    SiteBuildError,
    SourceArgumentError,
    SourceError,
    SourceTooLargeError,
    SourceUnreadableError,
    ThExtError,
    UnknownCodeError,
)
from th_ext._version import __version__
from th_ext.catalog import Example, ExtensionVersion, HistoryEntry, discover, find
from th_ext.sources import SourceLimits, read_source
from th_ext.validate import LoadedCard, load_card

__all__ = [
    "AgentUnreachableError",
    "CardDocumentError",
    "CatalogError",
    "CommandRegistrationError",
    "ConformError",
    "Deadline",
    "DeadlineError",
    "DemoUnavailableError",
    "DispatchError",
    "Example",
    "ExtensionVersion",
    "FetchConnectError",
    "FetchError",
    "FetchTimeoutError",
    "HTTPStatusCodeError",
    "HistoryEntry",
    "LoadedCard",
    "MessageError",
    "OriginFailedError",
    "PublishError",
    "PublishedSchemaChangedError",
    "RedirectError",
    "SchemaError",
    "SiteBuildError",
    "SourceArgumentError",
    "SourceError",
    "SourceLimits",
    "SourceTooLargeError",
    "SourceUnreadableError",
    "ThExtError",
    "UnknownCodeError",
    "__version__",
    "discover",
    "find",
    "load_card",
    "read_source",
]
