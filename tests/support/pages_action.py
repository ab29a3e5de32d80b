"""The pages-subtree composite action and the README's workflow lines, run as a runner runs them.

A GitHub runner is not at hand, so its steps are simulated: a composite action's ``run``
steps are run with bash in the caller's workspace, with ``${{ inputs.* }}`` and
``${{ github.action_path }}`` put in as the runner puts them, and ``actions/checkout`` of
this repository is a ``git clone`` of this checkout. Steps that only set a tool up
(``actions/setup-python``) are left out: the Python running the tests stands in.

``make pages-subtree`` builds in ``build/pages-venv``, installed from the hash-pinned
``requirements/site.txt``; it is installed once (by this Python's pip, which is faster than
the seeded pip of a new environment) and shared, and builds in this checkout take turns,
since they share its scratch folder.
"""

from __future__ import annotations

import fcntl
import os
import re
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.conftest import REPO_ROOT

__all__ = [
    "PAGES_ACTION",
    "PAGES_VENV",
    "ensure_pages_venv",
    "expand_expressions",
    "run_action_steps",
    "run_shell_step",
    "turn_in_checkout",
]

PAGES_ACTION = REPO_ROOT / ".github" / "actions" / "pages-subtree" / "action.yml"
PAGES_VENV = REPO_ROOT / "build" / "pages-venv"
_EXPRESSION = re.compile(r"\$\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}")


@contextmanager
def turn_in_checkout() -> Iterator[None]:
    """Hold this checkout's build folder: one pages-venv install or subtree build at a time."""
    (REPO_ROOT / "build").mkdir(exist_ok=True)
    with (REPO_ROOT / "build" / "pages-subtree.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def ensure_pages_venv() -> Path:
    """``build/pages-venv``, installed from ``requirements/site.txt`` if it is missing or
    older than the lock file (``make`` decides); call it inside ``turn_in_checkout``."""
    process = subprocess.run(
        ["make", "-s", f"PYTHON={sys.executable}", "build/pages-venv/.installed"],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=600, check=False,
        env={**os.environ, "MAKEFLAGS": ""},
    )  # fmt: skip
    assert process.returncode == 0, process.stdout + process.stderr
    return PAGES_VENV


def expand_expressions(text: str, values: Mapping[str, str]) -> str:
    """``text`` with each ``${{ name }}`` replaced by ``values[name]`` (a missing name fails)."""

    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        assert name in values, f"the simulation has no value for ${{{{ {name} }}}}"
        return values[name]

    return _EXPRESSION.sub(value, text)


def run_shell_step(
    step: Mapping[str, Any], cwd: Path, values: Mapping[str, str], workspace: Path
) -> subprocess.CompletedProcess[str]:
    """One ``run`` step with bash, as the runner runs it (``bash -e``), in ``cwd``."""
    env = {**os.environ, "GITHUB_WORKSPACE": str(workspace), "MAKEFLAGS": ""}
    env.pop("SOURCE_DATE_EPOCH", None)
    for name, raw in (step.get("env") or {}).items():
        env[str(name)] = expand_expressions(str(raw), values)
    script = expand_expressions(str(step["run"]), values)
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-e", "-o", "pipefail", "-c", script],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip


def run_action_steps(
    action: Mapping[str, Any], action_path: Path, workspace: Path, inputs: Mapping[str, str]
) -> subprocess.CompletedProcess[str]:
    """Every ``run`` step of a composite action in ``workspace``, with the inputs' defaults
    overridden by ``inputs``; the first failing step's result, else the last one's."""
    values = {
        f"inputs.{name}": str(spec.get("default", ""))
        for name, spec in (action.get("inputs") or {}).items()
    }
    values.update({f"inputs.{name}": value for name, value in inputs.items()})
    values["github.action_path"] = str(action_path)
    values["github.workspace"] = str(workspace)
    result: subprocess.CompletedProcess[str] | None = None
    for step in action["runs"]["steps"]:
        if "run" not in step:
            assert str(step["uses"]).startswith("actions/setup-python@"), step
            continue
        assert step.get("shell") == "bash", step
        result = run_shell_step(step, workspace, values, workspace)
        if result.returncode != 0:
            return result
    assert result is not None, "the action has no run step"
    return result
