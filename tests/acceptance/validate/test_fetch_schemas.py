"""``--fetch-schemas``: the family's schemas read from their ``$id``, pinned and cached.

A real server on 127.0.0.1 stands for the Pages site: the fetcher is the one the command
uses (``http_fetcher``, under the card's limits), with the site's origin mapped to the
server's, since nothing outside the loopback is reachable. Each rule is shown failing: a
schema that differs from the catalog's pin or from the cached copy is refused naming both
hashes, a pinned cached copy is used without a fetch, and no header goes to the schema's host.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from tests.acceptance.validate.conftest import CardServer, respond
from tests.support.host_schemas import PREFIX, URIS, status_schema
from th_ext.catalog._family import ExternalExtension, family_entry
from th_ext.catalog._family_fetch import Fetcher, fetch_family_schemas, http_fetcher
from th_ext.sources._source import SourceLimits

SITE = PREFIX.removesuffix("a2a/ext/")
STATUS_PATH = "/tiny-harness/a2a/ext/status/v1/schema.json"
CATALOG_PATH = "/tiny-harness/a2a/ext/index.json"


def _fetcher(server: CardServer) -> Fetcher:
    limits = SourceLimits(headers=(("Authorization", "Bearer secret"),), timeout=5)
    real = http_fetcher(limits)
    return lambda url: real(server.base + "/tiny-harness/" + url.removeprefix(SITE))


def _serve(server: CardServer, schema: bytes, pin: bytes | None) -> None:
    server.route(STATUS_PATH, respond(200, schema))
    if pin is None:
        server.routes.pop(CATALOG_PATH, None)
        return
    catalog = {
        "extensions": [],
        "external": [{"uri": URIS["status"], "schema_sha256": hashlib.sha256(pin).hexdigest()}],
    }
    server.route(CATALOG_PATH, respond(200, catalog))


def _entries() -> list[ExternalExtension]:
    entry = family_entry(URIS["status"])
    assert entry is not None
    return [entry]


def _paths(server: CardServer) -> list[str]:
    return [path for path, _ in server.seen]


def test_a_pinned_schema_is_fetched_once_then_read_from_the_cache(
    card_server: CardServer, tmp_path: Path
) -> None:
    schema = json.dumps(status_schema()).encode()
    _serve(card_server, schema, pin=schema)
    first = fetch_family_schemas(_entries(), _fetcher(card_server), tmp_path / "cache")
    assert [s.uri for s in first.schemas] == [URIS["status"]]
    assert first.schemas[0].sha256 == hashlib.sha256(schema).hexdigest()
    assert (first.changed, first.notes) == ((), ())
    assert _paths(card_server) == [CATALOG_PATH, STATUS_PATH]
    assert all("Authorization" not in headers for _, headers in card_server.seen)
    assert (
        tmp_path / "cache" / f"{hashlib.sha256(schema).hexdigest()}.json"
    ).read_bytes() == schema

    card_server.seen.clear()
    again = fetch_family_schemas(_entries(), _fetcher(card_server), tmp_path / "cache")
    assert [s.sha256 for s in again.schemas] == [first.schemas[0].sha256]
    assert _paths(card_server) == [CATALOG_PATH], "a pinned cached copy is not fetched again"


def test_a_schema_that_is_not_the_catalogs_pin_is_refused_naming_both(
    card_server: CardServer, tmp_path: Path
) -> None:
    published = json.dumps(status_schema()).encode()
    changed = json.dumps({**status_schema(), "required": []}).encode()
    _serve(card_server, changed, pin=published)
    found = fetch_family_schemas(_entries(), _fetcher(card_server), tmp_path / "cache")
    assert found.schemas == ()
    ((entry, message),) = found.changed
    assert entry.uri == URIS["status"]
    assert hashlib.sha256(changed).hexdigest() in message
    assert hashlib.sha256(published).hexdigest() in message
    assert "published catalog" in message
    assert not (tmp_path / "cache").exists() or not list((tmp_path / "cache").glob("*.json"))


def test_without_a_catalog_the_cached_copy_pins_the_schema(
    card_server: CardServer, tmp_path: Path
) -> None:
    first = json.dumps(status_schema()).encode()
    _serve(card_server, first, pin=None)
    found = fetch_family_schemas(_entries(), _fetcher(card_server), tmp_path / "cache")
    assert len(found.schemas) == 1
    assert any("index.json was not read" in note for note in found.notes)
    later = json.dumps({**status_schema(), "title": "Changed in place"}).encode()
    _serve(card_server, later, pin=None)
    refused = fetch_family_schemas(_entries(), _fetcher(card_server), tmp_path / "cache")
    ((_, message),) = refused.changed
    assert hashlib.sha256(later).hexdigest() in message
    assert f"the cache has {hashlib.sha256(first).hexdigest()}" in message


def test_an_unreachable_schema_falls_back_to_the_cached_copy_with_a_note(
    card_server: CardServer, tmp_path: Path
) -> None:
    schema = json.dumps(status_schema()).encode()
    _serve(card_server, schema, pin=None)
    fetch_family_schemas(_entries(), _fetcher(card_server), tmp_path / "cache")
    card_server.route(STATUS_PATH, respond(500, "down"))
    found = fetch_family_schemas(_entries(), _fetcher(card_server), tmp_path / "cache")
    assert [s.sha256 for s in found.schemas] == [hashlib.sha256(schema).hexdigest()]
    assert any("the cached copy used" in note for note in found.notes)
    empty = fetch_family_schemas(_entries(), _fetcher(card_server), tmp_path / "other-cache")
    assert empty.schemas == ()
    assert any(f"{URIS['status']}/schema.json was not fetched" in n for n in empty.notes)
