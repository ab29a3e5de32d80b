"""History benchmarks: a registry's year in one store, what reading it costs, and what
recording costs a fleet run.

Run it with the project's Python (``python benchmarks/bench_history.py``; ``--sources`` and
``--runs`` to change the store's size, ``--only NAME`` to run some cases, ``--check`` to exit 1
when a target is missed). It prints each figure and its ratio to the target:

* ``store``: 10,000 sources x 365 nightly runs (3.65 million outcomes): 85 % of the sources
  always pass, 10 % always fail (in several categories), 5 % flip now and then; each source's
  documents are real validate reports. The rows go in with ``executemany`` in one transaction
  (recording them one run at a time through ``RunRecorder`` is what the ``record`` cases
  measure). Prints how long that took and the store's size on disk (information).
* ``history``: ``th-ext history STORE`` in a process of its own; target 2 s.
* ``dashboard``: ``th-ext history STORE --html OUT``; targets 10 s and 5 MB.
* ``record-urls``: ``th-ext validate --from`` over 1,000 card URLs (16 loopback origins, each
  answering 20 ms late, ``--jobs 64``) with and without ``--db``, interleaved, medians;
  target: at most 1.10 times the time without.
* ``record-files``: the same over 5,000 card files (no network: the checking is all the
  work, so recording weighs the most here); target 1.10.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from hashlib import sha256
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.support.card_origins import Origin, serve_origins  # noqa: E402
from tests.support.history_fleet import CARD, broken_card  # noqa: E402

from th_ext.history import (  # noqa: E402
    HistoryStore,
    category_of,
    problem_counts,
    signature_status,
)
from th_ext.validate import validate_bytes  # noqa: E402

BIN = Path(sys.executable).parent
TH_EXT = [str(BIN / "th-ext")] if (BIN / "th-ext").exists() else [sys.executable, "-m", "th_ext"]
DAY = 86_400.0
FIRST = 1_767_225_600.0  # 2026-01-01 UTC


def _documents() -> list[tuple[int, dict[str, Any]]]:
    """Real validate reports: a valid card, a broken extension, a card missing its name, and
    the error document of an unreachable one."""
    no_name = json.loads(CARD)
    del no_name["name"]
    reports = [
        validate_bytes(data, source="SOURCE").to_dict()
        for data in (CARD, broken_card(), json.dumps(no_name).encode())
    ]
    unreachable = {
        "command": "validate",
        "source": "SOURCE",
        "exit_code": 2,
        "error": {"code": "network-error", "message": "SOURCE: connection refused"},
    }
    return [(int(r["exit_code"]), r) for r in reports] + [(2, unreachable)]


def build_store(path: Path, sources: int, runs: int) -> dict[str, float]:
    """The store of ``sources`` x ``runs`` outcomes; seconds taken and bytes on disk."""
    started = time.perf_counter()
    HistoryStore.open(path).close()  # the schema, as th-ext makes it
    kinds = _documents()
    rng = random.Random(41)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous = OFF")
    db.execute("BEGIN")
    names = [f"https://agent{n:05d}.example/.well-known/agent-card.json" for n in range(sources)]
    db.executemany("INSERT INTO sources (id, name) VALUES (?, ?)", enumerate(names, 1))
    document_ids: dict[tuple[int, int], int] = {}
    rows_of_kind: list[tuple[int, str, str | None, str]] = []
    for code, template in kinds:
        rows_of_kind.append(
            (
                code,
                category_of(template, code),
                signature_status(template),
                json.dumps(problem_counts(template), sort_keys=True, separators=(",", ":")),
            )
        )
    texts = [json.dumps(t, sort_keys=True, separators=(",", ":")) for _, t in kinds]
    next_id = 1
    documents = []
    # each source: its usual kind, and for the flaky ones a second kind
    usual = [0 if n % 20 < 17 else 1 + n % 3 for n in range(sources)]
    flaky = {n for n in range(sources) if n % 20 == 19}
    for n, name in enumerate(names):
        for kind in {usual[n], 1 if n in flaky else usual[n], 0}:
            data = texts[kind].replace("SOURCE", name).encode()
            documents.append((next_id, sha256(data).digest(), zlib.compress(data, 6)))
            document_ids[(n, kind)] = next_id
            next_id += 1
    db.executemany("INSERT INTO documents (id, digest, body) VALUES (?, ?, ?)", documents)
    for run in range(1, runs + 1):
        outcomes = []
        seconds_of_run = []
        categories: dict[str, int] = {}
        for n in range(sources):
            kind = usual[n]
            if n in flaky and rng.random() < 0.3:
                kind = 0 if kind else 1
            code, category, signature, problems = rows_of_kind[kind]
            seconds = round(rng.lognormvariate(-2.5, 0.6), 3)
            seconds_of_run.append(seconds)
            categories[category] = categories.get(category, 0) + 1
            outcomes.append(
                (run, n + 1, code, seconds, category, signature, problems, document_ids[(n, kind)])
            )
        db.executemany(
            "INSERT INTO outcomes (run_id, source_id, exit_code, seconds, category, signature, "
            "problems, document_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            outcomes,
        )
        ordered = sorted(seconds_of_run)
        db.execute(
            "INSERT INTO runs (id, command, list, options, version, started, ended, status, "
            "exit_code, total, passed, categories, p50, p90, p99) VALUES "
            "(?, 'validate', '--from /srv/registry/agents.txt', '{}', 'bench', ?, ?, "
            "'complete', 2, ?, ?, ?, ?, ?, ?)",
            (
                run,
                FIRST + run * DAY,
                FIRST + run * DAY + 600,
                sources,
                categories.get("passed", 0),
                json.dumps(categories, sort_keys=True),
                ordered[len(ordered) // 2],
                ordered[int(len(ordered) * 0.9)],
                ordered[int(len(ordered) * 0.99)],
            ),
        )
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return {"seconds": time.perf_counter() - started, "bytes": float(path.stat().st_size)}


@dataclass(frozen=True)
class Timed:
    seconds: float
    cpu: float
    """The process's own CPU seconds (user and system): on a machine shared with other work,
    what the wall clock adds to it is the neighbours' doing, so the targets are judged on it
    (both are printed)."""


def timed(command: list[str], cwd: Path) -> Timed:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, capture_output=True, check=False)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)}: exit {done.returncode}: {done.stderr.decode()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Timed(seconds, cpu)


def median(runs: list[Timed]) -> Timed:
    return Timed(statistics.median(r.seconds for r in runs), statistics.median(r.cpu for r in runs))


def overhead(make_list: Callable[[Path], None], folder: Path, repeats: int) -> tuple[Timed, Timed]:
    """Medians of a fleet run without and with ``--db`` (interleaved), and their ratio."""
    folder.mkdir(parents=True, exist_ok=True)
    make_list(folder)
    plain, recorded = [], []
    base = [*TH_EXT, "validate", "--from", "list.txt", "-f", "jsonl", "-o", "out.jsonl", "-q"]
    for number in range(repeats):
        plain.append(timed([*base, "--jobs", "64"], folder))
        recorded.append(timed([*base, "--jobs", "64", "--db", f"h{number}.db"], folder))
    return median(plain), median(recorded)


def _compared(plain: Timed, recorded: Timed) -> str:
    return (
        f"without --db {plain.seconds:.2f} s ({plain.cpu:.2f} s CPU), with "
        f"{recorded.seconds:.2f} s ({recorded.cpu:.2f} s CPU): "
        f"{recorded.seconds / plain.seconds:.2f}x wall, {recorded.cpu / plain.cpu:.2f}x CPU "
        "(target 1.10)"
    )


def report(name: str, figure: str, ratio: float | None, misses: list[str]) -> None:
    judged = "" if ratio is None else f"  ratio {ratio:.2f} {'ok' if ratio <= 1 else 'MISSED'}"
    print(f"{name:14} {figure}{judged}", flush=True)
    if ratio is not None and ratio > 1:
        misses.append(name)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=365)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", action="append", choices=["store", "record-urls", "record-files"])
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args()
    only = set(args.only or ["store", "record-urls", "record-files"])
    misses: list[str] = []
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        if "store" in only:
            store = folder / "history.db"
            built = build_store(store, args.sources, args.runs)
            rows = args.sources * args.runs
            report(
                "store",
                f"{rows:,} outcomes written in {built['seconds']:.1f} s; "
                f"{built['bytes'] / 1e6:.0f} MB on disk ({built['bytes'] / rows:.0f} bytes each)",
                None,
                misses,
            )
            history = median([timed([*TH_EXT, "history", str(store)], folder) for _ in range(3)])
            report(
                "history",
                f"{history.seconds:.2f} s, {history.cpu:.2f} s CPU (target 2 s)",
                history.cpu / 2.0,
                misses,
            )
            page = folder / "board.html"
            board = median(
                [
                    timed([*TH_EXT, "history", str(store), "--html", str(page)], folder)
                    for _ in range(3)
                ]
            )
            size = page.stat().st_size
            report(
                "dashboard",
                f"{board.seconds:.2f} s, {board.cpu:.2f} s CPU (target 10 s)",
                board.cpu / 10.0,
                misses,
            )
            report("dashboard-size", f"{size / 1e6:.2f} MB (target 5 MB)", size / 5e6, misses)
        if "record-urls" in only:
            origins = [Origin(body=CARD, delay=0.02) for _ in range(16)]
            with serve_origins(origins):

                def urls(where: Path) -> None:
                    listed = [f"{origins[i % 16].url}/card{i}.json" for i in range(1000)]
                    (where / "list.txt").write_text("\n".join(listed) + "\n")

                plain, recorded = overhead(urls, folder / "urls", args.repeats)
            report(
                "record-urls",
                _compared(plain, recorded),
                recorded.cpu / plain.cpu / 1.10,
                misses,
            )
        if "record-files" in only:

            def files(where: Path) -> None:
                (where / "cards").mkdir(parents=True)
                card = where / "card.json"
                card.write_bytes(CARD)
                for number in range(5000):
                    os.link(card, where / "cards" / f"{number}.json")
                listed = [f"cards/{number}.json" for number in range(5000)]
                (where / "list.txt").write_text("\n".join(listed) + "\n")

            plain, recorded = overhead(files, folder / "files", args.repeats)
            report(
                "record-files",
                _compared(plain, recorded),
                recorded.cpu / plain.cpu / 1.10,
                misses,
            )
    return 1 if args.check and misses else 0


if __name__ == "__main__":
    raise SystemExit(main())
