"""How long a full ``th-ext conform`` run takes against the demo agent, and how many requests.

Run it with the project's Python (``python benchmarks/bench_conform.py``; ``--runs N`` to change
the number of runs, ``--check`` to exit 1 when the median is over the target). It measures the
library call a CI step or the CLI makes, against the demo agent served by uvicorn on 127.0.0.1
(the real path: sockets, HTTP, SSE), and the same run in-process through ``httpx.ASGITransport``
(what a pytest plugin would do). The target is a ratio: median seconds over 5 s.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGET_SECONDS = 5.0


@contextmanager
def served_demo() -> Iterator[str]:
    """``th-ext demo --serve`` in its own process, as an agent under test would be."""
    command = [sys.executable, "-m", "th_ext", "demo", "--serve", "--port", "0"]
    agent = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert agent.stdout is not None
        yield agent.stdout.readline().split(" at ")[1].split(";")[0]
    finally:
        agent.terminate()
        agent.wait(timeout=20)


def over_http(runs: int) -> tuple[list[float], int, int]:
    from th_ext.conform import run_conform

    times: list[float] = []
    requests = checks = 0
    with served_demo() as base_url:
        time.sleep(0.5)  # the first line comes as the port is bound; let uvicorn start
        for _ in range(runs):
            start = time.perf_counter()
            report = run_conform(base_url)
            times.append(time.perf_counter() - start)
            assert report.passed, report.failed()
            requests = report.requests
            checks = sum(len(r.checks) for r in report.requirements)
    return times, requests, checks


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
    with served_demo() as base_url:
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
    http_times, requests, checks = over_http(args.runs)
    asgi_times = in_process(args.runs)
    cli_times = cli_wall(max(1, args.runs // 2))
    median = statistics.median(http_times)
    rows = [
        ("conform over HTTP (library)", http_times),
        ("conform in-process (ASGITransport)", asgi_times),
        ("th-ext conform (whole process)", cli_times),
    ]
    print(f"{'case':38} {'median s':>9} {'min s':>7} {'ratio to 5 s':>13}")
    for name, times in rows:
        mid = statistics.median(times)
        print(f"{name:38} {mid:9.3f} {min(times):7.3f} {mid / TARGET_SECONDS:13.2f}")
    print(f"requests per run: {requests}; checks per run: {checks}")
    print(f"requests per second over HTTP: {requests / median:.0f}")
    ok = median <= TARGET_SECONDS
    print(f"target: median <= {TARGET_SECONDS:g} s over HTTP: {'met' if ok else 'MISSED'}")
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
