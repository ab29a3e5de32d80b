"""``th-ext demo``: start the demo agent and show the commands extension working end to end."""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import Annotated

import typer

from th_ext.cli._options import TextOrJson, TextOrJsonOption
from th_ext.cli._terminal import ExitCode, fail, use_color, write
from th_ext.report import RenderOptions, stream
from th_ext.sources import MAX_TIMEOUT

__all__ = ["demo_command"]


class VariantChoice(StrEnum):
    """Every ``DemoVariant``, listed here so that ``--help`` does not import the SDK."""

    correct = "correct"
    no_streaming = "no-streaming"
    message_only = "message-only"
    event_only = "event-only"
    no_metadata = "no-metadata"
    changed_state = "changed-state"
    missing_task_ref = "missing-task-ref"
    reply_as_artifact = "reply-as-artifact"
    working_first = "working-first"
    reply_as_message = "reply-as-message"
    unregistered_as_command = "unregistered-as-command"
    user_role = "user-role"
    slashed_command = "slashed-command"
    reaches_model = "reaches-model"
    unnamed_task = "unnamed-task"


def demo_command(
    serve: Annotated[
        bool,
        typer.Option("--serve", help="Only run the demo agent, in the foreground, until Ctrl-C."),
    ] = False,
    port: Annotated[
        int,
        typer.Option("--port", metavar="PORT", help="The port for --serve (0 picks a free one)."),
    ] = 8000,
    variant: Annotated[
        VariantChoice,
        typer.Option(
            "--variant",
            metavar="VARIANT",
            help="Run the correct agent, or one broken on purpose to see the checks fail: "
            + ", ".join(choice.value for choice in VariantChoice)
            + ".",
            show_choices=False,
        ),
    ] = VariantChoice.correct,
    output_format: TextOrJsonOption = TextOrJson.text,
    timeout: Annotated[
        float, typer.Option("--timeout", metavar="SECONDS", help="Timeout of each request.")
    ] = 10.0,
) -> None:
    """Start the demo agent on 127.0.0.1, validate it, dry-run /model, run conform, stop it.

    Exit 0 when every step passed, 1 when one failed, 2 when the demo cannot run (for example
    without the optional 'demo' extra).
    """
    # th_ext.demo (the demo agent, the A2A SDK, its server) adds 350 ms to every start
    # (import time after the CLI's, best of 5): only this command loads it.
    from th_ext.demo import DemoVariant, run_demo, serve_forever

    if not 0 <= port <= 65535:
        fail(f"--port must be between 0 and 65535, not {port}")
    if not 0 < timeout <= MAX_TIMEOUT:  # also false for nan
        fail(
            f"--timeout must be a positive number of seconds, at most {MAX_TIMEOUT:g}, "
            f"not {timeout:.6g}"
        )
    chosen = DemoVariant(variant.value)
    if serve:

        def ready(base_url: str) -> None:
            write(f"demo agent ({chosen.value}) at {base_url}; Ctrl-C stops it")
            sys.stdout.flush()

        serve_forever(chosen, port=port, on_ready=ready)
        return
    run = run_demo(chosen, timeout=timeout)
    for chunk in stream([run], output_format.value, RenderOptions(color=use_color(sys.stdout))):
        sys.stdout.write(chunk)
    if not run.passed:
        raise typer.Exit(int(ExitCode.PROBLEMS))
