"""The boundary's rules, on a small application built the way th-ext's is."""

from __future__ import annotations

import json
from typing import Annotated

import pytest
import typer
from typer.testing import CliRunner

from th_ext._exceptions import DispatchError, SourceError
from th_ext.cli._boundary import add_command, group_callback


def _app() -> typer.Typer:
    app = typer.Typer(add_completion=False)

    def root() -> None:
        """The application."""

    def fail_with(
        kind: str,
        output_format: Annotated[str, typer.Option("--format")] = "text",
        source: Annotated[str, typer.Option("--source")] = "card.json",
    ) -> None:
        if kind == "bug":
            raise RuntimeError("a \x1b]0;bug\x07 in th-ext")
        if kind == "source":
            raise SourceError("card.json: gone \u202e away", code="not-found")
        if kind == "dispatch":
            raise DispatchError("no interface\nthe card can use")
        if kind == "pipe":
            raise BrokenPipeError
        if kind == "exit":
            raise typer.Exit(1)
        typer.echo("fine")

    def other() -> None:
        typer.echo("other")

    group_callback(app, root, starts_run=True)
    add_command(app, "fail-with", fail_with)
    add_command(app, "other", other)
    return app


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(_app(), list(args))
    return result.exit_code, result.stdout, result.stderr


def test_an_error_raised_on_purpose_is_one_line() -> None:
    assert _run("fail-with", "dispatch") == (
        2,
        "",
        "th-ext: error: no interface the card can use\n",
    )


def test_its_message_is_sanitised() -> None:
    code, _, stderr = _run("fail-with", "source")
    assert code == 2
    assert stderr == "th-ext: error: card.json: gone \\u202e away\n"


def test_a_machine_format_gets_a_document() -> None:
    code, stdout, stderr = _run("fail-with", "source", "--format", "json")
    assert (code, stderr) == (2, "")
    assert json.loads(stdout) == {
        "command": "fail-with",
        "source": "card.json",
        "exit_code": 2,
        "error": {"code": "not-found", "message": "card.json: gone \u202e away"},
    }


def test_credentials_in_the_source_are_redacted() -> None:
    code, stdout, _ = _run(
        "fail-with", "dispatch", "--format", "json", "--source", "https://u:pw@h.example/c"
    )
    assert code == 2
    document = json.loads(stdout)
    assert "pw" not in stdout
    assert document["error"]["code"] == "dispatch"


def test_a_bug_is_one_line_without_debug() -> None:
    code, stdout, stderr = _run("fail-with", "bug")
    assert (code, stdout) == (2, "")
    assert stderr == (
        "th-ext: error: internal error (RuntimeError: a \\x1b]0;bug\\x07 in th-ext); "
        "rerun with --debug for the traceback\n"
    )


def test_debug_lets_the_traceback_through() -> None:
    result = CliRunner().invoke(_app(), ["fail-with", "bug", "--debug"])
    assert isinstance(result.exception, RuntimeError)


def test_debug_does_not_leak_into_the_next_run() -> None:
    app = _app()
    runner = CliRunner()
    runner.invoke(app, ["fail-with", "bug", "--debug"])
    assert runner.invoke(app, ["fail-with", "bug"]).exit_code == 2


def test_a_closed_pipe_is_141_and_quiet() -> None:
    assert _run("fail-with", "pipe") == (141, "", "")


@pytest.mark.parametrize(("kind", "code"), [("exit", 1), ("ok", 0)])
def test_exit_codes_pass_through(kind: str, code: int) -> None:
    assert _run("fail-with", kind)[0] == code


def test_every_command_gets_debug() -> None:
    code, stdout, _ = _run("other", "--help")
    assert code == 0
    assert "--debug" in stdout
