"""The SSE parser against the format's definition, on generated streams cut anywhere."""

from __future__ import annotations

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
