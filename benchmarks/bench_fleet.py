"""Fleet benchmarks: ``th-ext validate --from`` over many card URLs and many card files.

Run it with the project's Python (``python benchmarks/bench_fleet.py``; ``--only NAME`` to run
some cases, ``--check`` to exit 1 when a target is missed). Each case runs the real ``th-ext``
in a process of its own against loopback origins (one port each, on an event loop in this
process) or files, and prints its figures and the ratio to its target:

* ``urls``: 1,000 card URLs over 16 origins, each answering 50 ms late, ``--jobs 64``; target
  3 s, and never more than 4 requests at once on one origin. The baseline is the same list
  one source at a time (``--jobs 1``), measured on 200 URLs and scaled to 1,000.
* ``slow-origin``: the same 1,000 URLs, plus 4 to an origin that never answers and 4 to one
  that trickles a byte a second, ``--timeout 2``: the run costs no more than the fast run plus
  that timeout.
* ``files``: 100,000 card files (five real cards, hard-linked), ``--format jsonl``; targets at
  least 1,000 cards a second, a peak memory of at most 150 MB, the first line within a second;
  and the peak memory of 100 files beside it (flat memory: about the same).
* ``one-slow-origin``: 100 card URLs on one origin answering each request in 0.5 s,
  ``--jobs 64 --per-origin 4 --timeout 5``: no source times out (a source's time starts when
  it has its slots), and the run takes about 100 / 4 x 0.5 s = 12.5 s.
* ``silent-first``: 40 URLs on an origin that never answers, listed before 100 card files,
  ``--jobs 16 --timeout 5``: every file's line is out within 2 s (a source waiting for its
  origin holds no job), and the whole run takes about two timeouts (the origin's first
  failures end its remaining sources at once).
* ``ceiling``: card URLs from 16 origins that answer at once, ``--jobs 256 --per-origin 16``:
  how many sources a second one machine checks over the network.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.support.card_origins import Origin, serve_origins  # noqa: E402

BIN = Path(sys.executable).parent
TH_EXT = [str(BIN / "th-ext")] if (BIN / "th-ext").exists() else [sys.executable, "-m", "th_ext"]
CARD = (REPO / "extensions" / "commands" / "v1" / "examples" / "card.json").read_bytes()
REAL_CARDS = sorted((REPO / "tests" / "data" / "real_cards").glob("*.json"))[:5]


@dataclass
class Timed:
    seconds: float
    cpu: float
    """The process's own CPU seconds (user and system): on a machine shared with other work,
    the wall time includes theirs."""
    first_line: float | None
    peak_mb: float
    lines: int
    code: int
    times: list[float] = field(default_factory=list)
    """When each line of output came, from the start (kept only with ``keep``)."""
    texts: list[str] = field(default_factory=list)


def run(args: list[str], cwd: Path, *, keep: bool = False) -> Timed:
    """``th-ext args``: wall time, time to the first line of output, peak memory (RSS); with
    ``keep``, each line and when it came."""
    started = time.monotonic()
    process = subprocess.Popen(
        [*TH_EXT, *args], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert process.stdout is not None
    first: list[float] = []
    count = [0]
    times: list[float] = []
    texts: list[str] = []

    def drain() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            now = time.monotonic() - started
            if not first:
                first.append(now)
            count[0] += 1
            if keep:
                times.append(now)
                texts.append(line.decode("utf-8", "replace"))

    reader = threading.Thread(target=drain)
    reader.start()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.monotonic() - started
    reader.join()
    process.returncode = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    peak = usage.ru_maxrss / 1024
    return Timed(
        seconds, cpu, first[0] if first else None, peak, count[0], process.returncode, times, texts
    )


def write_list(folder: Path, sources: list[str], name: str = "list.txt") -> str:
    (folder / name).write_text("\n".join(sources) + "\n")
    return name


def case_urls(folder: Path) -> bool:
    origins = [Origin(delay=0.05, body=CARD) for _ in range(16)]
    with serve_origins(origins):
        urls = [f"{origins[i % 16].url}/card{i}.json" for i in range(1000)]
        listed = write_list(folder, urls)
        after = run(["validate", "--from", listed, "-f", "jsonl", "--jobs", "64"], folder)
        most = max(o.most_at_once for o in origins)
        for origin in origins:
            origin.most_at_once = 0
        before_list = write_list(folder, urls[:200], "before.txt")
        before = run(["validate", "--from", before_list, "-f", "jsonl", "--jobs", "1"], folder)
    scaled = before.seconds * 1000 / 200
    print(
        f"urls: 1,000 URLs, 16 origins 50 ms late, --jobs 64: {after.seconds:.2f} s "
        f"(CPU {after.cpu:.2f} s; {after.lines} lines, exit {after.code}), at most {most} "
        f"at once on one origin"
    )
    print(
        f"  before (one at a time, --jobs 1): {before.seconds:.2f} s for 200, "
        f"{scaled:.1f} s for 1,000 scaled; after/before {after.seconds / scaled:.3f} "
        f"({scaled / after.seconds:.0f}x faster)"
    )
    print(f"  target 3 s: ratio {after.seconds / 3:.2f}; per-origin cap 4: {most}")
    return after.seconds <= 3 and most <= 4 and after.lines == 1000


def case_slow_origin(folder: Path) -> bool:
    fast = [Origin(delay=0.05, body=CARD) for _ in range(16)]
    silent = Origin(mode="silent")
    trickle = Origin(mode="trickle", body=CARD)
    with serve_origins([*fast, silent, trickle]):
        urls = [f"{fast[i % 16].url}/card{i}.json" for i in range(1000)]
        args = ["validate", "-f", "jsonl", "--jobs", "64", "--timeout", "2", "--from"]
        alone = run([*args, write_list(folder, urls, "fast.txt")], folder)
        slow = [f"{silent.url}/s{i}.json" for i in range(4)]
        slow += [f"{trickle.url}/t{i}.json" for i in range(4)]
        mixed = run([*args, write_list(folder, slow + urls, "mixed.txt")], folder)
    extra = mixed.seconds - alone.seconds
    print(
        f"slow-origin: 1,000 fast URLs alone {alone.seconds:.2f} s; with a silent and a "
        f"trickling origin first (--timeout 2) {mixed.seconds:.2f} s: +{extra:.2f} s "
        f"(target at most +2 s: ratio {extra / 2:.2f}; exit {mixed.code}, {mixed.lines} lines)"
    )
    return extra <= 2.0 and mixed.lines == 1008


def case_files(folder: Path) -> bool:
    cards = folder / "cards"
    cards.mkdir()
    paths = []
    for i in range(100_000):
        path = cards / f"{i:06d}.json"
        os.link(REAL_CARDS[i % len(REAL_CARDS)], path)
        paths.append(f"cards/{path.name}")
    small = run(
        ["validate", "--from", write_list(folder, paths[:100], "small.txt"), "-f", "jsonl"], folder
    )
    big = run(["validate", "--from", write_list(folder, paths), "-f", "jsonl"], folder)
    rate = big.lines / big.seconds
    cpu_rate = big.lines / big.cpu
    print(
        f"files: 100,000 card files: {big.seconds:.1f} s, {rate:,.0f} cards/s; CPU "
        f"{big.cpu:.1f} s, {cpu_rate:,.0f} cards per CPU second "
        f"(target 1,000: ratio {1000 / rate:.2f}), peak {big.peak_mb:.0f} MB (target 150: "
        f"ratio {big.peak_mb / 150:.2f}), first line after {big.first_line or 0:.2f} s "
        f"(target 1 s)"
    )
    print(
        f"  100 card files: peak {small.peak_mb:.0f} MB; 100,000/100 peak ratio "
        f"{big.peak_mb / small.peak_mb:.2f}"
    )
    return (
        rate >= 1000
        and big.peak_mb <= 150
        and (big.first_line or 99) <= 1.0
        and big.lines == 100_000
    )


def start_up(folder: Path) -> float:
    """The wall time of ``th-ext validate`` on one card file: what every run pays before its
    first source (on a loaded machine, a good part of a second)."""
    (folder / "one.json").write_bytes(CARD)
    return min(run(["validate", "one.json", "-f", "jsonl"], folder).seconds for _ in range(3))


def case_one_slow_origin(folder: Path) -> bool:
    origin = Origin(delay=0.5, body=CARD)
    with serve_origins([origin]):
        urls = [f"{origin.url}/card{i}.json" for i in range(100)]
        args = ["validate", "-f", "jsonl", "--jobs", "64", "--per-origin", "4"]
        timed = run(
            [*args, "--timeout", "5", "--from", write_list(folder, urls)], folder, keep=True
        )
    timeouts = sum("no complete answer within" in line for line in timed.texts)
    ideal = 100 / 4 * 0.5
    own = timed.seconds - start_up(folder)
    print(
        f"one-slow-origin: 100 URLs on one origin answering in 0.5 s, --jobs 64 --per-origin 4 "
        f"--timeout 5: {timed.seconds:.2f} s, {own:.2f} s past start-up (ideal {ideal:.1f} s: "
        f"ratio {own / ideal:.2f}), {timeouts} timeouts (target 0), at most "
        f"{origin.most_at_once} at once; exit {timed.code}, {timed.lines} lines"
    )
    return timeouts == 0 and timed.lines == 100 and own <= ideal * 1.3


def case_silent_first(folder: Path) -> bool:
    silent = Origin(mode="silent")
    cards = folder / "cards"
    cards.mkdir()
    files = []
    for i in range(100):
        path = cards / f"{i:03d}.json"
        path.write_bytes(CARD)
        files.append(f"cards/{path.name}")
    with serve_origins([silent]):
        urls = [f"{silent.url}/s{i}.json" for i in range(40)]
        listed = write_list(folder, urls + files)
        args = ["validate", "-f", "jsonl", "--jobs", "16", "--timeout", "5", "--from", listed]
        timed = run(args, folder, keep=True)
    file_times = [at for at, text in zip(timed.times, timed.texts, strict=True) if "cards/" in text]
    last_file = max(file_times) if file_times else float("inf")
    begun = start_up(folder)
    took = timed.seconds - begun
    print(
        f"silent-first: 40 URLs on a silent origin before 100 card files, --jobs 16 "
        f"--timeout 5 (start-up {begun:.2f} s): last file line after {last_file:.2f} s (target "
        f"2 s: ratio "
        f"{last_file / 2:.2f}), whole run {timed.seconds:.2f} s, {took:.2f} s past start-up "
        f"(target about two timeouts, 10 s: ratio {took / 10:.2f}); exit {timed.code}, "
        f"{timed.lines} lines"
    )
    return last_file <= 2 and took <= 11 and timed.lines == 140


def case_ceiling(folder: Path) -> bool:
    origins = [Origin(delay=0.0, body=CARD) for _ in range(16)]
    with serve_origins(origins):
        urls = [f"{origins[i % 16].url}/card{i}.json" for i in range(4000)]
        timed = run(
            [
                "validate",
                "--from",
                write_list(folder, urls),
                "-f",
                "jsonl",
                "--jobs",
                "256",
                "--per-origin",
                "16",
            ],
            folder,
        )
    print(
        f"ceiling: 4,000 URLs from 16 origins answering at once, --jobs 256 --per-origin 16: "
        f"{timed.seconds:.2f} s, {timed.lines / timed.seconds:,.0f} sources/s; CPU "
        f"{timed.cpu:.2f} s, {timed.lines / timed.cpu:,.0f} sources per CPU second "
        f"(the loopback servers share the two cores)"
    )
    return timed.lines == 4000


CASES: dict[str, Callable[[Path], bool]] = {
    "urls": case_urls,
    "slow-origin": case_slow_origin,
    "files": case_files,
    "one-slow-origin": case_one_slow_origin,
    "silent-first": case_silent_first,
    "ceiling": case_ceiling,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", choices=sorted(CASES))
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    options = parser.parse_args()
    resource.setrlimit(resource.RLIMIT_NOFILE, (4096, 4096))
    missed = []
    for name, case in CASES.items():
        if options.only and name not in options.only:
            continue
        with tempfile.TemporaryDirectory() as folder:
            if not case(Path(folder)):
                missed.append(name)
    if missed:
        print(f"targets missed: {', '.join(missed)}")
    return 1 if options.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
