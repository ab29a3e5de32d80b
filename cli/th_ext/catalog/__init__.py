"""The extensions th-ext bundles and the family it knows of: their folders read into
records, their schemas, requirements and files."""

from th_ext.catalog._family import (
    AppliesTo,
    ExternalExtension,
    FamilySchema,
    bundled_external,
    family_key,
    schemas_from_folder,
)
from th_ext.catalog._family_fetch import (
    family_schemas,
    fetch_family_schemas,
    http_fetcher,
    user_cache_dir,
)
from th_ext.catalog._reader import discover, find, schema_bytes, schema_sha256
from th_ext.catalog._records import Example, ExtensionVersion, HistoryEntry

__all__ = [
    "AppliesTo",
    "Example",
    "ExtensionVersion",
    "ExternalExtension",
    "FamilySchema",
    "HistoryEntry",
    "bundled_external",
    "discover",
    "family_key",
    "family_schemas",
    "fetch_family_schemas",
    "find",
    "http_fetcher",
    "schema_bytes",
    "schema_sha256",
    "schemas_from_folder",
    "user_cache_dir",
]
