"""Each command's option help says what the option does for that command."""

from __future__ import annotations

import re

import pytest
import typer

from th_ext.cli import app


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
    assert listed == list(param.type.choices)
