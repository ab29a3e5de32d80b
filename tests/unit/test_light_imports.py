"""Each command imports only what it uses, as click tests its own start-up.

A command runs in a fresh interpreter, and the modules it left in ``sys.modules`` are
compared with what it must not load: the heavy libraries it does not need (each costs more
start-up time than the command's own work on a small card), the catalog where the command
never reads it, and the modules of the other subcommands.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CARD = str(REPO / "extensions" / "commands" / "v1" / "examples" / "card.json")

HEAVY = ("pydantic", "httpx", "a2a", "uvicorn", "starlette", "mkdocs")
#: The validator's libraries: ``validate`` uses them, and ``th_ext.validate`` imports them plainly,
#: so a command that reads a card through it (``load_card``) loads them too.
VALIDATOR = ("jsonschema", "referencing", "regex")
CATALOG = ("tomllib", "th_ext.catalog._records", "th_ext.catalog._reader", "hashlib")
SUBCOMMAND_MODULES = {
    "validate": ("th_ext.cli._validate",),
    "dispatch": ("th_ext.cli._dispatch",),
    "commands": ("th_ext.cli._card_commands",),
    "demo": ("th_ext.cli._demo",),
    "extensions": ("th_ext.cli._catalog",),
    "schema": ("th_ext.cli._catalog",),
    "lock": ("th_ext.cli._lock",),
}

CASES = {
    "validate": (
        ["validate", CARD],
        (
            *HEAVY,
            "hashlib",  # the catalog is read (its one reader), but no digest is taken
            "th_ext.dispatch",
            "th_ext.publish",
            "th_ext.demo",
            "http.client",
            "xml.etree",  # only for JUnit
        ),
    ),
    "dispatch": (
        ["dispatch", CARD, "/model fast"],
        (
            *HEAVY,
            "hashlib",
            "th_ext.commands._registry",
            "http.client",
        ),
    ),
    "commands": (
        ["commands", CARD],
        (*HEAVY, "hashlib", "th_ext.dispatch", "http.client"),
    ),
    "extensions": (
        ["extensions"],
        (*HEAVY, *VALIDATOR, "hashlib", "th_ext.validate", "th_ext.dispatch", "th_ext.commands"),
    ),
    "schema": (
        ["schema", "commands/v1"],
        (*HEAVY, *VALIDATOR, "hashlib", "th_ext.validate", "th_ext.dispatch", "th_ext.commands"),
    ),
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


@pytest.mark.parametrize("command", sorted(CASES))
def test_a_command_loads_nothing_it_does_not_use(command: str) -> None:
    args, forbidden = CASES[command]
    modules = modules_after(args)
    others = tuple(
        m
        for name, ms in SUBCOMMAND_MODULES.items()
        for m in ms
        if m not in SUBCOMMAND_MODULES[command]
    )
    assert loaded(modules, forbidden) == []
    assert loaded(modules, others) == []
    assert loaded(modules, SUBCOMMAND_MODULES[command]) == list(SUBCOMMAND_MODULES[command])


@pytest.mark.parametrize("output", [[], ["--format", "json"], ["--format", "github"]])
def test_validate_loads_the_xml_library_only_for_junit(output: list[str]) -> None:
    assert loaded(modules_after(["validate", CARD, *output]), ("xml",)) == []


def test_junit_output_loads_the_xml_library(tmp_path: Path) -> None:
    """The check itself: asked for JUnit, validate does load ElementTree."""
    for output in (["--format", "junit"], ["--junit-file", str(tmp_path / "report.xml")]):
        assert "xml.etree.ElementTree" in modules_after(["validate", CARD, *output])


def test_the_probe_sees_what_a_command_loads() -> None:
    """The check itself: ``--help`` builds every subcommand, so it loads all their modules."""
    modules = modules_after(["--help"])
    every = tuple(m for ms in SUBCOMMAND_MODULES.values() for m in ms)
    assert loaded(modules, every) == sorted(set(every))
