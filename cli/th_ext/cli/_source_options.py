"""The options every command that reads a card shares: ``--header``, ``--timeout``, ``--max-bytes``.

Declared once here so that ``validate`` and the other card-reading commands take the same
options with the same defaults, and turn them into the same ``SourceLimits``.
"""

from __future__ import annotations

import math
from typing import Annotated

import typer

from th_ext._exceptions import SourceArgumentError
from th_ext._source import DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT, SourceLimits, parse_header
from th_ext.cli._output import ExitCode, fail

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_TIMEOUT",
    "HeaderOption",
    "MaxBytesOption",
    "SourceArgument",
    "TimeoutOption",
    "source_limits",
]

SourceArgument = Annotated[
    str,
    typer.Argument(
        help="The agent card: a file, - for standard input, or an http(s) URL. A URL not ending "
        "in .json is the agent's base URL (the card is read at /.well-known/agent-card.json).",
        metavar="SOURCE",
        show_default=False,
    ),
]

HeaderOption = Annotated[
    list[str] | None,
    typer.Option(
        "--header",
        "-H",
        metavar="'NAME: VALUE'",
        help="Send this HTTP header when fetching a URL (repeatable), e.g. for authorization. "
        "Not sent to another origin after a redirect.",
        show_default=False,
    ),
]

TimeoutOption = Annotated[
    float,
    typer.Option(
        "--timeout",
        metavar="SECONDS",
        help="Give up on a URL after this long: the whole fetch, redirects included.",
    ),
]

MaxBytesOption = Annotated[
    int,
    typer.Option(
        "--max-bytes",
        metavar="N",
        help="Stop reading past this many bytes (counted after decompression).",
    ),
]


def source_limits(headers: list[str] | None, timeout: float, max_bytes: int) -> SourceLimits:
    """The options as ``SourceLimits``; a malformed value ends the command with exit code 2."""
    if not (math.isfinite(timeout) and timeout > 0):
        fail(f"--timeout must be a positive number of seconds, not {timeout}", ExitCode.UNUSABLE)
    if max_bytes < 1:
        fail(f"--max-bytes must be at least 1, not {max_bytes}", ExitCode.UNUSABLE)
    try:
        parsed = tuple(parse_header(text) for text in headers or ())
    except SourceArgumentError as exc:
        fail(f"--header: {exc}", ExitCode.UNUSABLE)
    return SourceLimits(headers=parsed, timeout=timeout, max_bytes=max_bytes)
