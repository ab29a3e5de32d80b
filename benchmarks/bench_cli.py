"""Command-line benchmarks: medians of repeated runs, ratios against a baseline, peak memory.

Run it with the project's Python (``python benchmarks/bench_cli.py``; ``--runs N`` to change
the number of runs, taken in turn with the baseline's; ``--only NAME`` to run some cases,
``--check`` to exit 1 when a ratio is over its limit, ``--instructions`` to count instructions
too). Every case is an entry of ``CASES``: a command of ours, a baseline command, and the
ratio ours/baseline must stay under. A new case is one more ``Case(...)`` in the list;
its commands are built from the ``Workspace`` (generated cards, a loopback server).

The start-up goal is the tool a user would otherwise run: ``th-ext validate`` on a small card
is no slower than check-jsonschema 0.39.0 checking that card's params (ratio 1.0). What a bare
typer app and a bare click app cost (the frameworks of the two tools) is printed as
information, not judged.

``--th-ext PATH`` measures another th-ext. ``make bench`` gives the one it installs alone in
``build/bench-runtime``, with th-ext's dependencies and nothing else, as ``pip install th-ext``
leaves a user: in the development environment, click (there for check-jsonschema and MkDocs)
makes ``import httpx`` load httpx's own command line too, rich and pygments with it.

``--pythonpath DIR`` measures our side of each case twice, interleaved, as installed and with
``DIR`` first on ``PYTHONPATH``: with another release of a dependency installed there
(``pip install --no-deps --target DIR typer==0.29.3``), the figures say what that release
costs or saves.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
EXAMPLE_CARD = REPO / "extensions" / "commands" / "v1" / "examples" / "card.json"
SCHEMA = REPO / "extensions" / "commands" / "v1" / "schema.json"
BIG_CARD_BYTES = 50 * 1024 * 1024


#: What the two frameworks cost before a command does anything (the same one command in each):
#: th-ext is a typer app, check-jsonschema a click app, and the difference between these two
#: is part of every start-up ratio below.
BARE_CLICK_APP = """
import click
@click.command()
@click.argument("source")
@click.option("--strict", is_flag=True)
def main(source, strict):
    pass
main()
"""

BARE_TYPER_APP = """
import typer
app = typer.Typer()
@app.command()
def main(source: str, strict: bool = False) -> None:
    pass
app()
"""


@dataclass
class Workspace:
    """Files and a loopback server the cases' commands refer to."""

    root: Path
    program: Path = BIN / "th-ext"  # the th-ext measured (--th-ext)
    server_url: str = ""
    files: dict[str, Path] = field(default_factory=dict)

    def file(self, name: str) -> str:
        return str(self.files[name])

    def th_ext(self, *args: str) -> list[str]:
        return [str(self.program), *args]


@dataclass
class Case:
    """One measurement: ``ours`` against ``baseline``; the median ratio must stay <= ``limit``.

    With ``memory`` the peak resident size of both is compared as well, with the same limit.
    """

    name: str
    ours: Callable[[Workspace], list[str]]
    baseline: Callable[[Workspace], list[str]]
    baseline_name: str
    limit: float
    memory: bool = False


@dataclass
class Measured:
    seconds: float
    peak_mb: float
    fastest: float = 0.0


def check_jsonschema_small_params(ws: Workspace) -> list[str]:
    """The baseline for a small card: check-jsonschema validating just that card's params."""
    return [str(BIN / "check-jsonschema"), "--schemafile", str(SCHEMA), ws.file("small-params")]


CASES: list[Case] = [
    Case(
        name="validate a small card",
        ours=lambda ws: ws.th_ext("validate", ws.file("small")),
        baseline=check_jsonschema_small_params,
        baseline_name="check-jsonschema 0.39.0 on its params",
        limit=1.0,
    ),
    Case(
        name="validate a card with 10,000 commands",
        ours=lambda ws: ws.th_ext("validate", ws.file("10k")),
        baseline=lambda ws: ws.th_ext("validate", ws.file("small")),
        baseline_name="th-ext validate on the small card",
        limit=4.0,
    ),
    Case(
        name="validate 10,000 commands, each with a problem placed on its line",
        ours=lambda ws: ws.th_ext("validate", ws.file("10k-broken")),
        baseline=lambda ws: ws.th_ext("validate", ws.file("small")),
        baseline_name="th-ext validate on the small card",
        limit=4.0,
    ),
    Case(
        name="validate a small card from loopback",
        ours=lambda ws: ws.th_ext("validate", ws.server_url + "/small.json"),
        baseline=check_jsonschema_small_params,
        baseline_name="check-jsonschema 0.39.0 on its params",
        limit=1.5,
    ),
    Case(
        name="validate a small card from loopback, against the same card as a file",
        ours=lambda ws: ws.th_ext("validate", ws.server_url + "/small.json"),
        baseline=lambda ws: ws.th_ext("validate", ws.file("small")),
        baseline_name="th-ext validate on the small card's file",
        limit=4.0,
    ),
    Case(
        name="validate a 50 MB card from loopback",
        ours=lambda ws: ws.th_ext(
            "validate", ws.server_url, "--max-bytes", str(2 * BIG_CARD_BYTES)
        ),
        baseline=lambda ws: [str(BIN / "a2a-lint"), ws.server_url],
        baseline_name="a2a-lint 0.1.1 on the same URL",
        limit=1.0,
        memory=True,
    ),
    Case(
        name="dispatch dry run on a small card",
        ours=lambda ws: ws.th_ext("dispatch", ws.file("small"), "/model fast"),
        baseline=check_jsonschema_small_params,
        baseline_name="check-jsonschema 0.39.0 on its params",
        limit=1.0,
    ),
    Case(
        name="validate a small card with --keys (no signature on it)",
        ours=lambda ws: ws.th_ext("validate", ws.file("small"), "--keys", ws.file("jwks")),
        baseline=lambda ws: ws.th_ext("validate", ws.file("small")),
        baseline_name="th-ext validate on the small card",
        limit=1.1,
    ),
    Case(
        name="validate a small signed card with --keys",
        ours=lambda ws: ws.th_ext("validate", ws.file("signed"), "--keys", ws.file("jwks")),
        baseline=lambda ws: ws.th_ext("validate", ws.file("small")),
        baseline_name="th-ext validate on the small card",
        # PyJWT's algorithms import cryptography (x509 included): the cost of checking a
        # signature, paid only by a signed card checked with keys (the case above pays none).
        limit=2.5,
    ),
]


def card_with_commands(count: int) -> dict[str, Any]:
    card: dict[str, Any] = json.loads(EXAMPLE_CARD.read_text(encoding="utf-8"))
    card["capabilities"]["extensions"][0]["params"]["commands"] = [command(i) for i in range(count)]
    return card


def command(index: int) -> dict[str, str]:
    return {
        "name": f"cmd-{index}",
        "description": f"Run harness command {index} on the task",
        "argument_hint": "[<target>]",
    }


def write_big_card(path: Path, size: int) -> None:
    """A card of about ``size`` bytes, written a slice at a time.

    Streaming keeps this process small: a child's peak RSS, as ``wait4`` reports it, starts
    from its parent's size at ``fork``, so a large parent would inflate both measurements.
    """
    head, _, tail = json.dumps(card_with_commands(1)).partition(json.dumps(command(0)))
    with path.open("w", encoding="utf-8") as out:
        out.write(head)
        written, index = len(head) + len(tail), 0
        while written < size:
            piece = ", ".join(json.dumps(command(i)) for i in range(index, index + 10_000))
            out.write((", " if index else "") + piece)
            written += len(piece) + 2
            index += 10_000
        out.write(tail)


def prepare(root: Path, program: Path) -> Workspace:
    ws = Workspace(root, program)
    small = json.loads(EXAMPLE_CARD.read_text(encoding="utf-8"))
    ws.files["small"] = root / "small.json"
    ws.files["small"].write_text(json.dumps(small, indent=2), encoding="utf-8")
    ws.files["small-params"] = root / "small-params.json"
    params = small["capabilities"]["extensions"][0]["params"]
    ws.files["small-params"].write_text(json.dumps(params), encoding="utf-8")
    ws.files["10k"] = root / "10k.json"
    ws.files["10k"].write_text(json.dumps(card_with_commands(10_000)), encoding="utf-8")
    broken = card_with_commands(10_000)
    for entry in broken["capabilities"]["extensions"][0]["params"]["commands"]:
        entry["name"] = entry["name"].capitalize()
    ws.files["10k-broken"] = root / "10k-broken.json"
    ws.files["10k-broken"].write_text(json.dumps(broken, indent=2), encoding="utf-8")
    write_signed_card(ws, small)
    served = root / "site" / ".well-known"
    served.mkdir(parents=True)
    ws.files["50mb"] = served / "agent-card.json"
    write_big_card(ws.files["50mb"], BIG_CARD_BYTES)
    shutil.copy(ws.files["small"], root / "site" / "small.json")
    return ws


def write_signed_card(ws: Workspace, card: dict[str, Any]) -> None:
    """The small card signed with a P-256 key made here, and the JWKS that verifies it."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from jwt.algorithms import ECAlgorithm

    from th_ext.signatures import sign_card

    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    public = json.loads(ECAlgorithm.to_jwk(key.public_key()))
    ws.files["jwks"] = ws.root / "jwks.json"
    ws.files["jwks"].write_text(json.dumps({"keys": [{**public, "kid": "bench"}]}))
    ws.files["signed"] = ws.root / "signed.json"
    text = json.dumps(card, indent=2).encode()
    ws.files["signed"].write_bytes(sign_card(text, pem, kid="bench").data)


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def serve(ws: Workspace) -> ThreadingHTTPServer:
    handler = partial(_QuietHandler, directory=str(ws.root / "site"))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    ws.server_url = f"http://127.0.0.1:{server.server_address[1]}"
    return server


def run_once(command: list[str]) -> Measured:
    """Wall-clock time and peak RSS (from ``wait4``) of one run, output discarded."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = 0  # reaped by wait4
    return Measured(seconds, usage.ru_maxrss / 1024)


def median_of(command: list[str], runs: int) -> Measured:
    run_once(command)  # warm the file cache and the .pyc files
    return summarize([run_once(command) for _ in range(runs)])


def summarize(results: list[Measured]) -> Measured:
    """The median time and peak memory of some runs, and the fastest time."""
    return Measured(
        statistics.median(r.seconds for r in results),
        statistics.median(r.peak_mb for r in results),
        min(r.seconds for r in results),
    )


def interleaved(ours: list[str], theirs: list[str], runs: int) -> tuple[Measured, Measured]:
    """Both commands, run in turn ``runs`` times each, so that a busy machine (other work on
    the same cores) slows both alike instead of whichever happened to run during it."""
    run_once(ours)  # warm the file cache and the .pyc files
    run_once(theirs)
    mine: list[Measured] = []
    other: list[Measured] = []
    for _ in range(runs):
        mine.append(run_once(ours))
        other.append(run_once(theirs))
    return summarize(mine), summarize(other)


def instructions(command: list[str]) -> int | None:
    """Instructions one run executes, counted by valgrind (None without it).

    Unlike time, the count does not depend on what else the machine is doing, so it tells a
    small start-up change from noise on shared cores.
    """
    if shutil.which("valgrind") is None:
        return None
    counter = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
        "--trace-children=yes",  # through env(1), which a --pythonpath run starts with
    ]
    done = subprocess.run(
        [*counter, *command],
        capture_output=True,
        text=True,
        check=False,
    )
    match = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    return int(match.group(1).replace(",", "")) if match else None


def import_breakdown(command: list[str], top: int = 12) -> list[tuple[str, float]]:
    """The slowest top-level imports of ``command`` (a ``th-ext`` one), from ``-X importtime``."""
    module_command = [sys.executable, "-X", "importtime", "-m", "th_ext", *command[1:]]
    done = subprocess.run(module_command, capture_output=True, text=True, check=False)
    rows = []
    for line in done.stderr.splitlines():
        match = re.match(r"import time:\s+(\d+) \|\s+(\d+) \| (\s*)(\S+)", line)
        if match and len(match.group(3)) <= 2:
            rows.append((match.group(4), int(match.group(2)) / 1000))
    return sorted(rows, key=lambda row: -row[1])[:top]


def with_pythonpath(command: list[str], directory: str) -> list[str]:
    return ["env", f"PYTHONPATH={directory}", *command]


def compare_pythonpath(command: list[str], directory: str, args: argparse.Namespace) -> None:
    """``command`` as installed against the same with ``directory`` first on ``PYTHONPATH``,
    in turn (both through ``env``, so that they differ only in the path)."""
    installed = with_pythonpath(command, "")
    other = with_pythonpath(command, directory)
    mine, theirs = interleaved(installed, other, args.runs)
    print(
        f"  as installed {mine.seconds * 1000:6.0f} ms, with {directory} first "
        f"{theirs.seconds * 1000:6.0f} ms: ratio {mine.seconds / theirs.seconds:.2f} "
        f"(of the fastest runs {mine.fastest / theirs.fastest:.2f})"
    )
    if args.instructions:
        counted = instructions(installed), instructions(other)
        if None not in counted:
            first, second = counted
            assert first is not None and second is not None
            print(
                f"  instructions as installed {first / 1e6:.0f} M, with {directory} first "
                f"{second / 1e6:.0f} M: ratio {first / second:.2f}"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per command (median)")
    parser.add_argument("--only", action="append", default=[], help="run cases whose name has this")
    parser.add_argument("--check", action="store_true", help="exit 1 if a ratio is over its limit")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="also count the instructions of the start-up cases (valgrind; slow)",
    )
    parser.add_argument(
        "--pythonpath",
        metavar="DIR",
        help="also run our side of each case with DIR first on PYTHONPATH, interleaved",
    )
    parser.add_argument(
        "--th-ext",
        metavar="PATH",
        type=Path,
        default=BIN / "th-ext",
        help="the th-ext to measure (make bench: one installed alone, as a user installs it)",
    )
    args = parser.parse_args()
    missing = [tool for tool in ("check-jsonschema", "a2a-lint") if not (BIN / tool).exists()]
    if missing:
        print(f"missing tools in {BIN}: {', '.join(missing)}", file=sys.stderr)
        return 2
    if not args.th_ext.exists():
        print(f"no th-ext at {args.th_ext}", file=sys.stderr)
        return 2
    print(f"th-ext measured: {args.th_ext}")
    cases = [c for c in CASES if not args.only or any(o in c.name for o in args.only)]
    # An installed wheel has its bytecode compiled by pip; an editable checkout may not (and
    # PYTHONDONTWRITEBYTECODE keeps it so), which would time the compiler, not th-ext.
    compileall.compile_dir(REPO / "cli" / "th_ext", quiet=1)
    over = []
    with tempfile.TemporaryDirectory(prefix="th-ext-bench-") as tmp:
        ws = prepare(Path(tmp), args.th_ext)
        server = serve(ws)
        try:
            floor = median_of([sys.executable, "-c", "pass"], args.runs)
            print(f"python -c pass (the floor): {floor.seconds * 1000:.0f} ms, {args.runs} runs")
            for framework, app in (("typer", BARE_TYPER_APP), ("click", BARE_CLICK_APP)):
                bare = [sys.executable, "-c", app, "x"]
                taken = median_of(bare, args.runs)
                bare_count = instructions(bare) if args.instructions else None
                print(
                    f"a bare one-command {framework} app: {taken.seconds * 1000:.0f} ms "
                    f"({taken.seconds / floor.seconds:.1f}x the floor)"
                    + (f", {bare_count / 1e6:,.0f} M instructions" if bare_count else "")
                )
            for case in cases:
                ours, theirs = interleaved(case.ours(ws), case.baseline(ws), args.runs)
                ratio = ours.seconds / theirs.seconds
                print(f"\n{case.name}")
                if case.memory:
                    print(f"  card: {Path(ws.file('50mb')).stat().st_size / 1e6:.1f} MB")
                print(f"  ours      {ours.seconds * 1000:8.0f} ms  {ours.peak_mb:6.0f} MB")
                print(
                    f"  baseline  {theirs.seconds * 1000:8.0f} ms  {theirs.peak_mb:6.0f} MB"
                    f"  ({case.baseline_name})"
                )
                print(
                    f"  time ratio {ratio:.2f} (limit {case.limit}; of the fastest runs "
                    f"{ours.fastest / theirs.fastest:.2f}), "
                    f"{ours.seconds / floor.seconds:.1f}x the floor"
                )
                if args.pythonpath:
                    compare_pythonpath(case.ours(ws), args.pythonpath, args)
                if args.instructions and not case.memory:
                    counted = instructions(case.ours(ws)), instructions(case.baseline(ws))
                    if None not in counted:
                        mine, other = counted
                        assert mine is not None and other is not None
                        print(
                            f"  instructions {mine / 1e6:.0f} M against {other / 1e6:.0f} M: "
                            f"ratio {mine / other:.2f} (limit {case.limit})"
                        )
                        if mine / other > case.limit:
                            over.append(
                                f"{case.name}: instruction ratio {mine / other:.2f} > {case.limit}"
                            )
                if ratio > case.limit:
                    over.append(f"{case.name}: time ratio {ratio:.2f} > {case.limit}")
                if case.memory:
                    memory_ratio = ours.peak_mb / theirs.peak_mb
                    print(f"  memory ratio {memory_ratio:.2f} (limit {case.limit})")
                    if memory_ratio > case.limit:
                        over.append(f"{case.name}: memory ratio {memory_ratio:.2f} > {case.limit}")
            if cases and cases[0] is CASES[0]:
                print("\nslowest imports of `th-ext validate <small card>` (cumulative ms):")
                for name, ms in import_breakdown(CASES[0].ours(ws)):
                    print(f"  {ms:7.1f}  {name}")
        finally:
            server.shutdown()
            server.server_close()
    if over:
        print("\nover the limit:\n  " + "\n  ".join(over))
    return 1 if over and args.check else 0


if __name__ == "__main__":
    os.environ.setdefault("NO_COLOR", "1")
    sys.exit(main())
