"""The ``th-ext`` command line: argument parsing and terminal output over the th_ext library."""

from th_ext.cli._app import app, main

__all__ = ["app", "main"]
