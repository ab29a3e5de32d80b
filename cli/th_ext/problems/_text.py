"""Text for people: a string that came from a card made safe to print (no control characters,
no escapes), and the one "did you mean" for a mistyped name."""

from __future__ import annotations

import re
from collections.abc import Iterable
from difflib import SequenceMatcher
from functools import lru_cache
from unicodedata import is_normalized, normalize

from th_ext._exceptions import cut

__all__ = [
    "SHOWN_NAMES",
    "clean",
    "closest_name",
    "escape_unsafe",
    "listed",
    "quoted",
    "shown_path",
]

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


#: How many names of a card's list a line shows before it counts the rest.
SHOWN_NAMES = 10


def listed(names: list[str]) -> str:
    """The first ``SHOWN_NAMES`` names of a card's list for a line: each cleaned and cut to 40
    characters, then how many there are in all when there are more."""
    shown = ", ".join(cut(clean(name), 40) for name in names[:SHOWN_NAMES])
    return shown + (f", … ({len(names)} in all)" if len(names) > SHOWN_NAMES else "")


def quoted(value: object, limit: int = 80) -> str:
    """``repr(value)`` for a message, at most ``limit`` characters: a card or an agent may send
    a name of megabytes, and a message names it rather than repeats it. A string that is not in
    Unicode's composed form (NFC) is written with escapes (``'cafe\\u0301'``), so two keys that
    differ only in their normalisation do not read alike."""
    composed = not isinstance(value, str) or is_normalized("NFC", value)
    text = repr(value) if composed else ascii(value)
    return text if len(text) <= limit else f"{text[: limit - 2]}…{text[-1]}"


def shown_path(path: str, limit: int = 120) -> str:
    """A problem's JSON pointer for a person: cleaned, at most ``limit`` characters, and, as
    ``quoted`` writes a value, with escapes (``/cafe\\u0301``) when it is not in Unicode's
    composed form (NFC), so that two keys that differ only in their normalisation are two
    places that do not read alike."""
    text = clean(path)
    if not is_normalized("NFC", text):
        text = text.encode("ascii", "backslashreplace").decode("ascii")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def clean(text: str) -> str:
    """``text`` without terminal escape sequences and control characters, on one line (line
    breaks and tabs become spaces): a string from a card, which is untrusted, made safe."""
    if text.isprintable():
        return text
    text = re.sub(_ESCAPE_SEQUENCES, "", text)
    text = re.sub(_SPACES, " ", text)
    text = re.sub(_INVISIBLE, "", text)
    return re.sub(_SURROGATES, "\ufffd", text)


#: Every character no output may carry raw: C0 and C1 controls except tab and newline, DEL,
#: bidirectional controls, the Unicode line and paragraph separators, and lone surrogates
#: (which cannot be encoded at all).
#: (Pattern texts, compiled and cached by ``re`` on first use, as above.)
_UNSAFE = (
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
    r"\u2028\u2029\ud800-\udfff]"
)
#: With ``keep_sgr``: a colour sequence (Select Graphic Rendition) th-ext wrote itself, kept.
_UNSAFE_OR_SGR = r"(\x1b\[[0-9;]*m)|" + _UNSAFE


def _escaped(match: re.Match[str]) -> str:
    found = match.group(0)
    if len(found) > 1:  # a colour sequence, matched only under keep_sgr
        return found
    code = ord(found)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def escape_unsafe(text: str, *, keep_sgr: bool = False) -> str:
    """``text`` with every unsafe character written as a visible escape (``\\x1b``, ``\\u202e``).

    The last gate before any output, for what ``clean`` did not see (a file name, a server's
    reason phrase). Newlines and tabs stay. ``keep_sgr`` keeps colour sequences (``ESC [ ... m``),
    for a stream that th-ext colours itself; every other escape sequence is still shown, not run.
    """
    pattern = _UNSAFE_OR_SGR if keep_sgr else _UNSAFE
    if re.search(pattern, text) is None:
        return text
    return re.sub(pattern, _escaped, text)


# The one "did you mean": every suggestion th-ext makes for a name comes from here (the
# dispatch rule's reason for an unregistered ``/command``, ``th-ext schema`` and the catalog for
# an extension key, the command line for a mistyped command or option, a card's or a params
# object's unknown key).
_CLOSE_ENOUGH = 0.75
"""The least ``SequenceMatcher`` ratio that counts as close: ``mod`` against ``model``."""


def closest_name(name: str, names: Iterable[str]) -> str | None:
    """The name in ``names`` that ``name`` most likely misspells, or None when none is close.

    Close means what a reader would call a typo: a letter added, dropped or swapped, a
    different case, a short prefix (``models``, ``Model``, ``mdoel`` and ``mod`` all suggest
    ``model``). A name that differs only in case, ``_``, ``-`` or Unicode compatibility forms
    (full-width letters, ``protocol_binding``) is the closest of all. ``name`` itself is never
    suggested; of names equally close, the first wins.
    """
    candidates = tuple(n for n in names if isinstance(n, str) and n and n != name)
    if not name or not candidates:
        return None
    return _closest(name, candidates)


@lru_cache(maxsize=4096)
def _closest(name: str, candidates: tuple[str, ...]) -> str | None:
    """``closest_name`` of one name among the same few names, asked again and again across the
    cards of a fleet (their unknown keys repeat), worked out once."""
    wanted = _folded(name)
    folded = [(_folded(candidate), candidate) for candidate in candidates]
    for key, candidate in folded:
        if key == wanted:
            return candidate
    matcher = SequenceMatcher(None, b=wanted)
    best, best_score = None, _CLOSE_ENOUGH
    for key, candidate in folded:
        matcher.set_seq1(key)
        if matcher.real_quick_ratio() < best_score or matcher.quick_ratio() < best_score:
            continue
        score = matcher.ratio()
        if score > best_score or (best is None and score == best_score):
            best, best_score = candidate, score
    return best


def _folded(name: str) -> str:
    """``name`` with Unicode look-alikes made one (NFKC), case, ``_`` and ``-`` set aside."""
    return normalize("NFKC", name).replace("_", "").replace("-", "").casefold()
