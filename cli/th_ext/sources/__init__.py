"""Where a card comes from (a file, standard input or a URL) and the limits of each read."""

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
    "DEFAULT_MAX_BYTES",
    "DEFAULT_TIMEOUT",
    "MAX_BYTES_LIMIT",
    "MAX_RETRIES",
    "MAX_TIMEOUT",
    "SourceBytes",
    "SourceLimits",
    "check_limits",
    "header_scope",
    "is_url",
    "parse_header",
    "read_bounded",
    "read_source",
]
