"""Many validations in one process: the time of 1,000 validations of real agent cards.

A fleet runner, a test suite or a pre-commit hook over a repository validates many cards in one
run, so what counts there is the cost of one more card once th-ext is loaded, not start-up. The
cards are the real ones in ``tests/data/real_cards`` (taken in turn), and, as a second case, the
commands extension's example card, whose params go through the extension's JSON schema on every
validation. Each case is timed over ``--count`` validations after one warm-up validation, and the
best of ``--repeat`` runs is printed with the time per card and the CPU time.

Run ``python benchmarks/bench_real_cards.py`` (``--count N``, ``--repeat N``).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from th_ext.validate import validate_bytes

REPO = Path(__file__).resolve().parent.parent
REAL_CARDS = sorted((REPO / "tests" / "data" / "real_cards").glob("*.json"))
EXAMPLE_CARD = REPO / "extensions" / "commands" / "v1" / "examples" / "card.json"


def _run(cards: list[tuple[str, bytes]], count: int) -> tuple[float, float]:
    """Wall and CPU seconds of ``count`` validations (CPU time is steadier on a shared host)."""
    start, cpu = time.perf_counter(), time.process_time()
    for index in range(count):
        name, data = cards[index % len(cards)]
        validate_bytes(data, source=name)
    return time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    cases = {
        f"{len(REAL_CARDS)} real cards in turn": [(p.name, p.read_bytes()) for p in REAL_CARDS],
        "the commands example card": [(EXAMPLE_CARD.name, EXAMPLE_CARD.read_bytes())],
    }
    for name, cards in cases.items():
        _run(cards, len(cards))  # warm-up: bundled schemas read, validators built
        runs = [_run(cards, args.count) for _ in range(args.repeat)]
        wall, cpu = min(r[0] for r in runs), min(r[1] for r in runs)
        per_card = wall / args.count * 1000
        print(
            f"{name}: {args.count} validations in {wall:.3f} s ({per_card:.3f} ms a card), "
            f"{cpu:.3f} s of CPU"
        )


if __name__ == "__main__":
    main()
