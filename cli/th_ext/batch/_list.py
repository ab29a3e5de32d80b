"""A list of sources, one a line, read lazily by one thread from a file, a pipe or standard input;
a line that cannot be a source is an error entry naming the list and the line."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from collections.abc import AsyncIterator, Iterator

from th_ext._exceptions import SourceArgumentError, SourceUnreadableError, os_reason

__all__ = ["MAX_LINE", "ListEntry", "read_source_list", "split_lines"]

MAX_LINE = 8 * 1024
"""The longest line of a list (bytes): far beyond any URL a server accepts."""
_CHUNK = 64 * 1024
_BATCHES_AHEAD = 4  # chunks read ahead of the loop: the bound on a list's memory
_BOM = b"\xef\xbb\xbf"  # UTF-8's byte order mark, which some editors write first

ListEntry = str | SourceArgumentError
"""A source, or the error of a line that cannot be one."""


def split_lines(
    chunks: Iterator[bytes], name: str, *, stdin: bool = False
) -> Iterator[list[ListEntry]]:
    """The entries of the list whose bytes arrive as ``chunks``, one batch per chunk.

    A line is kept whole only while it is under ``MAX_LINE`` bytes; past that its bytes are
    dropped up to the next newline and it becomes one error entry. With ``stdin`` (the list is
    standard input) a line ``-`` is an error entry too. A list whose first source begins with
    ``{`` or ``[`` is a JSON document (a card given to ``--from`` by mistake):
    ``SourceUnreadableError``, before any line of it is checked as a source. A UTF-8 byte order
    mark at the start of the list (as editors on Windows write one) is not part of its first line.
    """
    pending = b""
    number = 0
    overlong = False
    first = True
    for chunk in chunks:
        batch: list[ListEntry] = []
        lines = (pending + chunk).split(b"\n")
        pending = lines.pop()
        for line in lines:
            number += 1
            if overlong:
                overlong = False
                batch.append(_too_long(name, number))
                continue
            entry = _entry(line.removeprefix(_BOM) if number == 1 else line, name, number, stdin)
            if entry is not None:
                if first:
                    _refuse_json_document(entry, name)
                    first = False
                batch.append(entry)
        if len(pending) > MAX_LINE:
            overlong, pending = True, b""
        elif overlong:
            pending = b""
        if batch:
            yield batch
    if overlong:
        yield [_too_long(name, number + 1)]
    elif pending:
        entry = _entry(
            pending.removeprefix(_BOM) if number == 0 else pending, name, number + 1, stdin
        )
        if entry is not None:
            if first:
                _refuse_json_document(entry, name)
            yield [entry]


def _entry(line: bytes, name: str, number: int, stdin: bool) -> ListEntry | None:
    if len(line) > MAX_LINE:
        return _too_long(name, number)
    if b"\0" in line:
        return SourceArgumentError(f"{name} line {number}: holds a NUL byte", code="bad-list-line")
    try:
        text = line.decode("utf-8").strip()
    except UnicodeDecodeError:
        return SourceArgumentError(f"{name} line {number}: not UTF-8 text", code="bad-list-line")
    if not text or text.startswith("#"):
        return None
    if stdin and text == "-":
        return SourceArgumentError(
            f"{name} line {number}: - is standard input, which holds the list",
            code="bad-list-line",
        )
    return text


def _refuse_json_document(entry: ListEntry, name: str) -> None:
    """The first entry of a list: a ``SourceUnreadableError`` when it opens a JSON document."""
    if isinstance(entry, str) and entry[:1] in ("{", "["):
        raise SourceUnreadableError(
            f"--from {name}: a JSON document, not a list of sources (one a line); "
            "give a card as a SOURCE"
        )


def _too_long(name: str, number: int) -> SourceArgumentError:
    return SourceArgumentError(
        f"{name} line {number}: longer than {MAX_LINE} bytes", code="bad-list-line"
    )


async def read_source_list(path: str) -> AsyncIterator[ListEntry]:
    """The entries of the list at ``path`` (``-`` for standard input), read as they are needed.

    Raises ``SourceUnreadableError`` if the list cannot be opened or read.
    """
    name = "standard input" if path == "-" else path
    fd = _open(path)
    loop = asyncio.get_running_loop()
    arrived: asyncio.Queue[list[ListEntry] | BaseException | None] = asyncio.Queue()
    room = threading.Semaphore(_BATCHES_AHEAD)
    stop = threading.Event()

    def hand_over(item: list[ListEntry] | BaseException | None) -> bool:
        if stop.is_set():
            return False
        try:
            loop.call_soon_threadsafe(arrived.put_nowait, item)
        except RuntimeError:  # the loop is closed: nobody is reading any more
            return False
        return True

    def read_lines() -> None:
        try:
            for batch in split_lines(_chunks(fd, name, stop), name, stdin=path == "-"):
                room.acquire()
                if not hand_over(batch):
                    return
            hand_over(None)
        except BaseException as exc:
            hand_over(exc)
        finally:
            if path != "-":
                os.close(fd)

    # A daemon thread: a list on a FIFO that never ends must not keep the process alive.
    threading.Thread(target=read_lines, name="th-ext source list", daemon=True).start()
    try:
        while True:
            item = await arrived.get()
            if item is None:
                return
            if isinstance(item, BaseException):
                raise item
            room.release()
            for entry in item:
                yield entry
    finally:
        stop.set()
        room.release()  # a reader waiting for room wakes, sees the stop and ends


def _open(path: str) -> int:
    if path == "-":
        try:
            return sys.stdin.fileno()
        except (AttributeError, OSError, ValueError) as exc:
            raise SourceUnreadableError(f"standard input cannot be read ({exc})") from None
    try:
        return os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        raise SourceUnreadableError(f"--from {path}: no such file") from None
    except OSError as exc:
        reason = os_reason(exc)
        raise SourceUnreadableError(f"--from {path}: cannot be read ({reason})") from None


def _chunks(fd: int, name: str, stop: threading.Event) -> Iterator[bytes]:
    while not stop.is_set():
        try:
            chunk = os.read(fd, _CHUNK)
        except IsADirectoryError:
            raise SourceUnreadableError(f"--from {name}: is a directory") from None
        except OSError as exc:
            reason = os_reason(exc)
            raise SourceUnreadableError(f"--from {name}: cannot be read ({reason})") from None
        if not chunk:
            return
        yield chunk
