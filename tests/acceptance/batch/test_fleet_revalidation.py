"""``th-ext validate --db STORE --format jsonl``, run night after night against real servers on
127.0.0.1: the second run asks for each card with the ``ETag`` the store recorded, a 304 is
the earlier line carried over (``"fetch": "unchanged"``), and a card is fetched whole when it
changed, when the run's th-ext or verdict options differ, or when the 304 cannot stand for it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from tests.acceptance.validate.conftest import CardServer, good_card, run_validate, serve_routes
from th_ext.history import HistoryStore


def conditional(etag: str, *, body_on_304: bytes = b"") -> Any:
    """A card route with ``etag`` that answers a matching ``If-None-Match`` with 304 (and,
    against the rules, ``body_on_304`` after it)."""
    body = json.dumps(good_card()).encode()

    def handle(request: BaseHTTPRequestHandler) -> None:
        if request.headers.get("If-None-Match") == etag:
            request.send_response(304)
            request.send_header("ETag", etag)
            request.send_header("Cache-Control", "max-age=60")
            request.end_headers()
            request.wfile.write(body_on_304)
            return
        request.send_response(200)
        request.send_header("Content-Type", "application/json")
        request.send_header("Cache-Control", "max-age=60")
        request.send_header("ETag", etag)
        request.send_header("Content-Length", str(len(body)))
        request.end_headers()
        request.wfile.write(body)

    return handle


@pytest.fixture
def server() -> Iterator[CardServer]:
    with serve_routes() as state:
        yield state


def night(listed: Path, db: Path, *args: str) -> list[dict[str, Any]]:
    run = run_validate("--from", str(listed), "--db", str(db), "-f", "jsonl", "-q", *args)
    assert run.code == 0, run.stdout + run.stderr
    assert run.stderr == ""
    return [json.loads(line) for line in run.stdout.splitlines()]


def asked(server: CardServer) -> list[str | None]:
    return [headers.get("If-None-Match") for _, headers in server.seen]


def test_the_second_night_asks_with_the_recorded_tag_and_carries_the_verdict(
    server: CardServer, tmp_path: Path
) -> None:
    url = server.route("/card.json", conditional('"v1"'))
    listed, db = tmp_path / "cards.txt", tmp_path / "history.db"
    listed.write_text(url + "\n", encoding="utf-8")
    (first,) = night(listed, db)
    assert first["fetch"] == "whole" and first["valid"] is True
    (second,) = night(listed, db)
    assert asked(server) == [None, '"v1"']
    assert second == {**first, "fetch": "unchanged"}
    with HistoryStore.open(db, write=False) as store:
        runs = store.runs(command="validate")
        assert [r.status for r in runs] == ["complete", "complete"]
        recorded = [store.outcomes(r.id)[url] for r in runs]
    assert [(o.etag, o.exit_code) for o in recorded] == [('"v1"', 0), ('"v1"', 0)]


def test_a_changed_card_is_fetched_whole(server: CardServer, tmp_path: Path) -> None:
    url = server.route("/card.json", conditional('"v1"'))
    listed, db = tmp_path / "cards.txt", tmp_path / "history.db"
    listed.write_text(url + "\n", encoding="utf-8")
    night(listed, db)
    server.route("/card.json", conditional('"v2"'))
    (second,) = night(listed, db)
    assert asked(server) == [None, '"v1"']
    assert second["fetch"] == "whole"


@pytest.mark.parametrize("other", [["--strict"], ["--extension", "commands/v1"]])
def test_other_verdict_options_fetch_every_card_whole(
    server: CardServer, tmp_path: Path, other: list[str]
) -> None:
    url = server.route("/card.json", conditional('"v1"'))
    listed, db = tmp_path / "cards.txt", tmp_path / "history.db"
    listed.write_text(url + "\n", encoding="utf-8")
    night(listed, db)
    (second,) = night(listed, db, *other)
    assert asked(server) == [None, None]
    assert second["fetch"] == "whole"
    (third,) = night(listed, db, *other)  # the same options as the night before: asked
    assert asked(server) == [None, None, '"v1"']
    assert third["fetch"] == "unchanged"


def test_a_run_of_another_th_ext_is_not_carried_over(server: CardServer, tmp_path: Path) -> None:
    url = server.route("/card.json", conditional('"v1"'))
    listed, db = tmp_path / "cards.txt", tmp_path / "history.db"
    listed.write_text(url + "\n", encoding="utf-8")
    with HistoryStore.open(db) as store:
        recorder = store.start_run("validate", f"--from {listed.resolve()}", {}, version="0.0.1")
        recorder.add(
            url,
            1,
            0.1,
            {
                "source": url,
                "format": 1,
                "exit_code": 1,
                "valid": False,
                "location": url,
                "problems": [],
            },
            etag='"v1"',
        )
        recorder.finish("complete")
    (line,) = night(listed, db)
    assert asked(server) == [None]
    assert line["fetch"] == "whole" and line["valid"] is True


def test_a_304_with_a_body_is_one_line_per_card(server: CardServer, tmp_path: Path) -> None:
    urls = [
        server.route(f"/{name}/card.json", conditional('"v1"', body_on_304=b'{"stale": true}'))
        for name in ("a", "b", "c")
    ]
    listed, db = tmp_path / "cards.txt", tmp_path / "history.db"
    listed.write_text("\n".join(urls) + "\n", encoding="utf-8")
    night(listed, db, "-j", "1")
    run = run_validate("--from", str(listed), "--db", str(db), "-f", "jsonl", "-q", "-j", "1")
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert sorted(line["source"] for line in lines) == urls
    assert "Traceback" not in run.stderr
    for line in lines:  # each card its own verdict: carried over, or read again whole
        assert line.get("fetch") in ("unchanged", "whole") or line["exit_code"] == 2
        assert "stale" not in json.dumps(line)


def test_text_output_with_the_store_reads_every_card_whole(
    server: CardServer, tmp_path: Path
) -> None:
    url = server.route("/card.json", conditional('"v1"'))
    db = tmp_path / "history.db"
    assert run_validate(url, "--db", str(db)).code == 0
    assert run_validate(url, "--db", str(db)).code == 0
    assert asked(server) == [None, None]
    with HistoryStore.open(db, write=False) as store:
        (last, *_) = reversed(store.runs(command="validate"))
        assert store.outcomes(last.id)[url].etag == '"v1"'
