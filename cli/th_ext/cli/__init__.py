"""The ``th-ext`` command line: argument parsing and terminal output over the th_ext library."""

from th_ext.cli._app import app, main
from th_ext.cli._hook import main as pre_commit_main

__all__ = ["app", "main", "pre_commit_main"]
