"""``th-ext dispatch``: what one message does to an agent, as a dry run or checked live."""

import sys
from typing import Annotated, Any

import typer

from th_ext._exceptions import ThExtError
from th_ext.cli._common_options import (
    DEFAULT_MAX_BYTES,
    DEFAULT_TIMEOUT,
    LIVE_EXCHANGE,
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
from th_ext.cli._json import to_json
from th_ext.cli._output import ExitCode, fail, use_color, write

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
        typer.Option(
            "--task-id", metavar="TASK_ID", help="Send the message to this existing task."
        ),
    ] = None,
    live: Annotated[
        bool,
        typer.Option("--live", help="Send the message and check the agent's answer."),
    ] = False,
    output_format: TextOrJsonOption = TextOrJson.text,
    header: HeaderOption = None,
    header_origin: HeaderOriginOption = None,
    timeout: Annotated[float, timeout_option(LIVE_EXCHANGE)] = DEFAULT_TIMEOUT,
    max_bytes: MaxBytesOption = DEFAULT_MAX_BYTES,
) -> None:
    """Say whether a message runs a command or reaches the model, and what to send and expect.

    Exit 0 when a decision was made (with --live: every check passed), 1 when a live check
    failed, 2 when no card or message could be read.
    """
    from th_ext.dispatch import plan_dispatch, read_message, text_message
    from th_ext.sources._limits import header_scope
    from th_ext.validate import load_card

    if (text is None) == (message_file is None):
        fail("give the message as TEXT or with --message FILE, not both and not neither")
    if source == "-" and message_file == "-":
        fail("the card and the message cannot both come from standard input")
    limits = source_limits(header, timeout, max_bytes, header_origin)
    scope = header_scope(source, limits)
    try:
        loaded = load_card(source, limits, scope=scope)
    except ThExtError:
        note_withheld(scope.notices())
        raise
    if message_file is not None:
        message = read_message(message_file, max_bytes, task_id=task_id)
    else:
        message = text_message(text or "", task_id=task_id)
    plan = plan_dispatch(loaded.card, message)
    report = None
    if live:
        from th_ext.dispatch import check_live

        report = check_live(
            plan, scope=scope, timeout=timeout, max_bytes=max_bytes, task_id=task_id
        )
    if output_format is TextOrJson.json:
        document: dict[str, Any] = {"source": loaded.location, **plan.to_dict()}
        if report is not None:
            document["live"] = report.to_dict()
        write(to_json(document))
    else:
        from th_ext.cli._dispatch_output import render_live, render_plan

        color = use_color(sys.stdout)
        sent = plan.request is not None and scope.allows(plan.request.url)
        # the live run prints the dry run whole: the same request, then what came back
        plan_text = render_plan(
            plan, loaded.location, len(limits.headers) if sent else 0, color=color
        )
        write(plan_text)
        if report is not None:
            write("")
            write(render_live(report, plan, color=color))
    if plan.request is not None:
        scope.headers_for(plan.request.url)  # a dry run names the origin it would skip
    note_withheld(scope.notices())
    if report is not None and not report.passed:
        raise typer.Exit(int(ExitCode.PROBLEMS))
