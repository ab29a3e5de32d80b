"""``python -m th_ext`` runs the command line."""

from th_ext.cli import console_main

console_main()
