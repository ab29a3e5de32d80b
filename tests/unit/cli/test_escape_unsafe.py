"""``escape_unsafe``: the one rule for which characters output may carry raw."""

from __future__ import annotations

import pytest

from th_ext.problems._text import escape_unsafe

UNSAFE = (
    [chr(c) for c in range(0x20) if c not in (0x09, 0x0A)]
    + ["\x7f"]
    + [chr(c) for c in range(0x80, 0xA0)]
    + ["\u061c", "\u200e", "\u200f"]
    + [chr(c) for c in range(0x202A, 0x202F)]
    + [chr(c) for c in range(0x2066, 0x206A)]
    + ["\u2028", "\u2029", "\ud800", "\udfff"]
)


@pytest.mark.parametrize("char", UNSAFE, ids=lambda c: f"U+{ord(c):04X}")
def test_every_unsafe_character_becomes_a_visible_escape(char: str) -> None:
    out = escape_unsafe(f"a{char}b")
    code = ord(char)
    expected = f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"
    assert out == f"a{expected}b"
    assert out.isprintable()


def test_newline_tab_and_ordinary_text_stay() -> None:
    text = "line one\n\tline two: é, 漢字, emoji 🙂, ZWJ \u200d"
    assert escape_unsafe(text) is text


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b]52;c;cHduZWQ=\x07", "\\x1b]52;c;cHduZWQ=\\x07"),  # clipboard write
        ("\x1b]0;title\x1b\\", "\\x1b]0;title\\x1b\\"),  # window title
        ("\x9b2J", "\\x9b2J"),  # 8-bit CSI
        ("\x1b[2J\x1b[31m", "\\x1b[2J\\x1b[31m"),
        ("evil\u202etxt.json", "evil\\u202etxt.json"),
    ],
)
def test_escape_sequences_are_shown_not_run(raw: str, shown: str) -> None:
    assert escape_unsafe(raw) == shown


def test_keep_sgr_keeps_only_colour_sequences() -> None:
    text = "\x1b[31;1merror\x1b[0m \x1b[2J \x1b]0;t\x07 \x1b[1;32m"
    assert escape_unsafe(text, keep_sgr=True) == (
        "\x1b[31;1merror\x1b[0m \\x1b[2J \\x1b]0;t\\x07 \x1b[1;32m"
    )
