"""Where a card comes from (a file, standard input or a URL) and the limits of each read."""

from th_ext.sources._caching import CACHING_CODES, MAX_AGE_LIMIT, caching_problems
from th_ext.sources._source import (
    DEFAULT_MAX_BYTES,
    DEFAULT_TIMEOUT,
    MAX_BYTES_LIMIT,
    MAX_RETRIES,
    MAX_TIMEOUT,
    SourceBytes,
    SourceLimits,
    check_limits,
    header_scope,
    is_url,
    parse_header,
    read_bounded,
    read_source,
)

__all__ = [
    "CACHING_CODES",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_TIMEOUT",
    "MAX_AGE_LIMIT",
    "MAX_BYTES_LIMIT",
    "MAX_RETRIES",
    "MAX_TIMEOUT",
    "SourceBytes",
    "SourceLimits",
    "caching_problems",
    "check_limits",
    "header_scope",
    "is_url",
    "parse_header",
    "read_bounded",
    "read_source",
]
