"""``th-ext dispatch``: what one message does to an agent, as a dry run or checked live."""

import sys
from typing import Annotated

import typer

from th_ext import ThExtError
from th_ext.cli._options import (
    DEFAULT_MAX_BYTES,
    DEFAULT_TIMEOUT,
    LIVE_EXCHANGE,
    HarOption,
    HeaderOption,
    HeaderOriginOption,
    MaxBytesOption,
    SourceArgument,
    TextOrJson,
    TextOrJsonOption,
    is_stdout,
    note_withheld,
    refuse_writing_over,
    source_limits,
    timeout_option,
)
from th_ext.cli._terminal import ExitCode, fail, use_color, write
from th_ext.net import har_recording
from th_ext.problems import counted
from th_ext.report import Dispatched, RenderOptions, stream
from th_ext.sources import header_scope
from th_ext.validate import load_card

__all__ = ["dispatch_command"]


def dispatch_command(  # noqa: PLR0917 (typer maps parameters to options)
    source: SourceArgument,
    text: Annotated[
        str | None,
        typer.Argument(
            metavar="TEXT", help="The message text, e.g. '/model fast' (or use --message)."
        ),
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
    har: HarOption = None,
) -> None:
    """Say whether a message runs a command or reaches the model, and what to send and expect.

    Exit 0 when a decision was made (with --live: every check passed), 1 when a live check
    failed, 2 when no card or message could be read.
    """
    # local: th_ext.dispatch carries the live client's asyncio (about 24 ms of start-up,
    # -X importtime), which every other command would pay for when the app is built
    from th_ext import dispatch

    if (text is None) == (message_file is None):
        fail("give the message either as TEXT or with --message FILE")
    if source == "-" and message_file == "-":
        fail("the card and the message cannot both come from standard input")
    if har is not None and not live:
        fail("--har records the exchanges of --live; a dry run sends nothing")
    if is_stdout(har):
        fail("--har -: standard output carries the command's own output; give --har a file")
    refuse_writing_over([("--har", har)], [("the card", source), ("--message", message_file)])
    limits = source_limits(header, timeout, max_bytes, header_origin)
    scope = header_scope(source, limits)
    title = f"th-ext dispatch --live {source}"
    with har_recording(har, (name for name, _ in limits.headers), title) as recorder:
        try:
            loaded = load_card(source, limits, scope=scope, recorder=recorder)
        except ThExtError:
            note_withheld(scope.notices())
            raise
        if message_file is not None:
            message = dispatch.read_message(message_file, max_bytes, task_id=task_id)
        else:
            message = dispatch.text_message(text or "", task_id=task_id)
        plan = dispatch.plan_dispatch(loaded.card, message)
        report = None
        if live:
            report = dispatch.check_live(
                plan,
                scope=scope,
                timeout=timeout,
                max_bytes=max_bytes,
                task_id=task_id,
                recorder=recorder,
            )
    sent = plan.request is not None and scope.allows(plan.request.url)
    shown = Dispatched(loaded.location, plan, report, len(limits.headers) if sent else 0)
    for chunk in stream([shown], output_format.value, RenderOptions(color=use_color(sys.stdout))):
        sys.stdout.write(chunk)
    if plan.request is not None:
        scope.headers_for(plan.request.url)  # a dry run names the origin it would skip
    note_withheld(scope.notices())
    if recorder is not None:
        write(f"wrote {har}: {counted(len(recorder.entries), 'HTTP exchange')} (HAR 1.2)", err=True)
    if report is not None and not report.passed:
        raise typer.Exit(int(ExitCode.PROBLEMS))
