"""A deadline over work that cannot watch the clock itself, such as a regex in a schema.

jsonschema matches ``pattern`` with Python's ``re``, which backtracks: ``^(a+)+$`` against a
long hostile name would run for ever, inside C code that no thread can stop. The matcher does
check for signals, though, so a timer signal (``SIGALRM`` via ``setitimer``) can end it at the
deadline with an exception. That costs nothing on the normal path (one system call to arm the
timer, one to disarm it), unlike a worker process or a pattern audit, and covers every other
slow path of validation too. Where there is no such timer (Windows, or a thread other than the
main one) the deadline is not enforced.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType

from th_ext._exceptions import DeadlineError

__all__ = ["deadline"]


@contextlib.contextmanager
def deadline(seconds: float, message: str) -> Iterator[None]:
    """Raise ``DeadlineError(message)`` if the block runs longer than ``seconds``."""
    in_main = threading.current_thread() is threading.main_thread()
    if not hasattr(signal, "setitimer") or not in_main:
        yield
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        raise DeadlineError(message)

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.001))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
