"""The options every command that reads a card shares: ``--header``, ``--header-origin``,
``--timeout``, ``--max-bytes``.

Declared once here so that ``validate`` and the other card-reading commands take the same
options with the same defaults, and turn them into the same ``SourceLimits``.
"""

from __future__ import annotations

from typing import Annotated

import typer

from th_ext._exceptions import SourceArgumentError
from th_ext._source import (
    DEFAULT_MAX_BYTES,
    DEFAULT_TIMEOUT,
    MAX_BYTES_LIMIT,
    MAX_TIMEOUT,
    SourceLimits,
    check_limits,
    parse_header,
)
from th_ext.cli._output import ExitCode, fail, write

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_TIMEOUT",
    "CardTimeoutOption",
    "ConformTimeoutOption",
    "DispatchTimeoutOption",
    "HeaderOption",
    "HeaderOriginOption",
    "MaxBytesOption",
    "SourceArgument",
    "TimeoutOption",
    "note_withheld",
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
        help="Send this HTTP header (repeatable), e.g. for authorization. It goes only to the "
        "origin (scheme, host, port) of SOURCE and of each --header-origin: never to another "
        "origin a redirect or the card points to. The value is never printed.",
        show_default=False,
    ),
]

HeaderOriginOption = Annotated[
    list[str] | None,
    typer.Option(
        "--header-origin",
        metavar="URL",
        help="Also send the --header values to this URL's origin (repeatable), e.g. an agent "
        "interface on another host than the card.",
        show_default=False,
    ),
]

_BOUND = f"(more than 0, at most {MAX_TIMEOUT:g})"
_CARD_FETCH = "the whole fetch of a card URL, redirects included"

# Each command says what its --timeout bounds.
TimeoutOption = Annotated[
    float,
    typer.Option(
        "--timeout",
        metavar="SECONDS",
        help=f"Give up after this long: {_CARD_FETCH}, and the checking of the card {_BOUND}.",
    ),
]
CardTimeoutOption = Annotated[
    float,
    typer.Option(
        "--timeout", metavar="SECONDS", help=f"Give up after this long: {_CARD_FETCH} {_BOUND}."
    ),
]
DispatchTimeoutOption = Annotated[
    float,
    typer.Option(
        "--timeout",
        metavar="SECONDS",
        help=f"Give up after this long: {_CARD_FETCH}, and with --live the exchange with the "
        f"agent, a stream included {_BOUND}.",
    ),
]
ConformTimeoutOption = Annotated[
    float,
    typer.Option(
        "--timeout",
        metavar="SECONDS",
        help=f"Give up after this long: {_CARD_FETCH}, and each exchange with the agent, a "
        f"stream included {_BOUND}.",
    ),
]

MaxBytesOption = Annotated[
    int,
    typer.Option(
        "--max-bytes",
        metavar="N",
        help=f"Stop reading past this many bytes, counted after decompression (1 to "
        f"{MAX_BYTES_LIMIT}).",
    ),
]


def source_limits(
    headers: list[str] | None,
    timeout: float,
    max_bytes: int,
    header_origins: list[str] | None = None,
) -> SourceLimits:
    """The options as ``SourceLimits``; a malformed or out-of-range value ends the command with
    a one-line usage error (exit code 2). The ranges are the library's (``check_limits``)."""
    try:
        parsed = tuple(parse_header(text) for text in headers or ())
    except SourceArgumentError as exc:
        fail(f"--header: {exc}", ExitCode.UNUSABLE)
    limits = SourceLimits(
        headers=parsed,
        timeout=timeout,
        max_bytes=max_bytes,
        header_origins=tuple(header_origins or ()),
    )
    try:
        check_limits(limits)
    except SourceArgumentError as exc:
        words = {
            "bad-timeout": ("the timeout", "--timeout"),
            "bad-max-bytes": ("the byte cap", "--max-bytes"),
        }
        said, option = words.get(exc.code, ("", "--header-origin:"))
        fail(str(exc).replace(said, option, 1) if said else f"{option} {exc}", ExitCode.UNUSABLE)
    return limits


def note_withheld(notices: tuple[str, ...] | list[str]) -> None:
    """One line on standard error per origin the --header values were withheld from."""
    for notice in notices:
        write(f"th-ext: note: {notice}", err=True)
