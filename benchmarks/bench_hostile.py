"""Hostile cards under the default byte cap: peak memory and time of ``th-ext validate``.

Each case is the worst card of one kind that fits under the default 5 MiB cap: hundreds of
thousands of commands that are not objects, bad names, duplicates, unknown fields, wrong types,
duplicate keys, non-finite numbers, nesting as deep as allowed. Every case runs
``th-ext validate`` in a child process, and the child's peak RSS (``os.wait4``) and wall time
are printed against the targets: under ``--max-mb`` (300) MB and ``--max-seconds`` (2) s.

Run ``python benchmarks/bench_hostile.py`` (``--only NAME`` for some cases, ``--format json``
to time the JSON report instead of the text one, ``--check`` to exit 1 when over a target).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
EXAMPLE_CARD = REPO / "extensions" / "commands" / "v1" / "examples" / "card.json"
COMMANDS_URI = "https://madarauchiha-314.github.io/tiny-harness/a2a/ext/commands/v1"
CAP = 5 * 1024 * 1024
MAX_DEPTH_ALLOWED = 64


def _card() -> dict[str, Any]:
    card: dict[str, Any] = json.loads(EXAMPLE_CARD.read_text(encoding="utf-8"))
    return card


def _with_commands(item: str) -> bytes:
    """The example card with ``params.commands`` filled with ``item`` up to the cap."""
    card = _card()
    card["capabilities"]["extensions"] = [{"uri": COMMANDS_URI, "params": {"commands": []}}]
    text = json.dumps(card)
    head, tail = text.split('"commands": []', 1)
    room = CAP - len(head) - len(tail) - 64
    count = room // (len(item) + 1)
    return (head + '"commands": [' + ",".join([item] * count) + "]" + tail).encode()


def _fill(key: str, item: str) -> bytes:
    """The example card with its top-level ``key`` set to a list of ``item`` up to the cap."""
    card = _card()
    card[key] = []
    text = json.dumps(card)
    head, tail = text.split(f'"{key}": []', 1)
    count = (CAP - len(head) - len(tail) - 64) // (len(item) + 1)
    return (head + f'"{key}": [' + ",".join([item] * count) + "]" + tail).encode()


def _unknown_top_level() -> bytes:
    card = _card()
    text = json.dumps(card)
    count = (CAP - len(text) - 64) // 12
    extra = ",".join(f'"k{i}":0' for i in range(count))
    data = text[:-1] + "," + extra + "}"
    return data.encode()[: CAP - 8].rsplit(b",", 1)[0] + b"}"


def _duplicate_keys() -> bytes:
    text = json.dumps(_card())
    count = (CAP - len(text) - 64) // 8
    return (text[:-1] + "," + ",".join(['"dup":0'] * count) + "}").encode()


def _extra_array(item: str, count: int | None = None) -> bytes:
    """The example card with one more top-level member, an array of ``count`` copies of
    ``item`` (as many as fit under the cap by default)."""
    text = json.dumps(_card())
    room = (CAP - len(text) - 64) // (len(item) + 1)
    items = ",".join([item] * min(room, count or room))
    return (text[:-1] + ',"objects":[' + items + "]}").encode()


def _one_duplicate_key_last() -> bytes:
    """The most commands a valid card holds, the last one with a key twice: the duplicate is
    found at the end of the document's walk."""
    data = _valid_commands()
    head, _, tail = data.rpartition(b'"description":""}')
    return head + b'"description":"","name":"z"}' + tail


def _deep() -> bytes:
    one = "[" * (MAX_DEPTH_ALLOWED - 4) + "1" + "]" * (MAX_DEPTH_ALLOWED - 4)
    return _fill("skills", one)


def _valid_commands() -> bytes:
    """The most commands a valid card can hold under the cap: distinct names, no fault."""
    card = _card()
    card["capabilities"]["extensions"] = [{"uri": COMMANDS_URI, "params": {"commands": []}}]
    head, tail = json.dumps(card).split('"commands": []', 1)
    room = CAP - len(head) - len(tail) - 64
    items: list[str] = []
    size = 0
    while True:
        item = f'{{"name":"c{len(items):x}","description":""}}'
        if size + len(item) + 1 > room:
            break
        items.append(item)
        size += len(item) + 1
    return (head + '"commands": [' + ",".join(items) + "]" + tail).encode()


CASES: dict[str, Callable[[], bytes]] = {
    "non-object-commands": lambda: _with_commands("0"),
    "null-commands": lambda: _with_commands("null"),
    "bad-name-commands": lambda: _with_commands('{"name":"A"}'),
    "duplicate-commands": lambda: _with_commands('{"name":"a"}'),
    "wrong-type-fields": lambda: _with_commands('{"name":1,"description":2,"argumentHint":3}'),
    "unknown-command-fields": lambda: _with_commands('{"name":"a","x":0}'),
    "non-object-skills": lambda: _fill("skills", "0"),
    "bad-skills": lambda: _fill("skills", '{"id":1,"tags":2}'),
    "non-object-interfaces": lambda: _fill("supportedInterfaces", "0"),
    "bad-interfaces": lambda: _fill("supportedInterfaces", '{"url":"x","protocolBinding":1}'),
    "non-object-extensions": lambda: _fill_extensions("0"),
    "duplicate-extensions": lambda: _fill_extensions(json.dumps({"uri": COMMANDS_URI})),
    "unknown-top-level-fields": _unknown_top_level,
    "duplicate-keys": _duplicate_keys,
    "duplicate-key-objects-100k": lambda: _extra_array('{"a":0,"a":1}', 100_000),
    "duplicate-key-objects": lambda: _extra_array('{"a":0,"a":1}'),
    "one-duplicate-key-last": _one_duplicate_key_last,
    "non-finite-numbers": lambda: _fill("skills", "NaN"),
    "deep-nesting": _deep,
    "many-strings": lambda: _with_commands('"a"'),
    "empty-object-commands": lambda: _with_commands("{}"),
    "empty-object-skills": lambda: _fill("skills", "{}"),
    "empty-array-skills": lambda: _fill("skills", "[]"),
    "long-names": lambda: _with_commands(json.dumps({"name": "A" * 4000, "description": ""})),
    "valid-distinct-commands": _valid_commands,
}


def _fill_extensions(item: str) -> bytes:
    card = _card()
    card["capabilities"]["extensions"] = []
    text = json.dumps(card)
    head, tail = text.split('"extensions": []', 1)
    count = (CAP - len(head) - len(tail) - 64) // (len(item) + 1)
    return (head + '"extensions": [' + ",".join([item] * count) + "]" + tail).encode()


def _th_ext() -> list[str]:
    script = Path(sys.executable).parent / "th-ext"
    return [str(script)] if script.exists() else [sys.executable, "-m", "th_ext"]


#: A child is stopped past this much address space or CPU time: the machine is shared, and a
#: run that needs more has failed its target many times over.
GUARD_MB = 3072
GUARD_SECONDS = 30


def _guard() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (GUARD_MB * 1024 * 1024,) * 2)
    resource.setrlimit(resource.RLIMIT_CPU, (GUARD_SECONDS, GUARD_SECONDS))


def measure(path: Path, output_format: str) -> tuple[float, float, float, int]:
    """Peak RSS (MB), wall time and CPU time (s) of one ``th-ext validate`` run, and its exit
    code. The CPU time is the steadier figure on a machine shared with other work."""
    start = time.perf_counter()
    with open(os.devnull, "wb") as sink:  # noqa: PTH123
        child = subprocess.Popen(
            [*_th_ext(), "validate", "--format", output_format, str(path)],
            stdout=sink,
            stderr=subprocess.PIPE,
            preexec_fn=_guard,  # noqa: PLW1509 (sets limits only, before exec)
        )
        assert child.stderr is not None
        err = child.stderr.read()
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    elapsed = time.perf_counter() - start
    if child.returncode not in (0, 1, 2) or b"internal error" in err:
        reason = err.decode(errors="replace").strip().splitlines()[-1:] or ["killed"]
        print(f"  {path.name}: exit {child.returncode}: {reason[0][:200]}")
    return usage.ru_maxrss / 1024, elapsed, usage.ru_utime + usage.ru_stime, child.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", help="run only this case (repeatable)")
    parser.add_argument("--format", default="text", choices=["text", "json", "junit"])
    parser.add_argument("--max-mb", type=float, default=300.0)
    parser.add_argument("--max-seconds", type=float, default=2.0)
    parser.add_argument("--check", action="store_true", help="exit 1 when over a target")
    args = parser.parse_args()
    over = 0
    worst_mb = worst_s = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'case':28} {'bytes':>9} {'peak MB':>8} {'/target':>7}", end="")
        print(f" {'s':>6} {'/target':>7} {'cpu s':>6} exit")
        for name, build in CASES.items():
            if args.only and name not in args.only:
                continue
            data = build()
            assert len(data) <= CAP, (name, len(data))
            path = Path(tmp) / f"{name}.json"
            path.write_bytes(data)
            del data
            mb, seconds, cpu, code = measure(path, args.format)
            worst_mb, worst_s = max(worst_mb, mb), max(worst_s, seconds)
            flag = ""
            if mb > args.max_mb or seconds > args.max_seconds:
                over += 1
                flag = "  OVER"
            print(
                f"{name:28} {path.stat().st_size:>9} {mb:>8.0f} {mb / args.max_mb:>7.2f} "
                f"{seconds:>6.2f} {seconds / args.max_seconds:>7.2f} {cpu:>6.2f} {code:>4}{flag}"
            )
    print(f"worst: {worst_mb:.0f} MB, {worst_s:.2f} s; {over} case(s) over a target")
    return 1 if args.check and over else 0


if __name__ == "__main__":
    sys.exit(main())
