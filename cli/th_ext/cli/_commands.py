"""``th-ext commands``: a card's commands as a client offers them for ``/`` completion."""

from __future__ import annotations

from typing import Annotated

import typer

from th_ext.cli._options import (
    CARD_ONLY,
    DEFAULT_MAX_BYTES,
    DEFAULT_TIMEOUT,
    HeaderOption,
    HeaderOriginOption,
    MaxBytesOption,
    SourceArgument,
    TextOrJson,
    TextOrJsonOption,
    note_withheld,
    source_limits,
    timeout_option,
)
from th_ext.cli._terminal import ExitCode, write
from th_ext.commands import EXTENSION_URI, read_card_commands
from th_ext.problems import clean, cut
from th_ext.report import to_json
from th_ext.sources import header_scope
from th_ext.validate import load_card

__all__ = ["commands_command"]


def commands_command(  # noqa: PLR0917 (typer maps parameters to options)
    source: SourceArgument,
    output_format: TextOrJsonOption = TextOrJson.text,
    header: HeaderOption = None,
    header_origin: HeaderOriginOption = None,
    timeout: Annotated[float, timeout_option(CARD_ONLY)] = DEFAULT_TIMEOUT,
    max_bytes: MaxBytesOption = DEFAULT_MAX_BYTES,
) -> None:
    """List the card's commands: name, argument hint and description, in the card's order.

    Exit 0 when the card was read (with or without the extension), 1 when the extension's
    params have entries a client cannot use, 2 when no card could be read.
    """
    limits = source_limits(header, timeout, max_bytes, header_origin)
    scope = header_scope(source, limits)
    try:
        loaded = load_card(source, limits, scope=scope)
    finally:
        note_withheld(scope.notices())
    found = read_card_commands(loaded.card)
    if output_format is TextOrJson.json:
        document = {
            "source": loaded.location,
            "uri": EXTENSION_URI,
            "declared": found.declared,
            "required": found.required,
            "commands": [spec.to_dict() for spec in found.commands],
            "problems": list(found.problems),
        }
        write(to_json(document))
    elif not found.declared:
        write(
            f"{clean(loaded.location)}: the card does not declare the commands extension "
            f"({EXTENSION_URI})"
        )
    elif not found.commands:
        write(f"{clean(loaded.location)}: the commands extension is declared with no commands")
    else:
        # A line a person reads: a name or a description of megabytes is cut, not padded to.
        usages = [cut(clean(spec.usage), 60) for spec in found.commands]
        width = max(len(usage) for usage in usages)
        for usage, spec in zip(usages, found.commands, strict=True):
            write(f"{usage:<{width}}  {cut(clean(spec.description), 500)}")
    if found.problems:
        if output_format is TextOrJson.text:
            for problem in found.problems:
                write(f"th-ext: warning: {clean(problem)}", err=True)
        raise typer.Exit(int(ExitCode.PROBLEMS))
