"""The ``th-ext`` command line: argument parsing and terminal output over the th_ext library.
``th-ext-publish`` is apart (``_publish_main``), so no ``th-ext`` command loads the site builder."""

from th_ext.cli._app import app, console_main, main

__all__ = ["app", "console_main", "main"]
