"""A fleet's nights, recorded: real cards on 127.0.0.1 and in files, checked each night by the
library's batch (``check_cards``) and recorded in a history store under that night's date.

The fleet has a card of every kind a registry meets: valid ones (some slow), one whose
extension is broken, one served as 404, one that is not JSON, a file that is missing, one that
flips every night (flaky), one fixed on the last night, one that newly fails on the last night,
one that appears and one that goes on the last night, and a file whose name holds HTML and
control characters.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.support.card_origins import Origin, serve_origins
from th_ext.batch import check_cards
from th_ext.history import HistoryStore
from th_ext.sources import SourceLimits

__all__ = ["CARD", "HOSTILE_NAME", "NIGHT", "Fleet", "broken_card", "record_nights"]

REPO = Path(__file__).resolve().parents[2]
CARD = (REPO / "extensions" / "commands" / "v1" / "examples" / "card.json").read_bytes()
HOSTILE_NAME = '<img src=x onerror="window.hacked=1">\x1b[31m\x07card.json'
NIGHT = 86_400.0
FIRST_NIGHT = 1_780_000_000.0  # 2026-05-28, 20:26 UTC


def broken_card() -> bytes:
    card = json.loads(CARD)
    card["capabilities"]["extensions"][0]["params"]["commands"][0]["name"] = "Bad Name"
    return json.dumps(card).encode()


@dataclass
class Fleet:
    """What ``record_nights`` recorded: the store, each role's source name, the runs' ids."""

    store: Path
    names: dict[str, str] = field(default_factory=dict)
    runs: list[int] = field(default_factory=list)


def record_nights(store: Path, folder: Path, nights: int = 14) -> Fleet:
    """Record ``nights`` nightly runs of one list into ``store`` (a file in ``folder``)."""
    fleet = Fleet(store)
    good, bad = CARD, broken_card()
    origins = {
        "steady": Origin(body=good),
        "slow": Origin(body=good, delay=0.05),
        "slower": Origin(body=good, delay=0.1),
        "broken": Origin(body=bad),
        "gone-404": Origin(body=b"no", status=404),
        "not-json": Origin(body=b"<html>hello</html>"),
        "flaky": Origin(body=good),
        "fixed": Origin(body=bad),
        "new-failure": Origin(body=good),
        "appears": Origin(body=good),
        "goes": Origin(body=bad),
    }
    (folder / HOSTILE_NAME).write_bytes(good)
    fleet.names["hostile"] = str(folder / HOSTILE_NAME)
    fleet.names["missing"] = str(folder / "missing-card.json")
    with serve_origins(list(origins.values())):
        for role, origin in origins.items():
            fleet.names[role] = f"{origin.url}/{role}/agent-card.json"
        for night in range(nights):
            last = night == nights - 1
            origins["flaky"].body = good if night % 2 == 0 else bad
            origins["fixed"].body = good if last else bad
            origins["new-failure"].status = 500 if last else 200
            origins["slower"].delay = 0.05 + 0.01 * (night % 5)
            roles = [role for role in fleet.names if role not in ("appears", "goes")]
            roles += ["appears"] if last else ["goes"]
            sources = [fleet.names[role] for role in roles]
            fleet.runs.append(_record(store, sources, FIRST_NIGHT + night * NIGHT))
    return fleet


def _record(store: Path, sources: list[str], started: float) -> int:
    """One night: every source checked and recorded, as ``validate --from nightly.txt --db``
    records it (in a thread of its own, so that a test's own event loop is no obstacle)."""
    found: list[int] = []

    async def night() -> None:
        with HistoryStore.open(store) as opened:
            recorder = opened.start_run("validate", "--from nightly.txt", {}, started=started)
            worst = 0
            async for outcome in check_cards(sources, limits=SourceLimits(timeout=5.0)):
                assert outcome.document is not None
                recorder.add(outcome.source, outcome.exit_code, outcome.seconds, outcome.document)
                worst = max(worst, outcome.exit_code)
            recorder.finish("complete", worst)
            found.append(recorder.run_id)

    _in_thread(lambda: asyncio.run(night()))
    return found[0]


def _in_thread(work: Callable[[], Any]) -> None:
    failure: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as exc:
            failure.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
