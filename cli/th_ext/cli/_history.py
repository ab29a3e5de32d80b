"""``th-ext history``: what changed between a store's last two runs, and its dashboard."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from th_ext.cli._options import (
    TextOrJson,
    TextOrJsonOption,
    is_stdout,
    refuse_writing_over,
    write_output,
)
from th_ext.cli._terminal import write
from th_ext.report import to_json

__all__ = ["history_command"]


def history_command(
    path: Annotated[
        Path,
        typer.Argument(
            metavar="PATH",
            help="The history store that validate and conform --db PATH record runs in.",
            show_default=False,
        ),
    ],
    output_format: TextOrJsonOption = TextOrJson.text,
    since: Annotated[
        str | None,
        typer.Option(
            "--since",
            metavar="DATE",
            help="Only runs that started on or after DATE (YYYY-MM-DD, or an ISO 8601 time; "
            "UTC unless it says otherwise).",
            show_default=False,
        ),
    ] = None,
    source: Annotated[
        str | None,
        typer.Option(
            "--source",
            metavar="PATTERN",
            help="Only sources matching this glob pattern (*, ?, [...]; case-sensitive).",
            show_default=False,
        ),
    ] = None,
    html: Annotated[
        Path | None,
        typer.Option(
            "--html",
            metavar="OUT",
            help="Also write the dashboard: one self-contained HTML file with the charts and "
            "every source's recent verdicts.",
            show_default=False,
            dir_okay=False,
        ),
    ] = None,
) -> None:
    """Show what changed since the previous run recorded with --db; write a dashboard.

    The latest complete run against the previous run of the same command and list: new
    failures, fixed, still failing, flaky, appeared and went. Exit 1 when there are new
    failures, 0 otherwise, 2 when the store cannot be read.
    """
    # th_ext.history (sqlite3, and pygal for the charts) loads only for this command and --db,
    # not at every start of th-ext.
    from th_ext.history import HistoryStore, changes_text, dashboard_html, parse_since, read_changes

    refuse_writing_over([("--html", html)], [("the store", path)])
    moment = parse_since(since) if since is not None else None
    with HistoryStore.open(path, write=False) as store:
        changes = read_changes(store, since=moment, source=source)
        page = dashboard_html(store, since=moment, source=source, changes=changes) if html else ""
    if html is not None:
        write_output(html, "--html", page)
        if is_stdout(html):  # the dashboard alone: the changes would mix with it
            raise typer.Exit(changes.exit_code)
        write(f"wrote {html}", err=True)
    if output_format is TextOrJson.json:
        sys.stdout.write(to_json(changes.to_dict()) + "\n")
    else:
        sys.stdout.write(changes_text(changes))
    raise typer.Exit(changes.exit_code)
