"""``th-ext validate URL --db``: the card response's ``ETag`` and ``Last-Modified`` recorded
with its outcome (what a later run asks with), and the caching warnings in their category."""

from __future__ import annotations

from pathlib import Path

from tests.acceptance.validate.conftest import CardServer, good_card, respond, run_validate
from th_ext.history import CODE_CATEGORIES, HistoryStore
from th_ext.sources import CACHING_CODES

WELL_KNOWN = "/.well-known/agent-card.json"


def test_the_card_s_validators_are_recorded_with_its_outcome(
    card_server: CardServer, tmp_path: Path
) -> None:
    headers = {"ETag": '"card-v1"', "Last-Modified": "Sat, 05 Dec 2026 10:00:00 GMT"}
    card_server.route(WELL_KNOWN, respond(200, good_card(), headers))
    url = card_server.url()
    store = tmp_path / "h.db"
    assert run_validate(url, "--db", str(store)).code == 0
    card_server.route(WELL_KNOWN, respond(200, good_card(), cached=False))
    assert run_validate(url, "--db", str(store), "--strict").code == 1
    with HistoryStore.open(store, write=False) as opened:
        first, second = opened.runs()
        before = opened.outcomes(first.id)[url]
        after = opened.outcomes(second.id)[url]
    assert (before.etag, before.last_modified) == ('"card-v1"', "Sat, 05 Dec 2026 10:00:00 GMT")
    assert (after.etag, after.last_modified) == (None, None)
    assert after.category == "caching"  # only the caching warnings failed it, under --strict
    assert set(after.problems) <= set(CACHING_CODES)


def test_every_caching_code_is_in_the_caching_category() -> None:
    assert {CODE_CATEGORIES[code] for code in CACHING_CODES} == {"caching"}
