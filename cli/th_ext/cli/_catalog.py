"""``th-ext extensions`` and ``th-ext schema``: what this th-ext bundles."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from th_ext.catalog import discover, find, schema_bytes, schema_sha256
from th_ext.cli._options import TextOrJson, TextOrJsonOption, complete_extension
from th_ext.cli._terminal import write
from th_ext.report import to_json

__all__ = ["extensions_command", "schema_command"]


ExtensionsDirOption = Annotated[
    Path | None,
    typer.Option(
        "--extensions-dir",
        metavar="DIR",
        help="Read extensions from this folder instead of the copies bundled with th-ext.",
        file_okay=False,
    ),
]


def extensions_command(
    output_format: TextOrJsonOption = TextOrJson.text,
    extensions_dir: ExtensionsDirOption = None,
) -> None:
    """List the bundled extensions: name, version, status and URI."""
    versions = discover(extensions_dir)
    if output_format is TextOrJson.json:
        rows = [
            {
                "name": v.name,
                "version": v.version,
                "title": v.title,
                "status": v.status,
                "uri": v.uri,
                "schema_url": v.schema_url,
                "schema_sha256": schema_sha256(v),
            }
            for v in versions
        ]
        write(to_json(rows))
        return
    if not versions:
        write("no extensions")
        return
    header = ("EXTENSION", "STATUS", "URI")
    table = [header, *((v.key, v.status, v.uri) for v in versions)]
    widths = [max(len(row[i]) for row in table) for i in range(2)]
    for key, status, uri in table:
        write(f"{key:<{widths[0]}}  {status:<{widths[1]}}  {uri}")


def schema_command(
    extension: Annotated[
        str,
        typer.Argument(
            help="The extension as <name>/<version> (commands/v1) or its URI.",
            metavar="EXTENSION",
            autocompletion=complete_extension,
        ),
    ],
    extensions_dir: ExtensionsDirOption = None,
) -> None:
    """Print an extension's schema.json, byte for byte as it is published."""
    data = schema_bytes(find(extension, extensions_dir))
    sys.stdout.flush()
    sys.stdout.buffer.write(data)  # the published bytes, unchanged: no sanitiser
    sys.stdout.buffer.flush()
