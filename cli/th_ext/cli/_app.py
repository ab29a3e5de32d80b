"""The typer application: one line per subcommand, each implemented in its own module."""

from __future__ import annotations

from typing import Annotated

import typer

from th_ext._version import __version__
from th_ext.cli._card_commands import commands_command
from th_ext.cli._catalog import extensions_command, schema_command
from th_ext.cli._demo import demo_command
from th_ext.cli._dispatch import dispatch_command
from th_ext.cli._lock import lock_app
from th_ext.cli._validate import validate_command

__all__ = ["app", "main"]

app = typer.Typer(
    name="th-ext",
    help="Check A2A agents against the tiny-harness extensions, and read their published specs.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"th-ext {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version."
        ),
    ] = False,
) -> None:
    """Check A2A agents against the tiny-harness extensions."""


app.command("validate")(validate_command)
app.command("dispatch")(dispatch_command)
app.command("commands")(commands_command)
app.command("demo")(demo_command)
app.command("extensions")(extensions_command)
app.command("schema")(schema_command)
app.add_typer(lock_app, name="lock")


def main() -> None:
    app()
