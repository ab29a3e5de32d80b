"""The exceptions th_ext raises: one small hierarchy, so a caller can catch ``ThExtError``.

Every message is a single line that names the thing at fault, fit to show a user as it is.
"""

from __future__ import annotations

__all__ = [
    "CatalogError",
    "PublishError",
    "PublishedSchemaChangedError",
    "ThExtError",
]


class ThExtError(Exception):
    """Base class of every error th_ext raises on purpose."""


class CatalogError(ThExtError):
    """An extension folder is missing a file or its metadata is malformed."""


class PublishError(ThExtError):
    """The site cannot be generated: an extension breaks a publishing rule."""


class PublishedSchemaChangedError(PublishError):
    """A schema that was already published changed or disappeared."""
