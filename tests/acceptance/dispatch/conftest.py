"""Real demo agents on 127.0.0.1 (one per variant, started once) and the th-ext command line."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.support.demo_agents import DemoAgents
from th_ext.cli import app
from th_ext.demo import DemoServer, DemoVariant


@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)


@pytest.fixture(scope="session")
def demo_agent() -> Iterator[Callable[[DemoVariant], DemoServer]]:
    """A started demo agent of a given variant; each variant starts once per session."""
    agents = DemoAgents()
    yield agents
    agents.stop_all()


@pytest.fixture
def th_ext() -> Callable[..., Result]:
    """Run ``th-ext ARGS`` in-process and return its exit code, stdout and stderr."""
    runner = CliRunner()

    def run(*args: str, input: str | None = None) -> Result:
        outcome = runner.invoke(app, list(args), input=input, catch_exceptions=False)
        return Result(outcome.exit_code, outcome.stdout, outcome.stderr)

    return run
