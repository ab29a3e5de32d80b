"""Standard output and standard error behind one sanitiser, for every command and format.

Cards, agents and servers are untrusted, and their bytes reach the terminal through many
paths: a report, a reason phrase inside an error, a file name click echoes in a usage error.
Rather than trusting each path to clean what it prints, the command line swaps ``sys.stdout``
and ``sys.stderr`` for ``SanitisingStream`` while a command runs, so every character written as
text passes ``escape_unsafe``: no control character except newline and tab, no DEL, no
bidirectional control, no line separator, no lone surrogate, whatever the format. Colour
sequences pass only on a stream th-ext colours itself (a terminal, without ``NO_COLOR``).

The one deliberate exception is ``raw``: the terminal controls th-ext writes itself (the
spinner's carriage return), and ``th-ext schema``'s published bytes, which go out unchanged.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import IO, Any, TextIO

from th_ext.cli._output import use_color
from th_ext.problems._text import escape_unsafe

__all__ = ["SanitisingStream", "sanitised_streams", "unwrap"]


class SanitisingStream:
    """A text stream that writes through ``escape_unsafe`` to ``raw``."""

    def __init__(self, raw: TextIO) -> None:
        self.raw = raw
        self.keep_sgr = use_color(raw)

    def write(self, text: str) -> int:
        self.raw.write(escape_unsafe(text, keep_sgr=self.keep_sgr))
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        self.raw.flush()

    def isatty(self) -> bool:
        return self.raw.isatty()

    def fileno(self) -> int:
        return self.raw.fileno()

    @property
    def buffer(self) -> IO[bytes]:
        return self.raw.buffer

    @property
    def encoding(self) -> str:
        return getattr(self.raw, "encoding", None) or "utf-8"

    @property
    def errors(self) -> str | None:
        return getattr(self.raw, "errors", None)

    def __getattr__(self, name: str) -> Any:  # closed, name, mode, writable, ...
        return getattr(self.raw, name)


def unwrap(stream: TextIO) -> TextIO:
    """The stream under a ``SanitisingStream``, for output th-ext controls byte by byte."""
    return stream.raw if isinstance(stream, SanitisingStream) else stream


@contextmanager
def sanitised_streams() -> Iterator[None]:
    """``sys.stdout`` and ``sys.stderr`` sanitised for the duration; restored after."""
    saved = sys.stdout, sys.stderr
    with ExitStack() as closing:
        if sys.stdout is None:  # started with descriptor 1 closed: output is discarded
            sys.stdout = closing.enter_context(Path(os.devnull).open("w", encoding="utf-8"))
        if sys.stderr is None:
            sys.stderr = closing.enter_context(Path(os.devnull).open("w", encoding="utf-8"))
        _install()
        try:
            yield
        finally:
            sys.stdout, sys.stderr = saved


def _install() -> None:
    if not isinstance(sys.stdout, SanitisingStream):
        sys.stdout = SanitisingStream(sys.stdout)
    if not isinstance(sys.stderr, SanitisingStream):
        sys.stderr = SanitisingStream(sys.stderr)
