"""An agent's answer as the checks keep it: bounded in the work and memory it can cost."""

from __future__ import annotations

import json
from typing import Any

__all__ = [
    "MAX_CONTAINERS",
    "MAX_ITEMS",
    "AnswerTooComplexError",
    "load_answer",
    "read_answer",
]

MAX_CONTAINERS = 100_000
MAX_ITEMS = 1_000


class AnswerTooComplexError(ValueError):
    """The answer holds more objects and arrays than a verdict could ever need."""


def load_answer(data: bytes) -> Any:
    """The JSON value of ``data``, every array and object cut to its first ``MAX_ITEMS``.

    The containers are counted from the bytes before parsing (braces inside strings included:
    an over-count only refuses sooner): 5 MiB of ``{},`` would parse to 1.7 million objects,
    about 130 MB, kept for every exchange of a run. No verdict reads past the first items.

    Raises ``AnswerTooComplexError`` past ``MAX_CONTAINERS`` objects and arrays, and what
    ``json.loads`` raises (``ValueError``, ``RecursionError``, ``UnicodeDecodeError``).
    """
    containers = data.count(b"{") + data.count(b"[")
    if containers > MAX_CONTAINERS:
        raise AnswerTooComplexError(
            f"the answer holds more than {MAX_CONTAINERS:,} JSON objects and arrays"
            f" ({containers:,}); no check needs that many, so it was not read"
        )
    return _kept(json.loads(data.decode("utf-8")))


def read_answer(data: bytes) -> tuple[Any, str | None]:
    """``load_answer``'s value and ``None``, or ``None`` and why the answer cannot be read,
    in the words every report uses."""
    try:
        return load_answer(data), None
    except AnswerTooComplexError as exc:
        return None, str(exc)
    except RecursionError:
        return None, "the answer is nested too deep to read"
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None, "the answer is not valid JSON"
    except ValueError:  # Python's int-string limit
        return None, "the answer holds a number too long to read (over 4300 digits)"


def _kept(value: Any) -> Any:
    """``value`` (freshly parsed, so ours to change) cut in place, without recursion: an
    answer nested hundreds of levels deep is kept whole in depth."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            del item[MAX_ITEMS:]
            stack.extend(child for child in item if isinstance(child, (list, dict)))
        elif isinstance(item, dict):
            for key in list(item)[MAX_ITEMS:]:
                del item[key]
            stack.extend(child for child in item.values() if isinstance(child, (list, dict)))
    return value
