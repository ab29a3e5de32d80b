"""``th-ext dispatch``: what one message does to an agent, as a dry run or checked live."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import urlsplit

import typer

from th_ext._exceptions import ThExtError
from th_ext.cli._internal_errors import DebugOption, internal_errors
from th_ext.cli._output import ExitCode, TextOrJson, TextOrJsonOption, fail, use_color, write
from th_ext.cli._source_options import (
    DEFAULT_MAX_BYTES,
    DEFAULT_TIMEOUT,
    HeaderOption,
    MaxBytesOption,
    SourceArgument,
    TimeoutOption,
    source_limits,
)

if TYPE_CHECKING:
    from th_ext.dispatch import DispatchPlan

__all__ = ["dispatch_command"]



def dispatch_command(  # noqa: PLR0917 (typer maps parameters to options)
    source: SourceArgument,
    text: Annotated[
        str | None,
        typer.Argument(help="The message text, e.g. '/model fast' (or use --message)."),
    ] = None,
    message_file: Annotated[
        str | None,
        typer.Option(
            "--message",
            metavar="FILE|-",
            help="Send this whole A2A 1.0 Message (JSON) instead of TEXT.",
        ),
    ] = None,
    task_id: Annotated[
        str | None,
        typer.Option("--task-id", help="Send the message to this existing task."),
    ] = None,
    live: Annotated[
        bool,
        typer.Option("--live", help="Send the message and check the agent's answer."),
    ] = False,
    output_format: TextOrJsonOption = TextOrJson.text,
    header: HeaderOption = None,
    timeout: TimeoutOption = DEFAULT_TIMEOUT,
    max_bytes: MaxBytesOption = DEFAULT_MAX_BYTES,
    debug: DebugOption = False,
) -> None:
    """Say whether a message runs a command or reaches the model, and what to send and expect.

    Exit 0 when a decision was made (with --live: every check passed), 1 when a live check
    failed, 2 when no card or message could be read.
    """
    with internal_errors(debug):
        from th_ext._exceptions import SourceError
        from th_ext.dispatch import plan_dispatch, read_message, text_message
        from th_ext.validate import load_card

        if (text is None) == (message_file is None):
            fail("give the message as TEXT or with --message FILE, not both and not neither")
        if source == "-" and message_file == "-":
            fail("the card and the message cannot both come from standard input")
        limits = source_limits(header, timeout, max_bytes)
        try:
            loaded = load_card(source, limits)
        except SourceError as exc:
            fail(str(exc))
        try:
            if message_file is not None:
                message = read_message(message_file, max_bytes, task_id=task_id)
            else:
                message = text_message(text or "", task_id=task_id)
            plan = plan_dispatch(loaded.card, message)
        except ThExtError as exc:
            fail(str(exc))
        report = None
        if live:
            from th_ext.dispatch import check_live

            agent_headers = _agent_headers(source, loaded.location, plan, limits.headers)
            try:
                report = check_live(
                    plan,
                    headers=agent_headers,
                    timeout=timeout,
                    max_bytes=max_bytes,
                    task_id=task_id,
                )
            except ThExtError as exc:
                fail(str(exc))
        if output_format is TextOrJson.json:
            document: dict[str, Any] = {"source": loaded.location, **plan.to_dict()}
            if report is not None:
                document["live"] = report.to_dict()
            write(json.dumps(document, indent=2, ensure_ascii=False))
        else:
            from th_ext.cli._dispatch_output import render_live, render_plan

            color = use_color(sys.stdout)
            plan_text = render_plan(
                plan, loaded.location, len(limits.headers), color=color, compact=live
            )
            write(plan_text)
            if report is not None:
                write("")
                write(render_live(report, plan, color=color))
        if report is not None and not report.passed:
            raise typer.Exit(int(ExitCode.PROBLEMS))


def _agent_headers(
    source: str, location: str, plan: DispatchPlan, headers: tuple[tuple[str, str], ...]
) -> tuple[tuple[str, str], ...]:
    """The --header values go to the agent when the card came from a file or the same origin."""
    from th_ext._source import is_url

    if not headers or plan.request is None:
        return ()
    if not is_url(source):
        return headers
    return headers if _origin(location) == _origin(plan.request.url) else ()


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = None
    return parts.scheme.lower(), (parts.hostname or "").lower(), port
