"""How long a full ``th-ext conform`` run takes against the demo agent, and how many requests.

Run it with the project's Python (``python benchmarks/bench_conform.py``; ``--runs N`` to change
the number of runs, ``--check`` to exit 1 when the median is over the target). It measures the
library call a CI step or the CLI makes, against the demo agent served by uvicorn on 127.0.0.1
(the real path: sockets, HTTP, SSE), and the same run in-process through ``httpx.ASGITransport``
(what a pytest plugin would do). The target is a ratio: median seconds over 3 s. A run that
records every exchange as a HAR file (``--har``), file written, is measured too, against the
same agent in the same process: its time over the plain run's, at most 1.25.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGET_SECONDS = 3.0
HAR_TARGET = 1.25
"""A run recording a HAR takes at most this many times a plain run's median."""


@contextmanager
def served_demo() -> Iterator[tuple[str, int]]:
    """``th-ext demo --serve`` in its own process, as an agent under test would be; yields its
    base URL and its process id."""
    command = [sys.executable, "-m", "th_ext", "demo", "--serve", "--port", "0"]
    agent = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert agent.stdout is not None
        first = agent.stdout.readline()
        # uvicorn's access log goes on to standard output: read it away, or a full pipe blocks
        # the agent after a few hundred requests.
        threading.Thread(target=agent.stdout.read, daemon=True).start()
        yield first.split(" at ")[1].split(";")[0], agent.pid
    finally:
        agent.terminate()
        agent.wait(timeout=20)


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process has used so far, from ``/proc`` (0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def over_http(runs: int) -> tuple[list[float], list[float], int, int]:
    """Wall-clock seconds of each run, CPU seconds of each (conform's and the agent's: what the
    run costs whatever else the machine is doing), requests and checks per run."""
    from th_ext.conform import run_conform

    times: list[float] = []
    cpu: list[float] = []
    requests = checks = 0
    with served_demo() as (base_url, pid):
        time.sleep(0.5)  # the first line comes as the port is bound; let uvicorn start
        for _ in range(runs):
            start, used = time.perf_counter(), time.process_time() + cpu_seconds(pid)
            report = run_conform(base_url)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() + cpu_seconds(pid) - used)
            assert report.passed, report.failed()
            requests = report.requests
            checks = sum(len(r.checks) for r in report.requirements)
    return times, cpu, requests, checks


def har_against_plain(runs: int, folder: Path) -> tuple[list[float], list[float], int]:
    """Wall-clock seconds of plain runs and of runs recording a HAR (file written), taken in
    turn against one agent, and the HAR's size in bytes."""
    from th_ext.conform import run_conform
    from th_ext.net import har_recording

    plain: list[float] = []
    recorded: list[float] = []
    har = folder / "run.har"
    with served_demo() as (base_url, _):
        time.sleep(0.5)
        run_conform(base_url)  # warm: connections, imports
        for _ in range(runs):
            start = time.perf_counter()
            run_conform(base_url)
            plain.append(time.perf_counter() - start)
            start = time.perf_counter()
            with har_recording(har) as recorder:
                report = run_conform(base_url, recorder=recorder)
            recorded.append(time.perf_counter() - start)
            assert report.passed, report.failed()
    return plain, recorded, har.stat().st_size


def in_process(runs: int) -> list[float]:
    import httpx

    from th_ext.conform import run_conform
    from th_ext.demo import build_demo_app

    times: list[float] = []
    for _ in range(runs):
        app = build_demo_app("http://agent.test")
        start = time.perf_counter()
        report = run_conform("http://agent.test", transport=httpx.ASGITransport(app=app))
        times.append(time.perf_counter() - start)
        assert report.passed, report.failed()
    return times


def cli_wall(runs: int) -> list[float]:
    """The whole ``th-ext conform`` process (start-up included) against a served demo."""
    times: list[float] = []
    with served_demo() as (base_url, _):
        time.sleep(0.5)
        for _ in range(runs):
            start = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-m", "th_ext", "conform", base_url, "-f", "json"],
                capture_output=True,
                check=False,
                cwd=REPO,
            )
            times.append(time.perf_counter() - start)
            assert done.returncode == 0, done.stderr
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--check", action="store_true", help="exit 1 over the target")
    args = parser.parse_args()
    http_times, http_cpu, requests, checks = over_http(args.runs)
    asgi_times = in_process(args.runs)
    cli_times = cli_wall(max(1, args.runs // 2))
    with tempfile.TemporaryDirectory() as scratch:
        plain, recorded, har_bytes = har_against_plain(args.runs, Path(scratch))
    median = statistics.median(http_times)
    rows = [
        ("conform over HTTP (library)", http_times),
        ("  CPU, conform and agent together", http_cpu),
        ("conform in-process (ASGITransport)", asgi_times),
        ("th-ext conform (whole process)", cli_times),
        ("conform over HTTP, plain (paired)", plain),
        ("conform over HTTP, recording a HAR", recorded),
    ]
    print(f"{'case':38} {'median s':>9} {'min s':>7} {'ratio to 3 s':>13}")
    for name, times in rows:
        mid = statistics.median(times)
        print(f"{name:38} {mid:9.3f} {min(times):7.3f} {mid / TARGET_SECONDS:13.2f}")
    print(f"requests per run: {requests}; checks per run: {checks}")
    print(f"requests per second over HTTP: {requests / median:.0f}")
    print(f"load average (1 min) at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    har_ratio = statistics.median(recorded) / statistics.median(plain)
    print(f"HAR: {har_bytes} bytes; a recording run over a plain one: {har_ratio:.2f}")
    ok = median <= TARGET_SECONDS
    har_ok = har_ratio <= HAR_TARGET
    print(f"target: median <= {TARGET_SECONDS:g} s over HTTP: {'met' if ok else 'MISSED'}")
    print(
        f"target: recording a HAR <= {HAR_TARGET:g} x a plain run: {'met' if har_ok else 'MISSED'}"
    )
    return 0 if (ok and har_ok) or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
