"""A real terminal for a test: a pseudo-terminal a command runs on, and what it drew there."""

from __future__ import annotations

import os
import pty
import select
import subprocess
from pathlib import Path

__all__ = ["run_in_terminal"]


def run_in_terminal(args: list[str], cwd: Path | None = None) -> str:
    """What a terminal shows while ``args`` runs with its standard input and error on it
    (standard output goes nowhere)."""
    main, child = pty.openpty()
    process = subprocess.Popen(args, cwd=cwd, stdin=child, stdout=subprocess.DEVNULL, stderr=child)
    os.close(child)
    shown = b""
    while True:
        ready, _, _ = select.select([main], [], [], 30)
        if not ready:
            break
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the terminal's other end closed: the process has ended
            break
        if not chunk:
            break
        shown += chunk
    process.wait(timeout=30)
    os.close(main)
    return shown.decode("utf-8", "replace")
