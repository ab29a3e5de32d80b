"""The command line's one error boundary: exceptions to exit codes, ``--debug``, closed pipes.

Every subcommand's function runs inside ``guarded``, put around it by ``GuardedGroup`` when the
application is built, so the rules below hold for every command, present and future, with no
code of their own:

* an error th_ext raises on purpose (``ThExtError``) is one line on standard error,
  ``th-ext: error: <message>``, and exit code 2; with ``--format json``, ``junit`` or
  ``github`` it is instead a document on standard output that carries the error (exit 2);
* standard output closed early (``th-ext commands CARD | head -1``) ends the command quietly
  with exit code 141, as a Unix tool stopped by ``SIGPIPE`` does;
* anything else is a bug in th-ext: one line naming it, exit 2, and with ``--debug`` (taken by
  every command) the traceback instead.

``GuardedGroup.main`` also puts standard output and standard error behind the sanitiser for
the whole run, click's own messages included.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import typer
from typer.core import TyperGroup, TyperOption

from th_ext._exceptions import ThExtError
from th_ext.cli._output import ExitCode, error_line, write
from th_ext.cli._sanitise import sanitised_streams

__all__ = ["GuardedGroup", "guard_command", "guarded_run", "run_guarded"]


class _Run:
    """What the options of the running command said about the boundary itself."""

    debug = False


def _take_debug(_context: Any, _parameter: Any, value: bool) -> None:
    if value:
        _Run.debug = True


def _debug_option() -> TyperOption:
    return TyperOption(
        param_decls=["--debug"],
        is_flag=True,
        default=False,
        expose_value=False,
        is_eager=True,
        callback=_take_debug,
        help="Show a traceback if th-ext itself fails.",
    )


def guard_command(command: Any) -> None:
    """Give ``command`` (and, for a group, each of its subcommands) ``--debug`` and put its
    function behind the boundary. Applying it twice changes nothing."""
    if not any(parameter.name == "debug" for parameter in command.params):
        command.params.append(_debug_option())
    callback = command.callback
    if callback is not None and not getattr(callback, "_th_ext_guarded", False):
        command.callback = guarded(callback, command.name)
    for child in getattr(command, "commands", {}).values():
        guard_command(child)


def guarded(callback: Callable[..., Any], name: str | None = None) -> Callable[..., Any]:
    """``callback`` (the function of the command ``name``) with th-ext's exit-code rules."""

    @functools.wraps(callback)
    def run(**params: Any) -> Any:
        try:
            result = callback(**params)
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

    run._th_ext_guarded = True  # type: ignore[attr-defined]
    return run


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
    if output_format in ("text", "concise"):  # the formats a person reads
        error_line(str(exc))
    else:
        from th_ext.cli._error_document import error_document

        try:
            source = params.get("source") or next(iter(params.get("sources") or []), None)
            write(error_document(exc, output_format, command=name, source=source))
        except BrokenPipeError:
            _output_closed()
    raise typer.Exit(int(ExitCode.UNUSABLE))


class GuardedGroup(TyperGroup):
    """The ``th-ext`` application's click group: every command behind the boundary, and the
    output streams behind the sanitiser while it runs."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        guard_command(self)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        with guarded_run():
            return super().main(*args, **kwargs)


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
