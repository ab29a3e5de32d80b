"""``th_ext.sources._source`` without a network: arguments, files, and what ``load_card`` raises."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.unit.validate.conftest import example_card
from th_ext._exceptions import (
    CardDocumentError,
    SourceArgumentError,
    SourceError,
    SourceTooLargeError,
    SourceUnreadableError,
)
from th_ext.sources._source import SourceLimits, is_url, parse_header, read_source, well_known_urls
from th_ext.validate import clean, load_card


def test_parse_header() -> None:
    assert parse_header("Authorization: Bearer a:b ") == ("Authorization", "Bearer a:b")
    assert parse_header("X-Empty:") == ("X-Empty", "")
    for bad in ("no colon", ": value", "Bad Name: v", "X: a\r\nInjected: 1", "X: snow \u2603"):
        with pytest.raises(SourceArgumentError):
            parse_header(bad)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "https://agent.example",
            (
                "https://agent.example/.well-known/agent-card.json",
                "https://agent.example/.well-known/agent.json",
            ),
        ),
        (
            "https://agent.example/team/bot/?t=1#frag",
            (
                "https://agent.example/team/bot/.well-known/agent-card.json?t=1",
                "https://agent.example/team/bot/.well-known/agent.json?t=1",
            ),
        ),
        ("http://h:8/cards/a.JSON", ("http://h:8/cards/a.JSON", None)),
    ],
)
def test_well_known_urls(url: str, expected: tuple[str, str | None]) -> None:
    assert well_known_urls(url) == expected


def test_is_url() -> None:
    assert is_url("HTTPS://x.example")
    assert is_url("http://127.0.0.1:8/")
    assert not is_url("card.json")
    assert not is_url("file:///etc/passwd")
    assert not is_url("-")


def test_other_schemes_are_refused() -> None:
    with pytest.raises(SourceArgumentError, match="unsupported URL scheme 'file'"):
        read_source("file:///etc/passwd")


@pytest.mark.parametrize("source", ["", "  ", "\t"])
def test_an_empty_source_is_refused_as_empty(source: str) -> None:
    with pytest.raises(SourceArgumentError, match="an empty SOURCE"):
        read_source(source)


def test_limits_are_checked() -> None:
    for limits in (
        SourceLimits(timeout=0),
        SourceLimits(timeout=float("nan")),
        SourceLimits(max_bytes=0),
        SourceLimits(headers=(("Bad Name", "v"),)),
    ):
        with pytest.raises(SourceArgumentError):
            read_source("card.json", limits)


def test_load_card_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "card.json"
    path.write_text(json.dumps(example_card()), encoding="utf-8")
    loaded = load_card(str(path))
    assert loaded.card["name"] == "Harness demo agent"
    assert loaded.location == str(path)
    assert loaded.problems == ()


def test_load_card_keeps_the_problems_that_did_not_stop_it(tmp_path: Path) -> None:
    path = tmp_path / "card.json"
    path.write_bytes(b'\xef\xbb\xbf{"name": "a", "name": "b"}')
    loaded = load_card(str(path))
    assert loaded.card == {"name": "b"}
    assert [p.code for p in loaded.problems] == ["byte-order-mark", "duplicate-key"]


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"", "empty-document"),
        (b"\xff", "invalid-utf8"),
        (b"{", "invalid-json"),
        (b"[1, 2]", "not-an-object"),
        (b"[" * 100_000, "too-deep"),
    ],
)
def test_load_card_raises_card_document_error(tmp_path: Path, data: bytes, code: str) -> None:
    path = tmp_path / "card.json"
    path.write_bytes(data)
    with pytest.raises(CardDocumentError) as caught:
        load_card(str(path))
    assert caught.value.code == code
    assert isinstance(caught.value, SourceError)
    assert "\n" not in str(caught.value)


def test_files_that_cannot_be_read(tmp_path: Path) -> None:
    with pytest.raises(SourceUnreadableError, match="no such file"):
        read_source(str(tmp_path / "absent.json"))
    with pytest.raises(SourceUnreadableError, match="is a directory"):
        read_source(str(tmp_path))
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 101)
    with pytest.raises(SourceTooLargeError):
        read_source(str(big), SourceLimits(max_bytes=100))
    assert read_source(str(big), SourceLimits(max_bytes=101)).data == b" " * 101


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("plain é 漢字", "plain é 漢字"),
        ("red\x1b[31m!\x1b[0m", "red!"),
        ("title\x1b]0;owned\x07.", "title."),
        ("link\x1b]8;;http://x\x1b\\here\x1b]8;;\x1b\\", "linkhere"),
        ("c1\x9b2Jx", "c1x"),
        ("a\nb\tc\rd", "a b c d"),
        ("bidi\u202etxt\u2066", "biditxt"),
        ("nul\x00bell\x07", "nulbell"),
        ("lone\ud800", "lone\ufffd"),
    ],
)
def test_clean(text: str, expected: str) -> None:
    assert clean(text) == expected
