"""Ending the ``th-ext`` process without tearing the interpreter down, when that is safe.

After a command has written its output, a normal exit still frees every module and every
object the run made, one by one: about a tenth of a small card's validation, and 50 ms after a
50 MB card, for memory the operating system reclaims at once anyway. So the ``th-ext`` script
(``console_main``) flushes standard output and error and calls ``os._exit`` instead, as mypy
and pytest's console entry points do, but only when nothing else is left for the interpreter's
exit to do: a single thread, and no ``atexit`` handler (the demo agent's servers register some,
and take the normal way out). A program that runs the command line in-process (``main``,
``app``, a test runner) gets its ``SystemExit`` as before.
"""

from __future__ import annotations

import atexit
import os
import sys

__all__ = ["quick_exit"]


def quick_exit(code: object) -> None:
    """End the process now with ``code`` (a ``SystemExit`` code) if nothing else would run at
    exit; otherwise return, and the caller exits the normal way."""
    if code is None:
        code = 0
    if not isinstance(code, int) or not _nothing_left_to_do():
        return
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):  # a closed pipe or stream: the normal exit handles it
        return
    os._exit(code)


def _nothing_left_to_do() -> bool:
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        return False
    # ``atexit`` keeps no public count; without one (another Python), exit the normal way.
    registered = getattr(atexit, "_ncallbacks", None)
    return registered is not None and registered() == 0
