"""Server-Sent Events, parsed as the HTML standard defines the format.

Lines end with CRLF, LF or a bare CR (a CR at the end of one chunk may be followed by the LF
of the next, which is the same line end). A blank line dispatches the event; only the ``data``
field matters here (``event``, ``id`` and ``retry`` are read and ignored, comments skipped); a
field line without a colon is a field with an empty value; one space after the colon is
dropped; a byte-order mark at the very start is skipped. The parser is incremental and keeps
only the current line and the current event's data, and it reads each byte a bounded number
of times: its time is linear in the stream, whatever the lines are.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = ["EventParser"]

_BOM = b"\xef\xbb\xbf"
# A run of line ends: one character class, matched at a fixed place (linear, no backtracking).
_BLANK_RUN = re.compile(rb"[\r\n]*")


class EventParser:
    """Feed bytes as they arrive; each ``feed`` yields the data of every event it completed."""

    def __init__(self) -> None:
        self._line = bytearray()
        self._data: list[bytes] = []
        self._has_data = False
        self._after_cr = False
        self._started = False

    def feed(self, chunk: bytes) -> Iterator[bytes]:
        """The data (lines joined with LF) of each event completed by ``chunk``."""
        if not self._started:
            self._line += chunk
            if len(self._line) < len(_BOM) and _BOM.startswith(bytes(self._line)):
                return
            self._started = True
            chunk = bytes(self._line[3:] if self._line.startswith(_BOM) else self._line)
            self._line.clear()
        start = 0
        if self._after_cr and chunk.startswith(b"\n"):
            start = 1
        self._after_cr = False
        size = len(chunk)
        # The next CR and LF at or after ``start``, found once each (``size`` when there is
        # none), so that a chunk of a million short lines is scanned once, not once per line.
        cr = lf = -1
        while start < size:
            if not self._line and not self._has_data:  # blank lines here do nothing: skip them
                start = _BLANK_RUN.match(chunk, start).end()  # type: ignore[union-attr]
                if start >= size:
                    self._after_cr = chunk.endswith(b"\r")
                    return
            if cr < start:
                found = chunk.find(b"\r", start)
                cr = size if found < 0 else found
            if lf < start:
                found = chunk.find(b"\n", start)
                lf = size if found < 0 else found
            end = min(cr, lf)
            if end == size:
                self._line += chunk[start:]
                return
            if self._line:
                self._line += chunk[start:end]
                line = bytes(self._line)
                self._line.clear()
            else:
                line = chunk[start:end]
            if end == cr:  # CR: a following LF belongs to the same line end
                if end + 1 < size:
                    start = end + 2 if chunk[end + 1] == 10 else end + 1
                else:
                    self._after_cr = True
                    start = end + 1
            else:
                start = end + 1
            if line[:1] == b":":  # a comment
                continue
            event = self._line_done(line)
            if event is not None:
                yield event

    def close(self) -> bytes | None:
        """At the end of the stream: the data of an event left without its closing blank line.

        The standard discards such an event; the live check reads it anyway, so that it can
        report what the agent sent rather than nothing.
        """
        if self._line:
            self._line_done(bytes(self._line))
            self._line.clear()
        if self._has_data:
            return self._dispatch()
        return None

    def _line_done(self, line: bytes) -> bytes | None:
        if not line:
            return self._dispatch() if self._has_data else None
        if line.startswith(b":"):
            return None
        name, colon, value = line.partition(b":")
        if colon and value.startswith(b" "):
            value = value[1:]
        if name == b"data":
            self._data.append(value)
            self._has_data = True
        return None

    def _dispatch(self) -> bytes:
        data = b"\n".join(self._data)
        self._data = []
        self._has_data = False
        return data
