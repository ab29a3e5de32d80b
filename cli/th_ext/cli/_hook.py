"""The pre-commit hook's command: ``th-ext validate`` over every card file pre-commit passes.

pre-commit appends the names of the matching files to a hook's arguments, and ``th-ext
validate`` checks one source. ``th-ext-pre-commit`` takes validate's own options (taken from
its definition, so the two cannot drift apart) followed by any number of files, validates each
in turn with the same output, and exits with the worst exit code.
"""

from __future__ import annotations

from typing import Any

import typer
from typer.core import TyperArgument, TyperCommand

from th_ext.cli import app
from th_ext.cli._boundary import guard_command, guarded_run

__all__ = ["hook_command", "main"]

PROG_NAME = "th-ext-pre-commit"


def hook_command() -> TyperCommand:
    """``th-ext-pre-commit [VALIDATE OPTIONS] FILE...``, built from ``th-ext validate``."""
    validate = typer.main.get_command(app).commands["validate"]  # type: ignore[attr-defined]
    check = validate.callback
    options = [param for param in validate.params if param.name != "sources"]
    files = TyperArgument(
        param_decls=["files"], nargs=-1, metavar="FILE...", help="Agent card files to check."
    )

    def run(files: tuple[str, ...], **values: Any) -> None:
        worst = 0
        for index, path in enumerate(files):
            if index:
                typer.echo()
            try:
                check(sources=[path], **values)
            except typer.Exit as exc:
                worst = max(worst, exc.exit_code)
        raise typer.Exit(worst)

    return TyperCommand(
        PROG_NAME,
        params=[*options, files],
        callback=run,
        help="Validate each agent card FILE with th-ext validate (the pre-commit hook).",
        rich_markup_mode=None,
    )


def main() -> None:
    command = hook_command()
    guard_command(command)
    with guarded_run():
        command.main(prog_name=PROG_NAME)
