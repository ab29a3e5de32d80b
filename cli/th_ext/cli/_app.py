"""The typer application: one line per subcommand, each implemented in its own module.

``build_app()`` is the whole command line (``th_ext.cli.app``, built on first use), for
programs and tests that drive it. ``main`` (the
``th-ext`` script) builds only the subcommand it was asked for: typer turns every registered
function into a click command before it parses anything, and the others' modules and
parameters are start-up time a command never uses. Anything else (no subcommand, ``--help``,
``--version``, a mistyped name, shell completion) gets the whole application.
"""

import gc
import os
import sys
from collections.abc import Iterable
from typing import Annotated, Any

import typer

from th_ext._lazy import load
from th_ext._version import __version__
from th_ext.cli._boundary import GuardedGroup
from th_ext.cli._help import MAX_HELP_WIDTH, tidy_help

__all__ = ["ThExtGroup", "build_app", "console_main", "main"]

COMPLETE_VAR = "_TH_EXT_COMPLETE"
"""Set when a shell's completion script runs th-ext (typer's ``_<PROG>_COMPLETE`` protocol)."""

#: Each subcommand, in the order ``--help`` lists them: the function (or, for a group, the
#: ``typer.Typer``) that implements it, as ``module:attribute``, imported when it is built.
SUBCOMMANDS: dict[str, str] = {
    "validate": "th_ext.cli._validate:validate_command",
    "sign": "th_ext.cli._signatures:sign_command",
    "dispatch": "th_ext.cli._dispatch:dispatch_command",
    "commands": "th_ext.cli._card_commands:commands_command",
    "conform": "th_ext.cli._conform:conform_command",
    "demo": "th_ext.cli._demo:demo_command",
    "extensions": "th_ext.cli._catalog:extensions_command",
    "schema": "th_ext.cli._catalog:schema_command",
    "lock": "th_ext.cli._lock:lock_app",
}


class ThExtGroup(GuardedGroup):
    """The application's group: every command behind the error boundary (``GuardedGroup``),
    with whole summaries and plain argument names in its help (``tidy_help``)."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        tidy_help(self)


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


def build_app(names: Iterable[str] = SUBCOMMANDS) -> typer.Typer:
    """The command line with the subcommands ``names`` (all of them by default)."""
    built = typer.Typer(
        name="th-ext",
        help="Check A2A agents against the tiny-harness extensions, and read their published "
        "specs.",
        cls=ThExtGroup,
        no_args_is_help=True,
        add_completion=True,
        context_settings={"max_content_width": MAX_HELP_WIDTH},
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
    )
    built.callback()(_root)
    for name in names:
        implementation = load(SUBCOMMANDS[name])
        if isinstance(implementation, typer.Typer):
            built.add_typer(implementation, name=name)
        else:
            built.command(name)(implementation)
    return built


def main() -> None:
    asked = sys.argv[1] if len(sys.argv) > 1 else ""
    completing = COMPLETE_VAR in os.environ  # the shell asks about the whole command line
    build_app([asked] if asked in SUBCOMMANDS and not completing else SUBCOMMANDS)()


def console_main() -> None:
    """The ``th-ext`` script and ``python -m th_ext``: ``main``, and the interpreter's usual exit.

    Once the command is done, the objects the run made are frozen (``gc.freeze``): the exit
    still runs ``atexit`` handlers, waits for threads and frees every object, but its garbage
    collections skip them, about a tenth of a small command's instructions. A program that
    runs the command line in-process calls ``main`` and keeps its collector as it was.
    """
    try:
        main()
    finally:
        gc.freeze()
