"""Making a string that came from a card safe to print: no control characters, no escapes.

A card is untrusted input. A name holding ``ESC [ 2 J`` would clear the reader's terminal, an
OSC sequence could set its title or a hyperlink, a bidirectional override could make a line
read differently from what it says, and a lone surrogate cannot be encoded at all. ``clean``
removes all of them and turns line breaks and tabs into spaces, so one problem stays one line.
"""

from __future__ import annotations

import re

__all__ = ["clean"]

# Pattern texts, not compiled patterns: ``re`` compiles each on the first string that needs it
# (and caches it), so a run that prints only printable text never pays for compiling them.
_ESCAPE_SEQUENCES = (
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor movement, erasing
    r"|\x1b\][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"  # OSC: titles, hyperlinks, clipboard
    r"|\x1b[PX^_][^\x1b\x9c]*(?:\x1b\\|\x9c)?"  # DCS, SOS, PM, APC strings
    r"|\x1b[ -/]*[0-~]?"  # any other escape sequence, or a lone ESC
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
    r"|[\x90\x98\x9d\x9e\x9f][^\x07\x9c]*(?:\x07|\x9c)?"  # 8-bit string controls
)
_SPACES = r"[\t\n\v\f\r\x85\u2028\u2029]"
_INVISIBLE = r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufffe\uffff]"
_SURROGATES = r"[\ud800-\udfff]"


def clean(text: str) -> str:
    """``text`` without terminal escape sequences and control characters, on one line."""
    if text.isprintable():
        return text
    text = re.sub(_ESCAPE_SEQUENCES, "", text)
    text = re.sub(_SPACES, " ", text)
    text = re.sub(_INVISIBLE, "", text)
    return re.sub(_SURROGATES, "\ufffd", text)
