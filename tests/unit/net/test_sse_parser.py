"""The SSE parser against the format's definition, on generated streams cut anywhere."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from th_ext.net._exchange import EventParser

_TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\r\n"), max_size=12)
_END = st.sampled_from(["\r", "\n", "\r\n"])


@st.composite
def streams(draw: st.DrawFn) -> tuple[bytes, list[bytes]]:
    """A stream of events (each some data lines, maybe a comment and other fields), written
    with any mix of line ends, and the data each event must yield."""
    parts: list[str] = []
    expected: list[bytes] = []
    for _ in range(draw(st.integers(0, 4))):
        lines = draw(st.lists(_TEXT, min_size=1, max_size=3))
        for line in lines:
            if draw(st.booleans()):
                parts.append(":" + draw(_TEXT) + draw(_END))
            if draw(st.booleans()):
                parts.append("event: " + draw(_TEXT) + draw(_END))
            parts.append("data: " + line + draw(_END))
        blank = draw(_END)
        if parts[-1].endswith("\r") and blank.startswith("\n"):
            blank = "\r"  # CR then LF would be one line end, not a blank line
        parts.append(blank)
        expected.append("\n".join(lines).encode())
    return "".join(parts).encode(), expected


@given(streams(), st.lists(st.integers(0, 400), max_size=6))
def test_events_whatever_the_line_ends_and_chunks(
    stream: tuple[bytes, list[bytes]], cuts: list[int]
) -> None:
    data, expected = stream
    points = sorted({min(cut, len(data)) for cut in cuts})
    pieces = [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]
    parser = EventParser()
    events = [event for piece in pieces for event in parser.feed(piece)]
    assert events == expected
    assert parser.close() is None


def test_an_event_left_open_at_the_end_is_still_reported() -> None:
    parser = EventParser()
    assert list(parser.feed(b"data: a\r\ndata: b")) == []
    assert parser.close() == b"a\nb"


def _cuttings(data: bytes) -> list[list[bytes]]:
    """``data`` whole, in two pieces cut at every place, and a byte at a time."""
    halves = [[data[:cut], data[cut:]] for cut in range(len(data) + 1)]
    return [[data], *halves, [data[i : i + 1] for i in range(len(data))]]


@pytest.mark.parametrize(
    ("data", "expected", "left"),
    [
        (b"\xef\xbb\xbfdata: a\n\n", [b"a"], None),
        (b"\xef\xbb\xbf\xef\xbb\xbfdata: a\n\n", [], None),
        (b"data: a\n\n\xef\xbb\xbfdata: b\n\n", [b"a"], None),
        (b"\xef\xbbdata: a\n\n", [], None),
        (b"\n\r\n\r\ndata: a\n\n\n\r\r\ndata: b\r\r\r\n\n", [b"a", b"b"], None),
        (b"data: a\r\ndata: b\r\n\r\ndata: c\rdata: d\r\r", [b"a\nb", b"c\nd"], None),
        (b"data\n\ndata:\n\ndata:  two\n\ndata:x:y\n\n", [b"", b"", b" two", b"x:y"], None),
        (b"data: a\n:data: b\n: \n\ndata: c\n", [b"a"], b"c"),
        (b"event: x\nid: 1\nretry: 5\n\n", [], None),
        (b"dat: a\nDATA: b\n data: c\ndata : d\n\n", [], None),
        (b"data: a\nevent: x", [], b"a"),
        (b"data: a\n: open", [], b"a"),
        (b"data: a\ndata: b", [], b"a\nb"),
        (b"data: a\n\ndata", [b"a"], b""),
        (b"\xef\xbb", [], None),
        (b"", [], None),
    ],
)
def test_events_as_the_format_defines_them_however_the_stream_is_cut(
    data: bytes, expected: list[bytes], left: bytes | None
) -> None:
    """A byte-order mark is skipped only at the very start; any run of line ends between events
    is nothing; a CR and the LF after it are one line end, even in two pieces; a field is the
    name before the first colon; an event left open at the end is still reported."""
    for pieces in _cuttings(data):
        parser = EventParser()
        events = [event for piece in pieces for event in parser.feed(piece)]
        assert (events, parser.close()) == (expected, left), pieces


def test_each_event_starts_with_no_data_of_the_one_before() -> None:
    parser = EventParser()
    assert list(parser.feed(b"data: a\ndata: b\n\n")) == [b"a\nb"]
    assert list(parser.feed(b"\n\ndata: c\n\n")) == [b"c"]
    assert list(parser.feed(b"event: x\n\n")) == []
    assert parser.close() is None
