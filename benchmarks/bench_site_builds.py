"""Site build times: the deployed MkDocs build against the Zensical and Pages-subtree builds.

Run it with the project's Python (``python benchmarks/bench_site_builds.py``; ``--runs N``).
Each build runs as ``make`` runs it, in a subprocess, into a scratch folder; the script prints
the median wall time of each and its ratio to ``mkdocs build --strict``, which is the baseline
CI already pays. ``--check`` exits 1 when a ratio is over its limit.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
# A build of ours may cost at most this many times the MkDocs build of the whole site.
LIMITS = {"zensical": 2.0, "pages-subtree": 2.0}


def _command(name: str, scratch: Path) -> list[str]:
    python = sys.executable
    script = str(Path(python).parent / "th-ext-publish")
    if name == "mkdocs":
        return [python, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(scratch / "site")]
    if name == "zensical":
        return [script, "zensical", "--site-dir", str(scratch / "z")]
    return [
        script, "subtree",
        "--dest", str(scratch / "dest"), "--work-dir", str(scratch / "work"),
    ]  # fmt: skip


def _time(name: str, runs: int) -> float:
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="th-ext-bench-") as scratch:
            started = time.perf_counter()
            subprocess.run(_command(name, Path(scratch)), cwd=REPO, env=ENV, check=True,
                           capture_output=True)  # fmt: skip
            times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    baseline = _time("mkdocs", args.runs)
    print(f"{'build':<16}{'median s':>10}{'ratio':>8}{'limit':>8}")
    print(f"{'mkdocs (base)':<16}{baseline:>10.2f}{1.0:>8.2f}{'':>8}")
    over = False
    for name, limit in LIMITS.items():
        seconds = _time(name, args.runs)
        ratio = seconds / baseline
        over |= ratio > limit
        print(f"{name:<16}{seconds:>10.2f}{ratio:>8.2f}{limit:>8.1f}")
    return 1 if args.check and over else 0


if __name__ == "__main__":
    sys.exit(main())
