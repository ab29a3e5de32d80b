"""Numeric options have ranges: a value outside is a one-line usage error (exit 2), never a
thread traceback, an OverflowError or a MemoryError; a large cap never allocates by itself."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest

from tests.acceptance.hostile.conftest import EXAMPLE_CARD, Result
from th_ext import SourceArgumentError, SourceLimits, read_source
from th_ext.sources._source import MAX_BYTES_LIMIT, MAX_TIMEOUT, read_bounded

COMMANDS = ["validate", "commands", "dispatch"]


def _args(command: str, *options: str) -> list[str]:
    args = [command, str(EXAMPLE_CARD), *options]
    if command == "dispatch":
        args.insert(2, "/model")
    return args


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(
    "value", ["1e10", "inf", "-inf", "nan", "0", "-1", "3600.001", "1e-400", "1e400"]
)
def test_timeout_out_of_range(th_ext: Callable[..., Result], command: str, value: str) -> None:
    result = th_ext(*_args(command, "--timeout", value))
    assert result.exit_code == 2
    assert result.stderr.startswith("th-ext: error: --timeout must be a positive number")
    assert result.stderr.count("\n") == 1
    assert result.stdout == ""


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("value", [str(10**20), str(MAX_BYTES_LIMIT + 1), "0", "-5", "9" * 5000])
def test_max_bytes_out_of_range(th_ext: Callable[..., Result], command: str, value: str) -> None:
    result = th_ext(*_args(command, "--max-bytes", value))
    assert result.exit_code == 2
    for word in ("Traceback", "OverflowError", "MemoryError", "internal error"):
        assert word not in result.stderr
    if len(value) < 30:  # a value typer can read as an int: our one-line range error
        assert result.stderr.startswith("th-ext: error: --max-bytes must be at least 1, at most")
        assert result.stderr.count("\n") == 1


@pytest.mark.parametrize("command", COMMANDS)
def test_the_ends_of_the_ranges_are_accepted(th_ext: Callable[..., Result], command: str) -> None:
    result = th_ext(
        *_args(command, "--timeout", f"{MAX_TIMEOUT:g}", "--max-bytes", str(MAX_BYTES_LIMIT))
    )
    assert result.exit_code == 0, result.stderr


def test_the_library_checks_the_same_ranges() -> None:
    for limits in (SourceLimits(timeout=1e10), SourceLimits(max_bytes=10**20)):
        with pytest.raises(SourceArgumentError):
            read_source(str(EXAMPLE_CARD), limits)


class _Recording(io.BytesIO):
    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.asked: list[int] = []

    def read(self, size: int | None = -1) -> bytes:
        self.asked.append(-1 if size is None else size)
        return super().read(size)


def test_reading_never_asks_for_the_cap() -> None:
    stream = _Recording(b"x" * 200_000)
    assert read_bounded(stream, MAX_BYTES_LIMIT) == b"x" * 200_000
    assert max(stream.asked) <= 64 * 1024
    assert read_bounded(_Recording(b"x" * 11), 10) is None
    assert read_bounded(_Recording(b"x" * 10), 10) == b"x" * 10


def test_stdin_over_the_cap(th_ext: Callable[..., Result]) -> None:
    result = th_ext("validate", "-", "--max-bytes", "10", input=b"{" + b" " * 100 + b"}")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "more than the cap of 10 bytes" in result.stderr


@pytest.mark.parametrize(
    ("option", "value"),
    [("--timeout", "1e10"), ("--timeout", "nan"), ("--timeout", "0"), ("--port", str(10**20))],
)
def test_demo_options_out_of_range(th_ext: Callable[..., Result], option: str, value: str) -> None:
    result = th_ext("demo", option, value)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"th-ext: error: {option} must be")
    assert result.stderr.count("\n") == 1
