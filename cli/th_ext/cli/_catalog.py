"""``th-ext extensions``, ``th-ext schema`` and ``th-ext lock``: what this th-ext bundles, and
the maintainers' record of what was published from it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from th_ext.catalog import discover, find, schema_bytes, schema_sha256
from th_ext.cli._boundary import add_command, command_group
from th_ext.cli._options import TextOrJson, TextOrJsonOption, complete_extension
from th_ext.cli._terminal import ExitCode, fail, write
from th_ext.report import to_json
from th_ext.validate import (
    CARD_SCHEMA_KEY,
    CARD_SCHEMA_NAME,
    card_rules_sha256,
    published_schema_bytes,
)

__all__ = ["extensions_command", "lock_app", "schema_command"]


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
    for v in versions:  # a version the JSON could not list (no schema.json) is an error here too
        schema_bytes(v)
    header = ("EXTENSION", "STATUS", "URI")
    table = [header, *((v.key, v.status, v.uri) for v in versions)]
    widths = [max(len(row[i]) for row in table) for i in range(2)]
    for key, status, uri in table:
        write(f"{key:<{widths[0]}}  {status:<{widths[1]}}  {uri}")


def schema_command(
    extension: Annotated[
        str,
        typer.Argument(
            help="The extension as <name>/<version> (commands/v1), its URI or its schema's $id; "
            "agent-card (or its $id) for the A2A 1.0 agent card's schema, which binds every "
            "extension's params.",
            metavar="EXTENSION",
            autocompletion=complete_extension,
        ),
    ],
    extensions_dir: ExtensionsDirOption = None,
) -> None:
    """Print an extension's schema.json, or the agent card's, byte for byte as it is published."""
    data = published_schema_bytes(extension, extensions_dir)
    sys.stdout.flush()
    sys.stdout.buffer.write(data)  # the published bytes, unchanged: no sanitiser
    sys.stdout.buffer.flush()


def _lock() -> None:
    """Record and check every published schema and its words (for maintainers)."""


lock_app = command_group(_lock)


SourceDirOption = Annotated[
    Path,
    typer.Option(
        "--extensions-dir",
        metavar="DIR",
        help="The repository's extensions folder, which holds published.lock.",
        file_okay=False,
    ),
]


def lock_add(
    extension: Annotated[
        str,
        typer.Argument(
            help="The version to publish, as <name>/<version>.",
            metavar="EXTENSION",
            autocompletion=complete_extension,
        ),
    ],
    extensions_dir: SourceDirOption = Path("extensions"),
) -> None:
    """Record a version's schema, requirements and normative text as published.

    A published schema is never replaced: a changed schema needs a new version. Run it again
    after an erratum to record the words it changed; a change without its erratum, or a new
    MUST, is refused.
    """
    # th_ext.publish (the site builder) adds 12 ms to every start (import time after the
    # CLI's, best of 5): only the lock commands load it.
    from th_ext.publish import LOCK_FILE_NAME, add_to_lock, lock_card_schema

    if extension in (CARD_SCHEMA_NAME, CARD_SCHEMA_KEY):
        added = lock_card_schema(extensions_dir / LOCK_FILE_NAME)
        state = "locked" if added else "already locked"
        write(f"{CARD_SCHEMA_KEY}: {state} (the card rules' sha256 {card_rules_sha256()})")
        return
    version = find(extension, extensions_dir)
    added = add_to_lock(extensions_dir / LOCK_FILE_NAME, version)
    state = "locked" if added else "already locked, words unchanged"
    write(f"{version.key}: {state} (sha256 {schema_sha256(version)})")


def lock_check(extensions_dir: SourceDirOption = Path("extensions")) -> None:
    """Fail when a published schema changed or vanished, or a stable version is not locked."""
    from th_ext.publish import LOCK_FILE_NAME, check_lock, read_lock, read_words  # as above

    path = extensions_dir / LOCK_FILE_NAME
    versions = discover(extensions_dir)
    if not path.exists():  # an absent lock is an empty one to lock add, not one to check
        fail(f"{path}: no lock to check (no such file)")
    problems = check_lock(versions, read_lock(path), read_words(path))
    for problem in problems:
        write(f"th-ext: lock: {problem}", err=True)
    if problems:
        raise typer.Exit(int(ExitCode.PROBLEMS))
    write("every published schema and its words are unchanged, or changed by an erratum")


add_command(lock_app, "add", lock_add)
add_command(lock_app, "check", lock_check)
