"""Shared terminal conventions: exit codes, one-line errors, and safe printing."""

from __future__ import annotations

import os
import sys
from contextlib import suppress
from enum import IntEnum
from typing import NoReturn, TextIO

import typer

__all__ = [
    "ExitCode",
    "error_line",
    "fail",
    "shown_source",
    "stderr_is_terminal",
    "use_color",
    "write",
]


class ExitCode(IntEnum):
    """Exit codes shared by every subcommand."""

    OK = 0
    PROBLEMS = 1  # the input was read and something in it is wrong
    UNUSABLE = 2  # usage error, or the input could not be read at all
    OUTPUT_CLOSED = 141  # standard output's reader went away (128 + SIGPIPE), as `| head` does


def shown_source(source: str) -> str:
    """``source`` (a path or a URL) as it may be printed: without URL credentials. The
    network package loads only for a URL that holds an ``@``."""
    if "@" not in source:
        return source
    from th_ext.net import redact_url

    return redact_url(source)


def use_color(stream: TextIO) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set (https://no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def stderr_is_terminal() -> bool:
    """Whether standard error is a terminal (where a progress line may be drawn)."""
    isatty = getattr(sys.stderr, "isatty", None)
    return bool(isatty and isatty())


def write(text: str, *, err: bool = False) -> None:
    stream = sys.stderr if err else sys.stdout
    stream.write(text if text.endswith("\n") else text + "\n")


def error_line(message: str) -> None:
    """Print ``th-ext: error: <message>`` on one line to stderr (``error`` in red on a
    terminal). Standard error closed too is not an error: the exit code still tells."""
    label = "\x1b[31;1merror\x1b[0m" if use_color(sys.stderr) else "error"
    with suppress(BrokenPipeError):
        write(f"th-ext: {label}: {' '.join(message.split())}", err=True)


def fail(message: str, code: ExitCode = ExitCode.UNUSABLE) -> NoReturn:
    """Print ``th-ext: error: <message>`` on one line to stderr and exit with ``code``."""
    error_line(message)
    raise typer.Exit(int(code))
