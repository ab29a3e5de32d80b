"""The mutation score of each module after ``make mutate``, and the mutants that survived.

Run in the mutation workspace (see ``make mutate``) with the dotted module names under
``th_ext`` (``validate._fastschema``). A mutant is killed when a test failed (or timed out,
or the type check refused it); it survives when every test still passed. Mutants that no
test reaches count against the score: a rule nobody tests is a gap too.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

SURVIVED = 0
NOT_RUN = (None, 34)  # not checked yet, or skipped


def scores(module: str) -> tuple[int, int, list[str]]:
    meta = Path("mutants", "th_ext", *module.split(".")).with_suffix(".py.meta")
    codes: dict[str, int | None] = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
    run = {name: code for name, code in codes.items() if code not in NOT_RUN}
    survivors = sorted(name for name, code in run.items() if code in (SURVIVED, 33))
    return len(run) - len(survivors), len(run), survivors


def main(modules: list[str]) -> int:
    for module in modules:
        killed, total, survivors = scores(module)
        share = killed / total if total else 1.0
        print(f"th_ext.{module}: {killed}/{total} killed ({share:.0%})")
        for name in survivors:
            print(f"  survived: {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
