"""The typer application: one line per subcommand, each implemented in its own module."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

import typer

from th_ext import __version__
from th_ext.cli._boundary import add_command, group_callback, guarded_run, run_app
from th_ext.cli._catalog import extensions_command, lock_app, schema_command
from th_ext.cli._commands import commands_command
from th_ext.cli._conform import conform_command
from th_ext.cli._demo import demo_command
from th_ext.cli._dispatch import dispatch_command
from th_ext.cli._history import history_command
from th_ext.cli._validate import keys_app, sign_command, validate_command

__all__ = ["app", "console_main", "main"]

MAX_HELP_WIDTH = 120
"""Help uses the terminal's width, up to this many columns."""


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"th-ext {__version__}")
        raise typer.Exit()


def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version."
        ),
    ] = False,
) -> None:
    """Check A2A agents against the tiny-harness extensions."""


app = typer.Typer(
    name="th-ext",
    help="Check A2A agents against the tiny-harness extensions, and read their published specs.",
    no_args_is_help=True,
    add_completion=True,
    # --help is each command's own (``add_command``), which names required arguments plainly
    context_settings={"max_content_width": MAX_HELP_WIDTH, "help_option_names": []},
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
group_callback(app, _root, starts_run=True)
add_command(app, "validate", validate_command)
add_command(app, "sign", sign_command)
app.add_typer(keys_app, name="keys")
add_command(app, "dispatch", dispatch_command)
add_command(app, "commands", commands_command)
add_command(app, "conform", conform_command)
add_command(app, "demo", demo_command)
add_command(app, "history", history_command)
add_command(app, "extensions", extensions_command)
add_command(app, "schema", schema_command)
app.add_typer(lock_app, name="lock")


def main(args: Sequence[str] | None = None) -> None:
    """The ``th-ext`` script and ``python -m th_ext``: run ``args`` (by default the script's
    own), then exit with the command's code. Usage errors are th-ext's errors too."""
    with guarded_run():
        code = run_app(app, args)
    raise SystemExit(code)


console_main = main
