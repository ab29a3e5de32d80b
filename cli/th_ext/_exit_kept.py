"""Large values a process that is about to end can leave to its end instead of freeing them.

A parsed 50 MB card is about two million objects, and freeing them one by one is about a
twelfth of its validation, spent on memory the operating system reclaims at once when the
process ends. The ``th-ext`` script ends without the interpreter's teardown when that is safe
(``th_ext.cli._quick_exit``), so it runs inside ``kept_until_exit()``: there the validation
hands such a value to ``keep_until_exit`` instead of dropping it, and the value lives until
the process is gone. When the scope closes the normal way (a program, a test, an exit that
still has work to do), what it holds is released then, as it would have been.

Outside the scope ``keep_until_exit`` does nothing, so a program that imports the library
frees every value as usual.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

__all__ = ["keep_until_exit", "kept_until_exit"]

_KEPT: ContextVar[list[Any] | None] = ContextVar("th_ext_kept_until_exit", default=None)


@contextmanager
def kept_until_exit() -> Iterator[list[Any]]:
    """A scope whose ``keep_until_exit`` values stay alive until it closes (yielded as a list)."""
    kept: list[Any] = []
    token = _KEPT.set(kept)
    try:
        yield kept
    finally:
        _KEPT.reset(token)
        kept.clear()


def keep_until_exit(value: Any) -> None:
    """Keep ``value`` alive until the ``kept_until_exit()`` scope around it closes, if any."""
    kept = _KEPT.get()
    if kept is not None:
        kept.append(value)
