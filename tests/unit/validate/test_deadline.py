"""The deadline that bounds validation: it interrupts work stuck in the regex engine, restores
what it changed, and does nothing where it cannot work (off the main thread)."""

from __future__ import annotations

import re
import signal
import threading
import time

import pytest

from th_ext import DeadlineError
from th_ext.validate._deadline import deadline

HOSTILE = re.compile(r"^(a+)+$")  # noqa: DUO138 (the deadline's test needs it)


def test_a_backtracking_match_is_interrupted() -> None:
    before = signal.getsignal(signal.SIGALRM)
    start = time.monotonic()
    with pytest.raises(DeadlineError, match=r"^too slow$"), deadline(0.2, "too slow"):
        HOSTILE.match("a" * 64 + "!")
    assert time.monotonic() - start < 2
    assert signal.getsignal(signal.SIGALRM) is before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_work_within_the_deadline_is_untouched() -> None:
    with deadline(5, "never"):
        assert HOSTILE.match("a" * 10)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_off_the_main_thread_it_does_nothing() -> None:
    seen: list[BaseException | None] = []

    def work() -> None:
        try:
            with deadline(0.01, "x"):
                time.sleep(0.05)
            seen.append(None)
        except BaseException as exc:
            seen.append(exc)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert seen == [None]
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
