"""A card whose values defeat the card schema's keywords gets its problems, each with its path,
in bounded time and memory: a 5 MB string where a URL goes, thousands of skills, keys that
differ from a field's name only in Unicode normalisation, a URI that nearly names two
extensions."""

from __future__ import annotations

import json
import time
import tracemalloc
from typing import Any

from tests.acceptance.hostile.conftest import EXAMPLE_CARD
from th_ext.validate import Report, validate_bytes
from th_ext.validate._limits import MAX_PER_CODE

BIG = 5 * 1024 * 1024
BASE = "https://madarauchiha-314.github.io/tiny-harness/a2a/ext/commands"


def _wide(name: str) -> str:
    """``name`` in fullwidth letters, which NFKC makes ``name`` again."""
    return "".join(chr(ord(letter) + 0xFEE0) for letter in name)


WIDE_NAME, WIDE_COMMANDS = _wide("name"), _wide("commands")


def _card() -> dict[str, Any]:
    value: dict[str, Any] = json.loads(EXAMPLE_CARD.read_text(encoding="utf-8"))
    return value


def _validate(card: dict[str, Any], *, memory: bool = False) -> tuple[Report, float, float]:
    """The report, the seconds it took and (with ``memory``) the peak MB it allocated."""
    data = json.dumps(card, ensure_ascii=False).encode()
    if memory:
        tracemalloc.start()
    start = time.monotonic()
    try:
        report = validate_bytes(data, source="card.json")
        elapsed = time.monotonic() - start
        peak = tracemalloc.get_traced_memory()[1] / 1024 / 1024
    finally:
        tracemalloc.stop()
    return report, elapsed, peak


def _at(report: Report, path: str) -> list[tuple[str, str]]:
    return [(p.severity, p.code) for p in report.problems if p.path == path]


def test_a_5_mb_string_where_a_url_goes() -> None:
    card = _card()
    card["supportedInterfaces"][0]["url"] = "a" * BIG
    card["documentationUrl"] = " " * BIG
    card["iconUrl"] = "h" * BIG
    report, elapsed, peak = _validate(card, memory=True)
    assert _at(report, "/supportedInterfaces/0/url") == [("error", "invalid-url")]
    assert _at(report, "/iconUrl") == [("warning", "invalid-url")]
    assert _at(report, "/documentationUrl") == []  # blank: nothing a client can follow
    assert all(len(p.message) < 300 and len(p.hint) < 300 for p in report.problems)
    assert elapsed < 30
    assert peak < 20 * BIG / 1024 / 1024


def test_8_000_skills() -> None:
    card = _card()
    card["skills"] = [{"id": f"s{i}", "description": "d", "tags": ["t"]} for i in range(6_000)]
    card["skills"] += [{"id": "same", "name": "n", "description": "d", "tags": []}] * 2_000
    report, elapsed, _ = _validate(card)
    codes = [p.code for p in report.problems]
    assert codes.count("missing-field") == MAX_PER_CODE
    assert codes.count("empty-array") == MAX_PER_CODE
    assert codes.count("duplicate-skill-id") == MAX_PER_CODE
    assert _at(report, "/skills/0/name") == [("error", "missing-field")]
    assert _at(report, "/skills/6000/tags") == [("error", "empty-array")]
    assert _at(report, "/skills/6001/id") == [("warning", "duplicate-skill-id")]
    more = {p.message for p in report.problems if p.code == "more-problems"}
    assert "and 5900 more 'missing-field' problems like the ones above, not listed" in more
    assert "and 1900 more 'empty-array' problems like the ones above, not listed" in more
    assert elapsed < 60


def test_10_000_skills_each_wrong_three_ways() -> None:
    card = _card()
    card["skills"] = [{"id": "same", "description": 7, "tags": []} for _ in range(10_000)]
    report, elapsed, _ = _validate(card)
    card_layer = [p for p in report.problems if p.layer == "card"]
    assert len(card_layer) < 10 * MAX_PER_CODE
    placed = [p for p in card_layer if p.code not in ("more-problems", "too-many-problems")]
    assert placed and all(p.path.startswith("/skills/") for p in placed)
    assert card_layer[-1].code == "too-many-problems"
    assert elapsed < 60


def test_keys_that_differ_only_in_unicode_normalisation() -> None:
    card = _card()
    card[WIDE_NAME] = card.pop("name")
    params = card["capabilities"]["extensions"][0]["params"]
    params[WIDE_COMMANDS] = params.pop("commands")
    card["skills"][0]["ta\u0261s"] = ["x"]  # a Latin script g: no normalisation makes it "tags"
    report, _, _ = _validate(card)
    assert _at(report, "/name") == [("error", "missing-field")]
    [unknown] = [p for p in report.problems if p.path == f"/{WIDE_NAME}"]
    assert (unknown.code, unknown.hint) == ("unknown-field", "did you mean 'name'?")
    [extra] = [p for p in report.problems if p.path.endswith(f"/params/{WIDE_COMMANDS}")]
    assert extra.code == "schema-violation"
    assert extra.hint.startswith("did you mean 'commands'?")
    assert _at(report, "/skills/0/ta\u0261s") == [("warning", "unknown-field")]


def test_a_uri_that_nearly_names_two_extensions() -> None:
    card = _card()
    card["capabilities"]["extensions"][0]["uri"] = BASE + "/"
    card["capabilities"]["extensions"].append({"uri": BASE + "/V1/", "params": {"commands": 7}})
    report, _, _ = _validate(card)
    first = [p for p in report.problems if p.path == "/capabilities/extensions/0/uri"]
    assert [(p.severity, p.code) for p in first] == [("error", "near-miss-extension-uri")]
    assert "a missing version segment" in first[0].message
    second = _at(report, "/capabilities/extensions/1/uri")
    assert second == [("error", "near-miss-extension-uri")]
    assert _at(report, "/capabilities/extensions/1/params/commands") == []  # not checked
