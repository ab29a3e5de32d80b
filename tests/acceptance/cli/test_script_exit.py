"""The ``th-ext`` script ends the interpreter's usual way, with its exit code and whole output.

Each test runs a real interpreter: ``atexit`` handlers and other threads run as in any Python
program. An object whose finaliser prints ``TEARDOWN`` tells that a program calling ``main``
keeps its collector (the script freezes it once its command is done).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

TORN_DOWN = (
    "class Finaliser:\n"
    "    def __del__(self):\n"
    "        print('TEARDOWN', flush=True)\n"
    "finaliser = Finaliser()\n"
)


def run_script(
    arguments: list[str], before: str = "", entry: str = "console_main"
) -> subprocess.CompletedProcess[str]:
    code = (
        "import sys\n"
        # a finaliser that says when the program's objects are torn down, for main's callers
        f"{TORN_DOWN if entry == 'main' else ''}{before}"
        f"sys.argv = ['th-ext', *{arguments!r}]\n"
        f"from th_ext.cli import {entry}\n"
        f"{entry}()\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "NO_COLOR": "1"},
        check=False,
    )


@pytest.fixture
def card(repo_root: Path) -> str:
    return str(repo_root / "extensions" / "commands" / "v1" / "examples" / "card.json")


@pytest.mark.parametrize(
    ("arguments", "code"),
    [
        (["validate", "{card}"], 0),
        (["validate", "{card}", "-e", "commands/v9"], 1),
        (["validate", "no-such-card.json"], 2),
        (["dispatch", "{card}", "/model fast"], 0),
    ],
)
def test_the_script_keeps_the_exit_code_and_the_output(
    card: str, arguments: list[str], code: int
) -> None:
    arguments = [a.replace("{card}", card) for a in arguments]
    done = run_script(arguments)
    assert done.returncode == code, done.stderr
    assert done.stdout.strip() or done.stderr.startswith("th-ext: error:")
    called = run_script(arguments, entry="main")  # the program's way: the same, then teardown
    assert (_steady(done.stdout) + "TEARDOWN\n", done.stderr) == (
        _steady(called.stdout),
        called.stderr,
    )


def _steady(output: str) -> str:
    """The output without the ids a dry run makes afresh each time."""
    return re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<id>", output)


def test_main_called_by_a_program_raises_system_exit_and_the_program_goes_on(card: str) -> None:
    done = run_script(["validate", card], entry="main")
    assert done.returncode == 0
    assert "valid (0 errors, 0 warnings)" in done.stdout
    assert done.stdout.rstrip().endswith("TEARDOWN")


def test_a_large_output_through_a_pipe_arrives_whole(card: str, tmp_path: Path) -> None:
    document = json.loads(Path(card).read_text(encoding="utf-8"))
    commands = [{"name": f"cmd-{i}", "description": f"command {i}"} for i in range(20_000)]
    document["capabilities"]["extensions"][0]["params"]["commands"] = commands
    big = tmp_path / "big.json"
    big.write_text(json.dumps(document), encoding="utf-8")
    done = run_script(["validate", str(big), "--format", "json"])
    assert done.returncode == 0, done.stderr
    assert len(done.stdout) > 4 * 65536  # several times what a pipe holds
    report = json.loads(done.stdout)
    listed = report["extensions"][0]["commands"]
    assert listed == [f"cmd-{i}" for i in range(20_000)]


def test_an_atexit_handler_still_runs(card: str) -> None:
    before = "import atexit\natexit.register(print, 'AT EXIT')\n"
    done = run_script(["validate", card], before=before)
    assert done.returncode == 0
    assert done.stdout.rstrip().endswith("AT EXIT")


def test_a_running_thread_is_waited_for(card: str) -> None:
    before = (
        "import threading, time\n"
        "def late():\n"
        "    time.sleep(0.3)\n"
        "    print('THREAD DONE', flush=True)\n"
        "threading.Thread(target=late).start()\n"
    )
    done = run_script(["validate", card], before=before)
    assert done.returncode == 0
    assert "THREAD DONE" in done.stdout
