"""Conform against the worst agent we could build under the default byte cap: memory and time.

Run it with the project's Python (``python benchmarks/bench_conform_hostile.py``; ``--check``
exits 1 when a target is missed). The agent is a plain HTTP server on 127.0.0.1, in a process
of its own. Its card registers N commands; every answer it gives (``SendMessage``, each event
of ``SendStreamingMessage``, ``GetTask``) is a task holding as many empty JSON objects as fit
under 5 MiB (1.7 million, the answer that took conform past a gigabyte), or, the worst conform
still parses, as many small objects as its limit of objects and arrays allows. Each ``th-ext
conform`` run is a process of its own, so its peak resident memory is its own.

Targets (printed as ratios, 1.0 = at the target): peak memory of one run under 300 MB; the
time per command exercised no more than doubling from the smallest to the largest run (time
grows linearly with the commands exercised); the default ``--max-commands`` exercises at most
that many commands of a 10,000-command card.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

MEMORY_TARGET_MB = 300.0
SLOPE_TARGET = 2.0
BYTE_CAP = 5 * 1024 * 1024
EXTENSION = "https://madarauchiha-314.github.io/tiny-harness/a2a/ext/commands/v1"

AGENT = r"""
import json, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

COMMANDS = int(sys.argv[1])
BLOAT = int(sys.argv[2])
EXTENSION = sys.argv[3]
ITEM = "{}" if sys.argv[4] == "empty" else '{"k": "' + "x" * 40 + '"}'
_TASK = ('{"id": "t1", "contextId": "c1", "status": {"state": "TASK_STATE_COMPLETED"},'
         ' "metadata": {"bloat": [' + ",".join([ITEM] * BLOAT) + ']}}')


class Agent(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def _send(self, status, body, kind="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        base = f"http://127.0.0.1:{self.server.server_address[1]}"
        card = {
            "name": "bloat", "description": "d", "version": "1",
            "supportedInterfaces": [
                {"url": base + "/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
            ],
            "capabilities": {"streaming": True, "extensions": [{
                "uri": EXTENSION, "required": False,
                "params": {"commands": [
                    {"name": f"c{i}", "description": "d"} for i in range(COMMANDS)
                ]},
            }]},
            "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
            "skills": [{"id": "s", "name": "s", "description": "d", "tags": ["t"]}],
        }
        self._send(200, json.dumps(card).encode())

    def do_POST(self):
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        answer = ('{"jsonrpc": "2.0", "id": ' + json.dumps(request.get("id"))
                  + ', "result": {"task": ' + _TASK + '}}')
        if request.get("method") == "SendStreamingMessage":
            self._send(200, b"data: " + answer.encode() + b"\n\n", "text/event-stream")
        elif request.get("method") == "GetTask":
            self._send(200, ('{"jsonrpc": "2.0", "id": ' + json.dumps(request.get("id"))
                             + ', "result": ' + _TASK + '}').encode())
        else:
            self._send(200, answer.encode())

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Agent)
print(server.server_address[1], flush=True)
server.serve_forever()
"""


def bloat_under_cap(kind: str) -> int:
    """How many items fit in one answer: empty objects under the byte cap (1.7 million, which
    conform refuses to parse), or objects holding 40 characters under conform's limit of
    objects and arrays (the largest answer it parses)."""
    from th_ext.dispatch._answer import MAX_CONTAINERS

    overhead = 400
    if kind == "empty":
        return (BYTE_CAP - overhead) // 3
    return min(MAX_CONTAINERS - 10, (BYTE_CAP - overhead) // 52)


@contextmanager
def hostile_agent(commands: int, kind: str) -> Iterator[str]:
    bloat = str(bloat_under_cap(kind))
    command = [sys.executable, "-c", AGENT, str(commands), bloat, EXTENSION, kind]
    agent = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert agent.stdout is not None
        yield f"http://127.0.0.1:{agent.stdout.readline().strip()}"
    finally:
        agent.terminate()
        agent.wait(timeout=20)


def run_conform(url: str, *args: str) -> tuple[float, float, int, str]:
    """Seconds, peak resident MB of the conform process, its exit code, and its notes."""
    code = (
        "import resource, sys, time\n"
        "from th_ext.cli import console_main\n"
        "start = time.perf_counter()\n"
        "try:\n"
        "    console_main()\n"
        "except SystemExit as exc:\n"
        "    code = exc.code\n"
        "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024\n"
        "sys.stderr.write(f'\\nBENCH {time.perf_counter() - start} {peak} {code}\\n')\n"
    )
    command = [sys.executable, "-c", code, "conform", url, "--timeout", "60", *args]
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=3600,
        check=False,
        env={**os.environ, "NO_COLOR": "1"},
    )
    line = next(x for x in done.stderr.splitlines() if x.startswith("BENCH "))
    _, seconds, peak, code_text = line.split()
    exit_code = int(code_text) if code_text.isdigit() else 2
    return float(seconds), float(peak), exit_code, done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--sizes", default="4,8,16", help="commands exercised, comma-separated")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    per_command: list[float] = []
    peaks: list[float] = []
    for kind in ("empty", "fat"):
        print(f"hostile agent ({kind}): every answer holds {bloat_under_cap(kind):,} objects")
        for size in sizes:
            with hostile_agent(size, kind) as url:
                seconds, peak, code, _ = run_conform(url, "--max-commands", str(size))
            if kind == "fat":
                per_command.append(seconds / size)
            peaks.append(peak)
            print(
                f"  {size:>5} commands: {seconds:7.1f} s ({seconds / size:5.2f} s/command), "
                f"peak {peak:6.0f} MB (ratio {peak / MEMORY_TARGET_MB:4.2f}), exit {code}"
            )
    slope = per_command[-1] / per_command[0]
    print(f"time per command, largest over smallest run: {slope:.2f} (target <= {SLOPE_TARGET})")
    print(f"peak memory ratio: {max(peaks) / MEMORY_TARGET_MB:.2f} (target <= 1.0)")
    missed = slope > SLOPE_TARGET or max(peaks) > MEMORY_TARGET_MB
    with hostile_agent(10_000, "fat") as url:
        seconds, peak, code, out = run_conform(url, "--format", "json")
    report = json.loads(out) if out.strip().startswith("{") else {}
    notes = [n for n in report.get("notes", []) if "--max-commands" in n]
    print(
        f"10,000-command card, default cap: {seconds:.1f} s, peak {peak:.0f} MB, exit {code}; "
        f"note: {notes[0][:100] + '…' if notes else 'none'}"
    )
    missed = missed or not notes
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
