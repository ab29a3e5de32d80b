"""Each command's option help says what the option does for that command."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

import pytest
import typer

from th_ext.cli import app
from th_ext.cli._conform import ConformFormat
from th_ext.cli._options import JunitFileOption
from th_ext.cli._validate import ReportFormat

FORMATS = {"validate": ReportFormat, "conform": ConformFormat}


def _help(command: str, option: str) -> str:
    click_command = typer.main.get_command(app).commands[command]  # type: ignore[attr-defined]
    [param] = [p for p in click_command.params if option in getattr(p, "opts", ())]
    return " ".join(str(param.help).split())


@pytest.mark.parametrize("command", ["validate", "commands", "dispatch", "conform"])
def test_the_timeout_help_speaks_of_this_command_only(command: str) -> None:
    text = _help(command, "--timeout")
    assert "validate" not in text
    assert text.startswith("Give up after this long: the whole fetch of a card URL")
    assert ("checking of the card" in text) == (command == "validate")
    assert ("exchange with the agent" in text) == (command in ("dispatch", "conform"))


@pytest.mark.parametrize("command", ["validate", "conform"])
def test_every_output_format_is_listed_in_the_format_help(command: str) -> None:
    click_command = typer.main.get_command(app).commands[command]  # type: ignore[attr-defined]
    [param] = [p for p in click_command.params if "--format" in getattr(p, "opts", ())]
    listed = re.findall(r"[a-z]+", str(param.metavar))
    assert listed == [choice.value for choice in FORMATS[command]]


def test_the_har_help_offers_standard_output_where_the_command_takes_it() -> None:
    """``conform --har -`` writes the HAR to standard output when ``-o FILE`` takes the
    report; ``dispatch`` always writes its report there, so it refuses ``-`` and says nothing of
    it."""
    offer = "FILE - writes it to standard output, when -o FILE takes the report."
    assert _help("conform", "--har").endswith(offer)
    assert "standard output" not in _help("dispatch", "--har")
    assert _help("conform", "--har").startswith(_help("dispatch", "--har"))


#: The options several commands share, and the commands that take each. Every command that
#: reads a card takes the source options; every command with a JUnit report takes the file.
SHARED = {
    "--header": ("validate", "commands", "dispatch", "conform"),
    "--header-origin": ("validate", "commands", "dispatch", "conform"),
    "--timeout": ("validate", "commands", "dispatch", "conform"),
    "--max-bytes": ("validate", "commands", "dispatch", "conform"),
    "--junit-file": ("validate", "conform"),
    "--schemas": ("validate", "conform"),
    "--fetch-schemas": ("validate", "conform"),
    "--format": ("validate", "commands", "dispatch", "conform", "demo", "extensions"),
}


def _declaration(command: str, option: str, cli: typer.Typer = app) -> dict[str, object]:
    """What a user sees of ``option`` in ``command``: everything but the help's words for
    what a --timeout bounds and the --format choices, which are each command's own."""
    click_command = typer.main.get_command(cli).commands[command]  # type: ignore[attr-defined]
    [param] = [p for p in click_command.params if option in getattr(p, "opts", ())]
    help_text = " ".join(str(param.help).split())
    if option == "--timeout":
        help_text = re.sub(r"redirects included.*\(", "redirects included ... (", help_text)
    return {
        "opts": tuple(param.opts) + tuple(param.secondary_opts),
        "metavar": "[...]" if option == "--format" else param.metavar,
        "default": None if option == "--format" else param.default,
        "show_default": param.show_default,
        "multiple": param.multiple,
        "help": help_text,
        "type": type(param.type).__name__,
    }


@pytest.mark.parametrize("option", sorted(SHARED))
def test_a_shared_option_is_the_same_in_every_command(option: str) -> None:
    first, *others = SHARED[option]
    expected = _declaration(first, option)
    for command in others:
        assert _declaration(command, option) == expected, f"{command} {option} has drifted"


def test_the_drift_check_sees_an_option_declared_apart() -> None:
    """The check itself: a command that declares --junit-file itself, as before, with the
    default display left on, differs from one that takes the shared declaration."""
    probe = typer.Typer()

    @probe.command()
    def shared(junit_file: JunitFileOption = None) -> None: ...

    @probe.command()
    def apart(
        junit_file: Annotated[
            Path | None,
            typer.Option(
                "--junit-file",
                metavar="FILE",
                help="Also write the report as JUnit XML to FILE (for CI systems), whatever "
                "--format.",
                dir_okay=False,
            ),
        ] = None,
    ) -> None: ...

    assert _declaration("shared", "--junit-file", probe) != _declaration(
        "apart", "--junit-file", probe
    )
