"""The command line's one error boundary: exceptions to exit codes, ``--debug``, closed pipes.

Every command's function is registered through ``add_command``, which puts it behind
``guarded``, so the rules below hold for every command, present and future, with no code of
their own:

* an error th_ext raises on purpose (``ThExtError``) is one line on standard error,
  ``th-ext: error: <message>``, and exit code 2; with ``--format json``, ``junit`` or
  ``github`` it is instead a document on standard output that carries the error (exit 2);
* standard output closed early (``th-ext commands CARD | head -1``) ends the command quietly
  with exit code 141, as a Unix tool stopped by ``SIGPIPE`` does;
* anything else is a bug in th-ext: one line naming it, exit 2, and with ``--debug`` (taken by
  every command and group) the traceback instead.

Every command and group also gets its ``--help`` here (the application turns the built-in
one off with ``help_option_names``): the same text, but a required argument shows in the
usage line by its name, ``SOURCE``, as optional ones show as ``[TEXT]``, where typer writes
``{SOURCE}``, and an argument is listed by its name without a Python type (``<str>``): the
help names values, as the options' metavars do.

``group_callback`` gives an application's (or a group's) callback the same ``--debug``; the
application's own also starts the run: standard output and standard error go behind the
sanitiser while it parses its arguments, so that click's own messages (a usage error that
echoes a hostile argument) pass it too. Everything here is typer's public API: parameters are
declared in the function's signature, which typer reads.
"""

from __future__ import annotations

import functools
import inspect
import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer

from th_ext import ThExtError
from th_ext.cli._terminal import (
    ExitCode,
    error_line,
    install_sanitiser,
    sanitised_streams,
    write,
)
from th_ext.report import error_document

__all__ = [
    "add_command",
    "group_callback",
    "guarded",
    "guarded_run",
    "plain_usage",
    "run_guarded",
    "summary",
]

DEBUG_HELP = "Show a traceback if th-ext itself fails."


class _Run:
    """What the options of the running command said about the boundary itself."""

    debug = False


def _start_run(value: bool) -> bool:
    """The application's ``--debug``, handled first (eager): a new run, its output sanitised."""
    install_sanitiser()
    _Run.debug = value
    return value


def _take_debug(value: bool) -> bool:
    if value:
        _Run.debug = True
    return value


StartDebugOption = Annotated[
    bool, typer.Option("--debug", is_eager=True, callback=_start_run, help=DEBUG_HELP)
]
DebugOption = Annotated[
    bool, typer.Option("--debug", is_eager=True, callback=_take_debug, help=DEBUG_HELP)
]


def _show_help(ctx: typer.Context, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        typer.echo(plain_usage(ctx.get_help()))
        raise typer.Exit()


HelpOption = Annotated[
    bool,
    typer.Option(
        "--help",
        is_eager=True,
        expose_value=False,
        callback=_show_help,
        help="Show this message and exit.",
    ),
]

_REQUIRED = re.compile(r"\{([^{}]*?)(\.\.\.)?\}(\.\.\.)?")
_ARGUMENT_TYPE = re.compile(r"^(  \S+)( <[^<>\s]+>)", re.MULTILINE)


def plain_usage(help_text: str) -> str:
    """``help_text`` with each required argument in its usage line by its plain name, and
    the arguments listed without their Python types (the columns kept aligned)."""
    usage, blank, rest = help_text.partition("\n\n")

    def plain(match: re.Match[str]) -> str:
        return match.group(1) + ("..." if match.group(2) or match.group(3) else "")

    before, heading, after = rest.partition("Arguments:\n")
    if heading:
        listed, gap, tail = after.partition("\n\n")
        listed = _ARGUMENT_TYPE.sub(lambda m: m.group(1) + " " * len(m.group(2)), listed)
        after = listed + gap + tail
    return _REQUIRED.sub(plain, usage) + blank + before + heading + after


def summary(help_text: str | None) -> str:
    """The first paragraph of ``help_text``, on one line: a command's whole summary in the
    command list, which would otherwise be cut to fit one line."""
    if not help_text:
        return ""
    return " ".join(help_text.strip().split("\n\n", 1)[0].split())


def _with_debug(function: Callable[..., Any], run: Callable[..., Any], option: Any) -> None:
    """Give ``run`` (wrapping ``function``) ``function``'s parameters, ``--debug`` and
    ``--help``: typer reads a command's parameters from its signature."""
    signature = inspect.signature(function, eval_str=True)
    keyword = inspect.Parameter.KEYWORD_ONLY
    added = {"debug": option, "show_help": HelpOption}
    parameters = [
        *signature.parameters.values(),
        *(
            inspect.Parameter(name, keyword, default=False, annotation=a)
            for name, a in added.items()
        ),
    ]
    run.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    annotations = inspect.get_annotations(function, eval_str=True)
    run.__annotations__ = {**annotations, **added}


def guarded(
    function: Callable[..., Any], name: str | None = None, *, debug: Any = DebugOption
) -> Callable[..., Any]:
    """``function`` (the function of the command ``name``) with th-ext's exit-code rules and
    a ``--debug`` option (the ``debug`` declaration given)."""

    @functools.wraps(function)
    def run(*args: Any, debug: bool = False, show_help: bool = False, **params: Any) -> Any:
        try:
            result = function(*args, **params)
            _flush_stdout()
        except (typer.Exit, typer.Abort, KeyboardInterrupt):
            _flush_stdout()
            raise
        except BrokenPipeError:
            _output_closed()
        except ThExtError as exc:
            _report_error(exc, params, name)
        except Exception as exc:
            if _Run.debug:
                raise
            error_line(
                f"internal error ({type(exc).__name__}: {exc}); "
                "rerun with --debug for the traceback"
            )
            raise typer.Exit(int(ExitCode.UNUSABLE)) from None
        return result

    _with_debug(function, run, debug)
    return run


def add_command(app: typer.Typer, name: str, function: Callable[..., Any]) -> None:
    """Register ``function`` as ``app``'s command ``name``, behind the boundary, its whole
    summary in the command list."""
    app.command(name, short_help=summary(function.__doc__))(guarded(function, name))


def group_callback(
    app: typer.Typer, function: Callable[..., Any], *, starts_run: bool = False
) -> None:
    """Make ``function`` ``app``'s callback, with ``--debug``; ``starts_run`` for the
    application's own, which starts each run (see the module's docstring)."""
    option = StartDebugOption if starts_run else DebugOption
    app.callback()(guarded(function, debug=option))


def _flush_stdout() -> None:
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        _output_closed()


def _output_closed() -> None:
    """Standard output's reader has gone: stop writing, quietly, with 128 + SIGPIPE."""
    try:  # the interpreter flushes stdout once more at exit: point it at /dev/null first
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (a test's capture)
        pass
    raise typer.Exit(int(ExitCode.OUTPUT_CLOSED))


def _report_error(exc: ThExtError, params: dict[str, Any], name: str | None) -> None:
    output_format = str(params.get("output_format") or "text")
    if output_format == "text":
        error_line(str(exc))
    else:
        try:
            source = params.get("source") or next(iter(params.get("sources") or []), None)
            write(error_document(exc, output_format, command=name, source=source))
        except BrokenPipeError:
            _output_closed()
    raise typer.Exit(int(ExitCode.UNUSABLE))


@contextmanager
def guarded_run() -> Iterator[None]:
    """One run of a command line: ``--debug`` not yet given, the output streams sanitised."""
    _Run.debug = False
    with sanitised_streams():
        yield


def run_guarded(main: Callable[[], int]) -> int:
    """Run a command line's ``main`` that returns an exit code (``th-ext-publish``) with
    sanitised output and the boundary's rules for errors it did not catch itself."""
    with guarded_run():
        try:
            return int(guarded(main)() or 0)
        except typer.Exit as exc:
            return int(exc.exit_code)
