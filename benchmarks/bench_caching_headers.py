"""Hostile caching fields of a card response: the time ``caching_problems`` takes on each.

A card response's ``Cache-Control``, ``ETag``, ``Last-Modified`` and ``Expires`` are read for
every card fetched over HTTP, so a server must not be able to make that slow. Each case is the
worst value of one kind (the longest value read in full, 100 KB refused by its length, a
hundred field lines of one name) and is timed against the fields of an ordinary card response;
the ratio is printed against a target (``--max-ratio``, 200: the work is bounded by
``MAX_FIELD_CHARS``, not by what the server sends).

Run ``python benchmarks/bench_caching_headers.py`` (``--check`` to exit 1 over the target).
"""

from __future__ import annotations

import argparse
import sys
import timeit
from collections.abc import Sequence

from th_ext.net._caching import MAX_FIELD_CHARS
from th_ext.sources import caching_problems

Fields = Sequence[tuple[str, str]]

ORDINARY: Fields = [
    ("content-type", "application/json"),
    ("cache-control", "public, max-age=3600"),
    ("etag", '"3e6d3301d3488711542d3b25c129f85f"'),
    ("last-modified", "Sun, 06 Nov 1994 08:49:37 GMT"),
]


def _distinct_directives(chars: int) -> str:
    """As many distinct directives as fit in ``chars``: the longest value parsed to its end."""
    parts: list[str] = []
    size = 0
    while True:
        part = f'd{len(parts)}="{"x" * 8}"'
        if size + len(part) + 2 > chars:
            return ", ".join(parts)
        parts.append(part)
        size += len(part) + 2


CASES: dict[str, Fields] = {
    "cache-control read in full (8 KB)": [
        ("cache-control", _distinct_directives(MAX_FIELD_CHARS)),
        ("etag", '"v1"'),
    ],
    "cache-control of 100 KB": [("cache-control", "public, " * 12_800), ("etag", '"v1"')],
    "100 cache-control lines": [("cache-control", "max-age=60")] * 100 + [("etag", '"v1"')],
    "etag of 100 KB": [("cache-control", "max-age=60"), ("etag", '"' + "a" * 102_400 + '"')],
    "etag of control characters": [("cache-control", "max-age=60"), ("etag", "\x01" * 102_400)],
    "last-modified of 100 KB": [
        ("cache-control", "max-age=60"),
        ("etag", '"v1"'),
        ("last-modified", "Sun, " * 20_480),
    ],
    "100 expires lines": [("cache-control", "max-age=60"), ("etag", '"v1"')]
    + [("expires", "0")] * 100,
}


def seconds_per_call(fields: Fields) -> float:
    timer = timeit.Timer(lambda: caching_problems(fields))
    number, _ = timer.autorange()
    return min(timer.repeat(repeat=5, number=number)) / number


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-ratio", type=float, default=200.0)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    base = seconds_per_call(ORDINARY)
    print(f"{'ordinary card response':36} {base * 1e6:9.1f} µs")
    over = False
    for name, fields in CASES.items():
        took = seconds_per_call(fields)
        ratio = took / base
        over |= ratio > args.max_ratio
        mark = "OVER" if ratio > args.max_ratio else "ok"
        print(f"{name:36} {took * 1e6:9.1f} µs  {ratio:7.1f}x  (target {args.max_ratio:g}x) {mark}")
    return 1 if over and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
