"""The ``th-ext`` command line: argument parsing and terminal output over the th_ext library."""

from th_ext.cli._app import app, console_main, main
from th_ext.cli._publish_main import main as publish_main

__all__ = ["app", "console_main", "main", "publish_main"]
