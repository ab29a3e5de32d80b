"""``make mutate``: mutation testing of the modules listed in ``tests/support/mutation.toml``.

Each module gets a workspace of its own (``WORKSPACE/<module>``) where ``th_ext``, ``tests``,
``extensions`` and ``site`` are links to the real folders (mutmut names a mutant by its file's
path, which must be the module's name) and ``pyproject.toml`` is the project's, with mutmut told
to mutate that one module and to run only the tests the table names for it. mutmut runs with at
most ``--children`` processes, then ``mutation_scores`` prints the score; the run fails when a
module is under the bar, or when the table lists an equivalent mutant that is gone or killed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

from tests.support.mutation_scores import TABLE, load_table, report

ROOT = Path(__file__).resolve().parents[2]
NO_TESTS = "could not find any test case for any mutant"
"""What mutmut says, and stops, when no selected test reaches the module: every mutant survives."""


def _pyproject(module: str, tests: list[str]) -> str:
    """The project's pyproject.toml with a ``[tool.mutmut]`` section for ``module`` alone."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    mutmut: dict[str, Any] = dict(tomllib.loads(text)["tool"]["mutmut"])
    mutmut["only_mutate"] = ["th_ext/" + module.replace(".", "/") + ".py"]
    mutmut["pytest_add_cli_args_test_selection"] = tests
    head, _, rest = text.partition("[tool.mutmut]\n")
    tail = rest[rest.find("\n[") + 1 :] if "\n[" in rest else ""
    section = "".join(f"{key} = {json.dumps(value)}\n" for key, value in mutmut.items())
    return f"{head}[tool.mutmut]\n{section}\n{tail}"


def _workspace(root: Path, module: str, tests: list[str]) -> Path:
    place = root / module
    shutil.rmtree(place, ignore_errors=True)
    place.mkdir(parents=True)
    for name, target in (
        ("th_ext", ROOT / "cli" / "th_ext"),
        ("tests", ROOT / "tests"),
        ("extensions", ROOT / "extensions"),
        ("site", ROOT / "site"),
        ("conftest.py", ROOT / "tests" / "support" / "mutation_ids.py"),
    ):
        (place / name).symlink_to(target)
    (place / "pyproject.toml").write_text(_pyproject(module, tests), encoding="utf-8")
    return place


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help="dotted names under th_ext; all by default")
    parser.add_argument("--workspace", type=Path, required=True)
    parser.add_argument("--children", type=int, default=1, help="mutmut's processes at most")
    args = parser.parse_args(argv)
    table = load_table(TABLE)
    modules = args.modules or list(table.modules)
    unknown = [m for m in modules if m not in table.modules]
    if unknown:
        print(f"not in {TABLE.name}: {', '.join(unknown)}", file=sys.stderr)
        return 2
    mutmut = Path(sys.executable).with_name("mutmut")
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    places = {}
    for module in modules:
        place = _workspace(args.workspace, module, table.modules[module])
        log = place / "mutmut.log"
        command = [str(mutmut), "run", "--max-children", str(args.children), f"th_ext.{module}.*"]
        with log.open("w", encoding="utf-8") as out:
            done = subprocess.run(
                command, check=False, cwd=place, stdout=out, stderr=subprocess.STDOUT, env=env
            )
        if done.returncode != 0 and NO_TESTS not in log.read_text(encoding="utf-8"):
            print(f"th_ext.{module}: mutmut failed (exit {done.returncode}), see {log}")
            return 2
        places[module] = place
    return report(places, table)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
