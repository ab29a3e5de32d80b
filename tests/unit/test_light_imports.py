"""Each command stays clear of the heavy parts it does not use, as click tests its own start-up.

A command runs in a fresh interpreter, and the modules it left in ``sys.modules`` are compared
with what it must not load: the demo agent and its A2A SDK and server, the site builder
(MkDocs, ``th_ext.publish``), the conformance runner and the HTTP client a card file never needs.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CARD = str(REPO / "extensions" / "commands" / "v1" / "examples" / "card.json")

HEAVY = (
    "a2a",
    "uvicorn",
    "starlette",
    "mkdocs",
    "httpx",
    "th_ext.demo",
    "th_ext.conform",
    "th_ext.publish",
)

CASES = {
    "validate": ["validate", CARD],
    "validate-json": ["validate", CARD, "--format", "json"],
    "dispatch": ["dispatch", CARD, "/model fast"],
    "commands": ["commands", CARD],
    "extensions": ["extensions"],
    "schema": ["schema", "commands/v1"],
    "help": ["--help"],
}

PROBE = """
import json, sys
sys.argv = ["th-ext", *json.loads(sys.argv[1])]
from th_ext.cli import main
try:
    main()
except SystemExit:
    pass
sys.stdout.flush()
sys.stderr.write("\\nMODULES " + json.dumps(sorted(sys.modules)) + "\\n")
"""


def modules_after(args: list[str]) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(args)],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO,
        timeout=60,
    )
    line = next(line for line in done.stderr.splitlines() if line.startswith("MODULES "))
    return set(json.loads(line.removeprefix("MODULES ")))


def loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_command_loads_no_heavy_part_it_does_not_use(case: str) -> None:
    assert loaded(modules_after(CASES[case]), HEAVY) == []


def test_the_probe_sees_what_a_command_loads() -> None:
    """The check itself: ``lock check`` reads the lock with the site builder's package."""
    modules = modules_after(["lock", "check", "--extensions-dir", str(REPO / "extensions")])
    assert "th_ext.publish" in loaded(modules, HEAVY)
