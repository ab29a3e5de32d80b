"""The command line's one error boundary: exceptions to exit codes, ``--debug``, closed pipes,
usage errors in th-ext's words and each command's ``--help``, all through typer's public API."""

from __future__ import annotations

import functools
import inspect
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from enum import Enum
from typing import Annotated, Any

import typer

from th_ext import ThExtError
from th_ext.cli._terminal import (
    ExitCode,
    OutputFailedError,
    error_line,
    install_sanitiser,
    sanitised_streams,
    write,
)
from th_ext.problems import closest_name, cut
from th_ext.report import error_document

__all__ = [
    "add_command",
    "command_group",
    "group_callback",
    "guarded",
    "guarded_run",
    "run_app",
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


def plain_usage(help_text: str) -> str:
    """``help_text`` with each required argument in its usage line by its plain name."""
    usage, blank, rest = help_text.partition("\n\n")

    def plain_argument(match: re.Match[str]) -> str:
        return match.group(1) + ("..." if match.group(2) or match.group(3) else "")

    return _REQUIRED.sub(plain_argument, usage) + blank + rest


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
    def guarded_command(
        *args: Any, debug: bool = False, show_help: bool = False, **params: Any
    ) -> Any:
        try:
            result = function(*args, **params)
            _flush_stdout()
        except (typer.Exit, typer.Abort, KeyboardInterrupt, typer.TyperException):
            _flush_stdout()  # a usage error raised while running (a TyperException) is
            raise  # worded with the parser's own (``run_app``)
        except BrokenPipeError:
            _output_closed()
        except OutputFailedError as exc:
            _output_failed(exc)
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

    _with_debug(function, guarded_command, debug)
    return guarded_command


def add_command(app: typer.Typer, name: str, function: Callable[..., Any]) -> None:
    """Register ``function`` as ``app``'s command ``name``, behind the boundary, its whole
    summary in the command list."""
    app.command(name, short_help=summary(function.__doc__))(guarded(function, name))


def group_callback(
    app: typer.Typer, function: Callable[..., Any], *, starts_run: bool = False
) -> None:
    """Make ``function`` ``app``'s callback, with ``--debug``; ``starts_run`` for the
    application's own, which starts each run: its output is sanitised while the arguments are
    parsed, so that click's own messages (a usage error echoing an argument) pass it too."""
    option = StartDebugOption if starts_run else DebugOption
    app.callback()(guarded(function, debug=option))


def command_group(function: Callable[..., Any]) -> typer.Typer:
    """A group of subcommands whose help is ``function``'s docstring, ``function`` its callback."""
    help_text = function.__doc__
    group = typer.Typer(
        help=help_text, short_help=help_text, no_args_is_help=True, add_completion=False
    )
    group_callback(group, function)
    return group


def _flush_stdout() -> None:
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        _output_closed()
    except OutputFailedError as exc:
        _output_failed(exc)


def _discard_stdout() -> None:
    """Point standard output at /dev/null: the interpreter flushes it once more at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (a test's capture)
        pass


def _output_closed() -> None:
    """Standard output's reader has gone: stop writing, quietly, with 128 + SIGPIPE."""
    _discard_stdout()
    raise typer.Exit(int(ExitCode.OUTPUT_CLOSED))


def _output_failed(exc: OutputFailedError) -> None:
    """Standard output cannot take what is written (a full disk): one line saying so, exit 2."""
    _discard_stdout()
    error_line(str(exc))
    raise typer.Exit(int(ExitCode.UNUSABLE))


def _report_error(exc: ThExtError, params: dict[str, Any], name: str | None) -> None:
    output_format = str(params.get("output_format") or "text")
    if output_format in ("text", "concise"):  # the formats a person reads
        error_line(str(exc))
    else:
        try:
            source = params.get("source") or next(iter(params.get("sources") or []), None)
            write(error_document(exc, output_format, command=name, source=source))
        except BrokenPipeError:
            _output_closed()
        except OutputFailedError as failed:
            _output_failed(failed)
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


# Usage errors in th-ext's words: one line, then the command's usage (run_app, usage_words).

_NO_SUCH_COMMAND = re.compile(r"No such command (['\"])(.*?)\1\.(?: |$)")
_NUMBER_WORDS = {"int": "a whole number", "float": "a number"}


def parameter_bounds(param: Any) -> tuple[Any, Any]:
    """The least and greatest value ``param`` accepts (``None`` where it has no bound)."""
    kind = getattr(param, "type", None)
    return getattr(kind, "min", None), getattr(kind, "max", None)


def parameter_choices(param: Any) -> list[str] | None:
    """The values ``param`` accepts when they are a fixed list (an enum), else ``None``."""
    choices = getattr(getattr(param, "type", None), "choices", None)
    if choices is None:
        return None
    return [str(c.value) if isinstance(c, Enum) else str(c) for c in choices]


def parameter_name(param: Any) -> str:
    """How a parameter is named to the user: an option by its long name, an argument by its
    metavar (``SOURCE``)."""
    if getattr(param, "param_type_name", "") == "option":
        names = [str(name) for name in param.opts]
        return next((n for n in names if n.startswith("--")), names[0])
    return str(param.metavar or param.name.upper()).strip("{}.")


def _one_of(choices: Sequence[str]) -> str:
    if len(choices) == 1:
        return choices[0]
    return f"one of {', '.join(choices[:-1])} or {choices[-1]}"


def _range(low: Any, high: Any) -> str:
    if low is not None and high is not None:
        return f"at least {low}, at most {high}"
    return f"at least {low}" if low is not None else f"at most {high}"


def _value_words(param: Any, message: str) -> str:
    """What is wrong with the value ``param``'s type refused, saying so in ``message``.

    typer's types begin the sentence with the value as typed, then say what it is not:
    ``'x' is not one of 'a', 'b'.``, ``0 is not in the range 1<=x<=9.``,
    ``'x' is not a valid int range.``; the end of the sentence is known from the type, so the value
    is what comes before it, whatever the value holds."""
    name = parameter_name(param)
    choices = parameter_choices(param)
    value, one_of, _ = message.rpartition(" is not one of ")
    if choices is not None and one_of:
        return f"{name} must be {_one_of(choices)}, not {_shown(value)}"
    value, in_range, _ = message.partition(" is not in the range ")
    if in_range:
        return f"{name} must be {_range(*parameter_bounds(param))}, not {_shown(value)}"
    value, valid, what = message.rpartition(" is not a valid ")
    number = _NUMBER_WORDS.get(what.rstrip(".").split(" ")[0]) if valid else None
    if number is not None:
        return f"{name} must be {number}, not {_shown(value)}"
    return f"{name}: {cut(_phrase(message), 300)}"


def _shown(value: str, limit: int = 200) -> str:
    """A refused value as the parser wrote it (``'fast'``), at most ``limit`` characters: its
    start, ``…`` and its last character, the closing quote."""
    return value if len(value) <= limit else f"{value[: limit - 2]}…{value[-1]}"


def _phrase(message: str) -> str:
    """A parser's sentence as part of th-ext's line: no capital at the start, no full stop."""
    message = " ".join(message.split()).rstrip(".")
    return message[:1].lower() + message[1:] if message[1:2].islower() else message


def _option_names(ctx: Any) -> list[str]:
    command = getattr(ctx, "command", None)
    names: list[str] = []
    for param in getattr(command, "params", ()):
        if getattr(param, "param_type_name", "") == "option":
            names += [*param.opts, *param.secondary_opts]
    return names


def usage_words(exc: typer.TyperException) -> str:
    """The parser's error ``exc`` as one line in th-ext's words (without ``th-ext: error:``)."""
    ctx = getattr(exc, "ctx", None)
    where = getattr(ctx, "command_path", "th-ext")
    param = getattr(exc, "param", None)
    if param is not None and hasattr(exc, "param_type"):  # a required parameter not given
        return f"{where} needs {parameter_name(param)}"
    if param is not None:  # a value a type or a callback refused
        return _value_words(param, exc.message)
    option = getattr(exc, "option_name", None)
    if option is not None and hasattr(exc, "possibilities"):  # an option that does not exist
        meant = closest_name(option, _option_names(ctx))
        return f"{where} has no option {option}" + (f"; did you mean {meant}?" if meant else "")
    unknown = _NO_SUCH_COMMAND.match(exc.message)
    commands = getattr(getattr(ctx, "command", None), "commands", None)
    if unknown and commands is not None:  # a command that does not exist
        name = unknown.group(2)
        meant = closest_name(name, list(commands))
        return f"{where} has no command {name!r}" + (f"; did you mean {meant!r}?" if meant else "")
    return _phrase(exc.format_message())


def _usage_hint(ctx: Any) -> str | None:
    if ctx is None:
        return None
    usage = plain_usage(ctx.get_usage())
    return f"{usage} ({ctx.command_path} --help for more)"


def _is_help(exc: typer.TyperException) -> bool:
    """Whether ``exc`` is a group's help, shown when the group is given nothing to do."""
    ctx = getattr(exc, "ctx", None)
    return ctx is not None and exc.message == ctx.get_help()


def run_app(app: typer.Typer, args: Sequence[str] | None = None, prog: str = "th-ext") -> int:
    """Run the command line ``app`` (the program ``prog``) on ``args`` (``sys.argv`` by default)
    and return its exit code: a usage error is one line in th-ext's words (``usage_words``),
    then the usage."""
    try:
        # the arguments given, or the script's own (then the name it was started by)
        name = None if args is None else prog
        result = app(args=args, prog_name=name, standalone_mode=False)
    except typer.TyperException as exc:
        if _is_help(exc):
            write(plain_usage(exc.message), err=True)
        else:
            error_line(usage_words(exc), prog)
            hint = _usage_hint(getattr(exc, "ctx", None))
            if hint is not None:
                write(hint, err=True)
        return int(ExitCode.UNUSABLE)
    except typer.Abort:  # end of input at a prompt
        error_line("aborted")
        return 1
    # the code of a typer.Exit, or what the command returned (nothing: it succeeded)
    return result if isinstance(result, int) and not isinstance(result, bool) else 0
