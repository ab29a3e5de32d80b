"""Help that reads well: each command's whole summary, and names, not types, in usage lines.

Two habits of the framework get in the way of a reader. The command list cuts every summary
to fit one line ("Check an agent card against A2A 1.0 and the extension..."), and a required
argument shows as ``{SOURCE}`` in the usage line. ``tidy_help`` fixes both for a whole command
tree, once, where the application is built: a command's summary is the first paragraph of its
docstring, whole (the help formatter wraps it), and an argument's usage is its name
(``SOURCE``, ``[TEXT]`` when optional). Options name their values with explicit metavars where
they are declared (``SECONDS``, ``[text|json]``, ``DIR``).
"""

from __future__ import annotations

from typing import Any

__all__ = ["MAX_HELP_WIDTH", "summary", "tidy_help"]

MAX_HELP_WIDTH = 120
"""Help uses the terminal's width, up to this many columns."""


def summary(help_text: str | None) -> str:
    """The first paragraph of ``help_text``, on one line."""
    if not help_text:
        return ""
    return " ".join(help_text.strip().split("\n\n", 1)[0].split())


def tidy_help(command: Any) -> None:
    """Give ``command`` and every command under it a whole summary and plain argument names."""
    if command.short_help is None and command.help:
        command.short_help = summary(command.help)
    for parameter in command.params:
        if parameter.param_type_name == "argument":
            _plain_usage(parameter)
    for child in getattr(command, "commands", {}).values():
        tidy_help(child)


def _plain_usage(argument: Any) -> None:
    name = argument.metavar or (argument.name or "").upper()
    if argument.nargs != 1 and not name.endswith("..."):
        name += "..."

    def make_metavar(*_args: Any, usage: bool = False, **_kwargs: Any) -> str:
        return f"[{name}]" if usage and not argument.required else name

    argument.make_metavar = make_metavar
