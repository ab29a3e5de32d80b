"""The ``th-ext`` command line: argument parsing and terminal output over the th_ext library."""

from __future__ import annotations

from typing import TYPE_CHECKING

from th_ext._lazy import lazy_names as _lazy_names
from th_ext.cli._app import build_app as _build_app
from th_ext.cli._app import console_main, main

if TYPE_CHECKING:
    import typer

    from th_ext.cli._hook import main as pre_commit_main
    from th_ext.cli._publish_main import main as publish_main

__all__ = ["app", "console_main", "main", "pre_commit_main", "publish_main"]

# The whole application is built on first use; the ``th-ext`` script builds only the
# subcommand it runs.
app: typer.Typer
__getattr__ = _lazy_names(
    __name__,
    {
        "app": _build_app,
        "pre_commit_main": "th_ext.cli._hook:main",
        "publish_main": "th_ext.cli._publish_main:main",
    },
)
