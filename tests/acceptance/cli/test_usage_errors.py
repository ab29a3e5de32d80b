"""Usage errors are th-ext's errors: ``th-ext: error:`` and what to type instead on the first
line of standard error, the command's usage on the next, nothing on standard output, exit 2.

The options are read off the command tree: every option of every command that has a range or
a list of choices gets a value outside it, so an option added tomorrow is checked too.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli_tree import BoundedOption, bounded_options, command_paths
from th_ext.cli import main

SCRIPT = Path(sys.executable).with_name("th-ext")


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as ended:
        main(list(args))
    out, err = capsys.readouterr()
    return int(ended.value.code or 0), out, err


def _bad_values(option: BoundedOption) -> list[tuple[str, str]]:
    """``(value, the first line th-ext must print)`` for each way out of the option's bounds."""
    start = f"th-ext: error: {option.name} must be"
    if option.choices:
        *most, last = option.choices
        listed = f"one of {', '.join(most)} or {last}" if most else last
        return [("no-such-choice", f"{start} {listed}, not 'no-such-choice'")]
    if option.low is not None and option.high is not None:
        bounds = f"at least {option.low}, at most {option.high}"
    else:
        bounds = f"at least {option.low}" if option.low is not None else f"at most {option.high}"
    cases = []
    if option.low is not None:
        cases.append((str(option.low - 1), f"{start} {bounds}, not {option.low - 1}"))
    if option.high is not None:
        cases.append((str(option.high + 1), f"{start} {bounds}, not {option.high + 1}"))
    cases.append(("many", f"{start} a whole number, not 'many'"))
    return cases


CASES = [
    pytest.param(option, value, line, id=f"{' '.join(option.path)} {option.name} {value}")
    for option in bounded_options()
    for value, line in _bad_values(option)
]


def test_the_tree_has_bounded_options() -> None:
    names = {(o.path, o.name) for o in bounded_options()}
    assert {(("validate",), "--jobs"), (("conform",), "--format")} <= names
    assert len(names) >= 10


@pytest.mark.parametrize(("option", "value", "line"), CASES)
def test_a_value_out_of_bounds(
    capsys: pytest.CaptureFixture[str], option: BoundedOption, value: str, line: str
) -> None:
    code, out, err = _run(capsys, *option.path, *option.required_arguments(), option.name, value)
    assert code == 2
    assert out == ""
    first, usage, *rest = err.splitlines()
    assert first == line
    command = " ".join(["th-ext", *option.path])
    assert usage.startswith(f"Usage: {command} [OPTIONS]")
    assert usage.endswith(f"({command} --help for more)")
    assert rest == []
    for leak in ("Error:", "Invalid value", "Input should", "Value error"):
        assert leak not in err


@pytest.mark.parametrize(
    ("args", "first"),
    [
        (["valdate"], "th-ext: error: th-ext has no command 'valdate'; did you mean 'validate'?"),
        (["lock", "ad"], "th-ext: error: th-ext lock has no command 'ad'; did you mean 'add'?"),
        (["frobnicate"], "th-ext: error: th-ext has no command 'frobnicate'"),
        (
            ["validate", "x", "--qiet"],
            "th-ext: error: th-ext validate has no option --qiet; did you mean --quiet?",
        ),
        (["--bogus"], "th-ext: error: th-ext has no option --bogus"),
        (["lock", "add"], "th-ext: error: th-ext lock add needs EXTENSION"),
        (["dispatch"], "th-ext: error: th-ext dispatch needs SOURCE"),
        (["sign", "card.json"], "th-ext: error: th-ext sign needs --key"),
        (
            ["validate", "x", "--timeout", "soon"],
            "th-ext: error: --timeout: 'soon' is not a number of seconds",
        ),
        (["demo", "--port", "http"], "th-ext: error: --port must be a whole number, not 'http'"),
        (
            ["demo", "--port", "1 is not a valid int."],
            "th-ext: error: --port must be a whole number, not '1 is not a valid int.'",
        ),
        (
            ["validate", "x", "--rate", "fast"],
            "th-ext: error: --rate must be a number, not 'fast'",
        ),
        (
            ["validate", "x", "--format", "x' is not one of 'text"],
            "th-ext: error: --format must be one of text, concise, json, jsonl, junit, github or "
            "sarif, not \"x' is not one of 'text\"",
        ),
    ],
)
def test_other_usage_errors(
    capsys: pytest.CaptureFixture[str], args: list[str], first: str
) -> None:
    code, out, err = _run(capsys, *args)
    assert (code, out) == (2, "")
    assert err.splitlines()[0] == first
    assert "Error:" not in err


@pytest.mark.parametrize("path", [p for p in command_paths() if p in ([], ["lock"])])
def test_a_group_given_nothing_shows_its_help(
    capsys: pytest.CaptureFixture[str], path: list[str]
) -> None:
    code, out, err = _run(capsys, *path)
    assert (code, out) == (2, "")
    assert err.startswith(f"Usage: {' '.join(['th-ext', *path])} [OPTIONS] COMMAND [ARGS]...")
    assert "Commands:" in err


def test_help_and_version_are_not_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "validate", "--help")
    assert (code, err) == (0, "")
    assert out.startswith("Usage: th-ext validate [OPTIONS]")
    code, out, err = _run(capsys, "--version")
    assert (code, err) == (0, "")
    assert out.startswith("th-ext ")


LONG = "x" * 100_000


@pytest.mark.parametrize("option", bounded_options(), ids=lambda o: f"{' '.join(o.path)} {o.name}")
def test_a_value_of_any_length_is_named_in_a_short_line(
    capsys: pytest.CaptureFixture[str], option: BoundedOption
) -> None:
    code, out, err = _run(capsys, *option.path, *option.required_arguments(), option.name, LONG)
    assert (code, out) == (2, "")
    first = err.splitlines()[0]
    assert first.startswith(f"th-ext: error: {option.name} must be")
    assert first.endswith(", not '" + "x" * 197 + "…'")


@pytest.mark.parametrize(
    ("args", "start"),
    [
        (["validate", "x", "--select", LONG], "th-ext: error: --select: no problem code 'xxx"),
        (["validate", "x", "--ignore", LONG], "th-ext: error: --ignore: no problem code 'xxx"),
        (["validate", "x", "--header-origin", LONG], "th-ext: error: --header-origin: header"),
        (["validate", "x", "--timeout", LONG], "th-ext: error: --timeout: 'xxx"),
    ],
    ids=["select", "ignore", "header-origin", "timeout"],
)
def test_a_long_value_a_callback_refuses_is_cut_too(
    capsys: pytest.CaptureFixture[str], args: list[str], start: str
) -> None:
    code, out, err = _run(capsys, *args)
    assert (code, out) == (2, "")
    first = err.splitlines()[0]
    assert first.startswith(start)
    assert len(first) < 400, len(first)


def test_a_hostile_value_is_escaped(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "validate", "x", "--format", "\x1b[2Jtext")
    assert code == 2
    assert "\x1b" not in err
    assert err.startswith("th-ext: error: --format must be one of text, concise,")


def test_the_script_says_it_the_same_way(tmp_path: Path) -> None:
    done = subprocess.run(
        [str(SCRIPT), "validate", str(tmp_path / "x.json"), "--jobs", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "NO_COLOR": "1"},
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        "th-ext: error: --jobs must be at least 1, at most 10000, not 0",
        "Usage: th-ext validate [OPTIONS] [SOURCE...] (th-ext validate --help for more)",
    ]
