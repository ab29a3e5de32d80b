"""A th-ext bug ends in one line on standard error, not a traceback, unless ``--debug``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

import typer

from th_ext.cli._output import ExitCode, fail

__all__ = ["DebugOption", "internal_errors"]

DebugOption = Annotated[
    bool, typer.Option("--debug", help="Show a traceback if th-ext itself fails.")
]


@contextmanager
def internal_errors(debug: bool) -> Iterator[None]:
    """Turn an unexpected exception into ``th-ext: error: internal error ...`` (exit 2)."""
    try:
        yield
    except (typer.Exit, typer.Abort, KeyboardInterrupt, SystemExit):
        raise
    except Exception as exc:
        if debug:
            raise
        fail(
            f"internal error ({type(exc).__name__}: {exc}); rerun with --debug for the traceback",
            ExitCode.UNUSABLE,
        )
