"""``th-ext demo``: start the demo agent and show the commands extension working end to end.

This is the only command that imports the A2A SDK, and it does so only when it runs.
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any

import typer

from th_ext._exceptions import ThExtError
from th_ext.cli._internal_errors import DebugOption, internal_errors
from th_ext.cli._output import ExitCode, fail, use_color, write

if TYPE_CHECKING:
    from th_ext.demo._run import DemoRun
    from th_ext.validate import Report

__all__ = ["demo_command"]


class DemoFormat(StrEnum):
    text = "text"
    json = "json"


class VariantChoice(StrEnum):
    correct = "correct"
    no_streaming = "no-streaming"
    no_metadata = "no-metadata"
    changed_state = "changed-state"
    missing_task_ref = "missing-task-ref"


def demo_command(  # noqa: PLR0917 (typer maps parameters to options)
    serve: Annotated[
        bool,
        typer.Option("--serve", help="Only run the demo agent, in the foreground, until Ctrl-C."),
    ] = False,
    port: Annotated[
        int, typer.Option("--port", help="The port for --serve (0 picks a free one).")
    ] = 8000,
    variant: Annotated[
        VariantChoice,
        typer.Option(
            "--variant",
            help="Run the correct agent, or one broken on purpose to see the checks fail.",
        ),
    ] = VariantChoice.correct,
    output_format: Annotated[
        DemoFormat, typer.Option("--format", "-f", help="Output format.")
    ] = DemoFormat.text,
    timeout: Annotated[
        float, typer.Option("--timeout", metavar="SECONDS", help="Timeout of each request.")
    ] = 10.0,
    debug: DebugOption = False,
) -> None:
    """Start the demo agent on 127.0.0.1, validate it, dry-run and live-check /model, stop it.

    Exit 0 when every step passed, 1 when one failed, 2 when the demo cannot run (for example
    without the optional 'demo' extra).
    """
    with internal_errors(debug):
        try:
            from th_ext.demo import DemoVariant
            from th_ext.demo._run import run_demo
            from th_ext.demo._server import serve_forever
        except ThExtError as exc:
            fail(str(exc))
        if not 0 <= port <= 65535:
            fail(f"--port must be between 0 and 65535, not {port}")
        if not timeout > 0:
            fail(f"--timeout must be a positive number of seconds, not {timeout}")
        chosen = DemoVariant(variant.value)
        try:
            if serve:

                def ready(base_url: str) -> None:
                    write(f"demo agent ({chosen.value}) at {base_url}; Ctrl-C stops it")
                    sys.stdout.flush()

                serve_forever(chosen, port=port, on_ready=ready)
                return
            run = run_demo(chosen, timeout=timeout)
        except ThExtError as exc:
            fail(str(exc))
        if output_format is DemoFormat.json:
            write(json.dumps(_as_json(run), indent=2, ensure_ascii=False))
        else:
            write(_render(run, color=use_color(sys.stdout)))
        if not run.passed:
            raise typer.Exit(int(ExitCode.PROBLEMS))


def _as_json(run: DemoRun) -> dict[str, Any]:
    return {
        "passed": run.passed,
        "agent": run.base_url,
        "card": run.card_location,
        "validate": run.validation.to_dict(),
        "dry_run": {"passed": run.dry_run_passed, **run.dry_run.to_dict()},
        "live": [
            {"message": run.greeting_plan.message, **run.greeting.to_dict()},
            {"message": run.command_plan.message, **run.command.to_dict()},
        ],
    }


def _render(run: DemoRun, *, color: bool) -> str:
    from th_ext.cli._dispatch import render_live, render_plan

    def verdict(ok: bool) -> str:
        word, code = ("passed", "1;32") if ok else ("FAILED", "1;31")
        return f"\033[{code}m{word}\033[0m" if color else word

    def heading(number: int, title: str, ok: bool) -> list[str]:
        return ["", f"{number}. {title}: {verdict(ok)}"]

    lines = [f"demo agent listening at {run.base_url} (stopped again when the demo ends)"]
    lines += heading(1, f"th-ext validate {run.base_url}", run.validation_passed)
    lines += ["   " + line for line in _validation_lines(run.validation)]
    lines += heading(
        2, f"th-ext dispatch {run.base_url} '/model fast' (dry run)", run.dry_run_passed
    )
    plan_text = render_plan(run.dry_run, run.card_location, color=color, compact=True)
    lines += ["   " + line if line else "" for line in plan_text.splitlines()]
    lines += heading(
        3, "th-ext dispatch --live: an ordinary message starts a task", run.greeting.passed
    )
    lines += [
        "   " + line
        for line in render_live(run.greeting, run.greeting_plan, color=color).splitlines()
    ]
    lines += heading(
        4, "th-ext dispatch --live --task-id: /model fast on that task", run.command.passed
    )
    lines += [
        "   " + line
        for line in render_live(run.command, run.command_plan, color=color).splitlines()
    ]
    lines += ["", f"demo {verdict(run.passed)}"]
    return "\n".join(lines)


def _validation_lines(report: Report) -> list[str]:
    from th_ext.validate._text import clean

    lines = [f"card {clean(report.location)}: " + ("valid" if report.valid else "not valid")]
    lines += [f"{p.severity}: {clean(p.path or '/')}: {clean(p.message)}" for p in report.problems]
    for extension in report.extensions:
        commands = extension.get("commands")
        if isinstance(commands, list):
            names = ", ".join(f"/{name}" for name in commands) or "none"
            lines.append(f"extension {extension.get('uri')}: commands {names}")
    return lines
