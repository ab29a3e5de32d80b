"""On a real terminal (a pseudo-terminal): colour and a progress line, and neither with NO_COLOR."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import time

from tests.acceptance.validate.conftest import th_ext_command


def run_on_terminal(*args: str, no_color: bool) -> tuple[int, bytes]:
    """Run ``th-ext validate`` with stdout and stderr on one pseudo-terminal; all it printed."""
    leader, follower = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    if no_color:
        env["NO_COLOR"] = "1"
    process = subprocess.Popen(
        [*th_ext_command(), "validate", *args], stdout=follower, stderr=follower, env=env
    )
    os.close(follower)
    output = b""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break  # the terminal closed: the process has exited
        if not chunk:
            break
        output += chunk
    os.close(leader)
    return process.wait(timeout=60), output


def test_colour_and_a_progress_line_on_a_terminal(silent_server: str) -> None:
    code, output = run_on_terminal(silent_server, "--timeout", "1.5", no_color=False)
    assert code == 2
    assert b"0 checked" in output  # the progress line, while the card is fetched
    # errors in red (printed above the live line, whose console writes the same SGR its way)
    assert re.search(rb"th-ext: \x1b\[(31;1|1;31)merror\x1b\[0m: ", output)


def test_no_colour_and_no_progress_line_with_no_color(silent_server: str) -> None:
    code, output = run_on_terminal(silent_server, "--timeout", "1.5", no_color=True)
    assert code == 2
    assert b"\x1b" not in output
    assert b"checked" not in output
    assert b"th-ext: error: " in output
    assert b"no complete answer within 1.5 s" in output
