"""The mutation score of each module after ``make mutate``, and the mutants that survived.

A mutant is killed when a test failed (or timed out, or the type check refused it); it survives
when every test still passed. Mutants that no test reaches count against the score: a rule
nobody tests is a gap too. An equivalent mutant (listed in ``mutation.toml`` with the reason:
it changes nothing a user can see, only speed or a value never used) is left out of the count,
so a module's score is killed / (total - equivalent).
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from pathlib import Path

TABLE = Path(__file__).with_name("mutation.toml")
SURVIVED = (0, 5, 33)  # every test passed, or no test ran it
NOT_RUN = (None, 34)  # not checked yet, or skipped


@dataclass(frozen=True)
class MutationTable:
    """What ``make mutate`` covers: each module's tests, the equivalent mutants, the bar."""

    modules: dict[str, list[str]]
    equivalent: dict[str, str]
    """Mutant name (``th_ext.checks._command_checks.x_check__mutmut_1``) to the reason."""
    minimum: float


def load_table(path: Path) -> MutationTable:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    modules = {name: list(entry["tests"]) for name, entry in data["modules"].items()}
    return MutationTable(modules, dict(data.get("equivalent", {})), float(data["minimum"]))


@dataclass(frozen=True)
class Score:
    module: str
    killed: int
    counted: int
    equivalent: int
    survivors: list[str]
    stale: list[str]
    """Mutants listed as equivalent that no longer exist or that a test now kills."""

    @property
    def share(self) -> float:
        return self.killed / self.counted if self.counted else 1.0


def score(place: Path, module: str, equivalent: dict[str, str]) -> Score:
    meta = Path(place, "mutants", "th_ext", *module.split(".")).with_suffix(".py.meta")
    codes: dict[str, int | None] = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
    if all(code is None for code in codes.values()):  # no selected test reaches the module
        codes = dict.fromkeys(codes, 33)
    run = {name: code for name, code in codes.items() if code not in NOT_RUN}
    prefix = f"th_ext.{module}."
    listed = {name for name in equivalent if name.startswith(prefix)}
    stale = sorted(name for name in listed if name not in run or run[name] not in SURVIVED)
    counted = {name: code for name, code in run.items() if name not in listed}
    survivors = sorted(name for name, code in counted.items() if code in SURVIVED)
    killed = len(counted) - len(survivors)
    return Score(module, killed, len(counted), len(listed) - len(stale), survivors, stale)


def report(places: dict[str, Path], table: MutationTable) -> int:
    """Print every module's score; 1 when one is under the bar or lists a stale equivalent."""
    failed = False
    for module, place in places.items():
        found = score(place, module, table.equivalent)
        print(
            f"th_ext.{module}: {found.killed}/{found.counted} killed ({found.share:.1%}),"
            f" {found.equivalent} equivalent left out"
        )
        for name in found.survivors:
            print(f"  survived: {name}")
        for name in found.stale:
            print(f"  listed as equivalent, but killed or gone: {name}")
        failed = failed or found.share < table.minimum or bool(found.stale)
    if failed:
        print(f"under {table.minimum:.0%} killed, or a stale entry in {TABLE.name}")
    return 1 if failed else 0
